import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)",
];
const FEES = [500, 3000, 10000];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const { usdc, wbtc } = deployedContracts;
  const cap = ethers.parseUnits("{{c}}", 6);
  const pathOf = (buy: number, sell: number) =>
    ethers.solidityPacked(
      ["address", "uint24", "address", "uint24", "address"],
      [usdc, buy, wbtc, sell, usdc],
    );
  // A size too small to buy one WBTC unit reverts in the second pool ("AS"): no profit there.
  const profit = async (path: string, amount: bigint) => {
    try {
      const [out]: [bigint] = await quoter.quoteExactInput.staticCall(path, amount);
      return out - amount;
    } catch {
      return -amount;
    }
  };
  // Profit is concave in the amount (two constant-liquidity legs, fees on the input): a ternary
  // search on exact quotes sizes each ordered pair of pools that profits at all, capped by the
  // allowance; the two probes of a step are quoted in parallel.
  let best = { path: "", amount: 0n, profit: 0n };
  for (const buy of FEES)
    for (const sell of FEES) {
      if (buy === sell) continue;
      const path = pathOf(buy, sell);
      if ((await profit(path, cap / 100n)) <= 0n) continue;
      let [lo, hi] = [0n, cap];
      while (hi - lo > cap / 5000n) {
        const m1 = lo + (hi - lo) / 3n;
        const m2 = hi - (hi - lo) / 3n;
        const [p1, p2] = await Promise.all([profit(path, m1), profit(path, m2)]);
        if (p1 < p2) lo = m1;
        else hi = m2;
      }
      const amount = (lo + hi) / 2n;
      const p = await profit(path, amount);
      if (p > best.profit) best = { path, amount, profit: p };
    }
  if (best.amount === 0n) return { refuse: { reason: "no round trip between these pools is profitable" } };
  const quoted = best.amount + best.profit;
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const deadline = BigInt((await provider.getBlock("latest"))!.timestamp + 1200);
  return {
    to: deployedContracts.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactInput", [
      {
        path: best.path,
        recipient: agentAddress,
        deadline,
        amountIn: best.amount,
        amountOutMinimum: (quoted * (10_000n - slippageBps)) / 10_000n,
      },
    ]),
  };
}

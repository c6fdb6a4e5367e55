import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)",
  "function multicall(bytes[] data) payable returns (bytes[] results)",
];
const FEES = [500, 3000, 10000];
const CHUNKS = 50n;

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const amountOut = ethers.parseUnits("{{y}}", 8);
  const cost = async (fee: number, amount: bigint): Promise<bigint> => {
    if (amount === 0n) return 0n;
    const [paid]: [bigint] = await quoter.quoteExactOutputSingle.staticCall({
      tokenIn: deployedContracts.usdc,
      tokenOut: deployedContracts.wbtc,
      amount,
      fee,
      sqrtPriceLimitX96: 0n,
    });
    return paid;
  };
  // Each pool's cost is convex in what it delivers: hand the WBTC out in fiftieths to the pool
  // whose next fiftieth costs least (greedy water-filling on exact quotes), one quote per step.
  const step = amountOut / CHUNKS;
  const legs = FEES.map(() => 0n);
  const spent = FEES.map(() => 0n);
  const next = await Promise.all(FEES.map((fee) => cost(fee, step)));
  for (let i = 0n; i < CHUNKS; i++) {
    let k = 0;
    for (let j = 1; j < FEES.length; j++) if (next[j]! - spent[j]! < next[k]! - spent[k]!) k = j;
    legs[k]! += step;
    spent[k] = next[k]!;
    next[k] = await cost(FEES[k]!, legs[k]! + step);
  }
  // The rounding remainder goes to the largest leg.
  let top = 0;
  for (const [j, leg] of legs.entries()) if (leg > legs[top]!) top = j;
  legs[top]! += amountOut - step * CHUNKS;
  const costs = await Promise.all(FEES.map((fee, k) => cost(fee, legs[k]!)));
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const deadline = BigInt((await provider.getBlock("latest"))!.timestamp + 1200);
  const router = new ethers.Interface(ROUTER_ABI);
  const calls = FEES.flatMap((fee, k) =>
    legs[k] === 0n
      ? []
      : [
          router.encodeFunctionData("exactOutputSingle", [
            {
              tokenIn: deployedContracts.usdc,
              tokenOut: deployedContracts.wbtc,
              fee,
              recipient: agentAddress,
              deadline,
              amountOut: legs[k],
              // Rounded down: the rules allow at most quote + s %.
              amountInMaximum: (costs[k]! * (10_000n + slippageBps)) / 10_000n,
              sqrtPriceLimitX96: 0n,
            },
          ]),
        ],
  );
  return { to: deployedContracts.v3_router, data: router.encodeFunctionData("multicall", [calls]) };
}

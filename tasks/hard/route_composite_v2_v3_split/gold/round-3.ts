import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
  "function multicall(bytes[] data) payable returns (bytes[] results)",
];
const FACTORY_ABI = ["function getPair(address, address) view returns (address)"];
const V2_ROUTER_ABI = ["function factory() view returns (address)"];
const TRANSFER = ethers.id("Transfer(address,address,uint256)");
const FEES = [500, 3000, 10000];
const CHUNKS = 50n;

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const { wbtc, usdc } = deployedContracts;
  // What the V2 swap actually took: the WBTC Transfer from me to the pair in the last rounds.
  const factory = await new ethers.Contract(
    deployedContracts.pancake_router,
    V2_ROUTER_ABI,
    provider,
  ).factory();
  const pair: string = await new ethers.Contract(factory, FACTORY_ABI, provider).getPair(wbtc, usdc);
  const latest = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: wbtc,
    topics: [TRANSFER, ethers.zeroPadValue(agentAddress, 32), ethers.zeroPadValue(pair, 32)],
    fromBlock: Math.max(0, latest - 20),
    toBlock: latest,
  });
  const soldOnV2 = logs.reduce((sum, log) => sum + BigInt(log.data), 0n);
  const amountIn = ethers.parseUnits("{{x}}", 8) - soldOnV2;
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const quote = async (fee: number, amount: bigint): Promise<bigint> => {
    if (amount === 0n) return 0n;
    const [out]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
      tokenIn: wbtc,
      tokenOut: usdc,
      amountIn: amount,
      fee,
      sqrtPriceLimitX96: 0n,
    });
    return out;
  };
  // The V3 pools did not move: the same water-filling over them alone gives the rest of the optimum.
  // One quote per step: a venue's output at its current leg is the "next" quoted a step earlier.
  const step = amountIn / CHUNKS;
  const legs = FEES.map(() => 0n);
  const paid = FEES.map(() => 0n);
  const next = await Promise.all(FEES.map((fee) => quote(fee, step)));
  for (let i = 0n; i < CHUNKS; i++) {
    let k = 0;
    for (let j = 1; j < FEES.length; j++) if (next[j]! - paid[j]! > next[k]! - paid[k]!) k = j;
    legs[k]! += step;
    paid[k] = next[k]!;
    next[k] = await quote(FEES[k]!, legs[k]! + step);
  }
  // The rounding remainder goes to the largest leg.
  let top = 0;
  for (const [j, leg] of legs.entries()) if (leg > legs[top]!) top = j;
  legs[top]! += amountIn - step * CHUNKS;
  const outs = await Promise.all(FEES.map((fee, k) => quote(fee, legs[k]!)));
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const deadline = BigInt((await provider.getBlock("latest"))!.timestamp + 1200);
  const router = new ethers.Interface(ROUTER_ABI);
  const calls = FEES.flatMap((fee, k) =>
    legs[k] === 0n
      ? []
      : [
          router.encodeFunctionData("exactInputSingle", [
            {
              tokenIn: wbtc,
              tokenOut: usdc,
              fee,
              recipient: agentAddress,
              deadline,
              amountIn: legs[k],
              amountOutMinimum: (outs[k]! * (10_000n - slippageBps)) / 10_000n,
              sqrtPriceLimitX96: 0n,
            },
          ]),
        ],
  );
  return { to: deployedContracts.v3_router, data: router.encodeFunctionData("multicall", [calls]) };
}

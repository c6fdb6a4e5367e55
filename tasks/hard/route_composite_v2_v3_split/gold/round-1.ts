import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const V2_ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
];
const ERC20_ABI = ["function approve(address spender, uint256 amount) returns (bool)"];
const CHUNKS = 50n;

export async function executeSkill(
  providerUrl: string,
  _agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const v2 = new ethers.Contract(deployedContracts.pancake_router, V2_ROUTER_ABI, provider);
  const { wbtc, usdc } = deployedContracts;
  const amountIn = ethers.parseUnits("{{x}}", 8);
  // Venue 0 is the V2 pair, then the V3 fee tiers; every quote is exact (getAmountsOut / QuoterV2).
  const venues = [0, 500, 3000, 10000];
  const quote = async (fee: number, amount: bigint): Promise<bigint> => {
    if (amount === 0n) return 0n;
    if (fee === 0) return (await v2.getAmountsOut(amount, [wbtc, usdc]))[1];
    const [out]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
      tokenIn: wbtc,
      tokenOut: usdc,
      amountIn: amount,
      fee,
      sqrtPriceLimitX96: 0n,
    });
    return out;
  };
  // Greedy water-filling: each chunk goes to the venue whose next chunk pays most (outputs are concave).
  // One quote per step: a venue's output at its current leg is the "next" quoted a step earlier.
  const step = amountIn / CHUNKS;
  const legs = venues.map(() => 0n);
  const paid = venues.map(() => 0n);
  const next = await Promise.all(venues.map((fee) => quote(fee, step)));
  for (let i = 0n; i < CHUNKS; i++) {
    let k = 0;
    for (let j = 1; j < venues.length; j++) if (next[j]! - paid[j]! > next[k]! - paid[k]!) k = j;
    legs[k]! += step;
    paid[k] = next[k]!;
    next[k] = await quote(venues[k]!, legs[k]! + step);
  }
  // The rounding remainder goes to the largest leg.
  let top = 0;
  for (const [j, leg] of legs.entries()) if (leg > legs[top]!) top = j;
  legs[top]! += amountIn - step * CHUNKS;
  return {
    to: wbtc,
    data: new ethers.Interface(ERC20_ABI).encodeFunctionData("approve", [
      deployedContracts.pancake_router,
      legs[0],
    ]),
  };
}

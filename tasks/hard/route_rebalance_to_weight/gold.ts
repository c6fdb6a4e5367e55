import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const ERC20_ABI = ["function balanceOf(address) view returns (uint256)"];
const FEED_ABI = [
  "function decimals() view returns (uint8)",
  "function latestAnswer() view returns (int256)",
];
const ROUTER_ABI = [
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const { wbtc, usdc } = deployedContracts;
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const feed = new ethers.Contract(deployedContracts.wbtc_usd_feed, FEED_ABI, provider);
  const [heldWbtc, heldUsdc, answer, feedDecimals]: bigint[] = await Promise.all([
    new ethers.Contract(wbtc, ERC20_ABI, provider).balanceOf(agentAddress),
    new ethers.Contract(usdc, ERC20_ABI, provider).balanceOf(agentAddress),
    feed.latestAnswer(),
    feed.decimals().then(BigInt),
  ]);
  const quote = async (amountIn: bigint): Promise<bigint> => {
    if (amountIn === 0n) return 0n;
    const [out]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
      tokenIn: wbtc,
      tokenOut: usdc,
      amountIn,
      fee: 500,
      sqrtPriceLimitX96: 0n,
    });
    return out;
  };
  // WBTC's share of the value (ppm) after selling `a`, at the feed price, on what the pool would pay:
  // WBTC units (8 decimals) × answer (feed decimals) → USDC units (6 decimals).
  const weightAfter = async (a: bigint) => {
    const wbtcValue = ((heldWbtc - a) * answer) / 10n ** (2n + feedDecimals);
    return (wbtcValue * 1_000_000n) / (wbtcValue + heldUsdc + (await quote(a)));
  };
  // The weight falls as more is sold (price impact and fee included): bisect on exact quotes.
  const target = ethers.parseUnits("{{w}}", 4);
  let [lo, hi] = [0n, heldWbtc];
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if ((await weightAfter(mid)) > target) lo = mid;
    else hi = mid;
  }
  const out = await quote(hi);
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactInputSingle", [
      {
        tokenIn: wbtc,
        tokenOut: usdc,
        fee: 500,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountIn: hi,
        amountOutMinimum: (out * (10_000n - slippageBps)) / 10_000n,
        sqrtPriceLimitX96: 0n,
      },
    ]),
  };
}

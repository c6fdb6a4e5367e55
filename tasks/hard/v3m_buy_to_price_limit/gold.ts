import { ethers } from "ethers";

const ROUTER_ABI = [
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
];
const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const POOL_ABI = ["function token0() view returns (address)", "function fee() view returns (uint24)"];
const ERC20_ABI = ["function decimals() view returns (uint8)"];

/** ⌊√n⌋ for a bigint. */
function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(deployedContracts.v3pool_wbnb_usdc, POOL_ABI, provider);
  const router = new ethers.Contract(deployedContracts.v3_router, ROUTER_ABI, provider);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const { wbnb, usdc } = deployedContracts;
  const [token0, fee] = await Promise.all([pool.token0(), pool.fee()]);
  const decimals = async (t: string) => BigInt(await new ethers.Contract(t, ERC20_ABI, provider).decimals());
  const [dBnb, dUsd] = [await decimals(wbnb), await decimals(usdc)];
  // p USDC per WBNB = p·10^dUsd USDC units per 10^dBnb WBNB units; the raw price is token1 per token0.
  const p = ethers.parseUnits("{{p}}", 2); // p·100
  const usdcUnits = p * 10n ** dUsd;
  const wbnbUnits = 100n * 10n ** dBnb;
  const [num, den] =
    token0.toLowerCase() === usdc.toLowerCase() ? [wbnbUnits, usdcUnits] : [usdcUnits, wbnbUnits];
  const sqrtPriceLimitX96 = sqrt((num << 192n) / den);
  const amountIn = ethers.parseUnits("{{y}}", dUsd);
  const [quoted] = await quoter.quoteExactInputSingle.staticCall({
    tokenIn: usdc,
    tokenOut: wbnb,
    amountIn,
    fee,
    sqrtPriceLimitX96,
  });
  const bps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  const params = {
    tokenIn: usdc,
    tokenOut: wbnb,
    fee,
    recipient: agentAddress,
    deadline: BigInt(latest!.timestamp + 1200),
    amountIn,
    amountOutMinimum: (quoted * (10_000n - bps)) / 10_000n,
    sqrtPriceLimitX96,
  };
  return {
    to: deployedContracts.v3_router,
    data: router.interface.encodeFunctionData("exactInputSingle", [params]),
  };
}

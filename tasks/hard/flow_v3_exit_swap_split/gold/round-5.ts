import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const factory = new ethers.Contract(
    deployedContracts.v3_factory,
    ["function getPool(address, address, uint24) view returns (address)"],
    provider,
  );
  const pool: string = await factory.getPool(deployedContracts.wbnb, deployedContracts.usdt, 500);
  const logs = await provider.getLogs({
    address: deployedContracts.wbnb,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(pool, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const amountIn = BigInt(logs.at(-1)!.data);
  const quoter = new ethers.Contract(
    deployedContracts.v3_quoter,
    [
      "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
    ],
    provider,
  );
  // Quoted now: the exit took the position's liquidity out of this very pool.
  const [quote]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
    tokenIn: deployedContracts.wbnb,
    tokenOut: deployedContracts.usdt,
    amountIn,
    fee: 500,
    sqrtPriceLimitX96: 0n,
  });
  const bps = ethers.parseUnits("{{s}}", 2);
  const router = new ethers.Interface([
    "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
  ]);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: router.encodeFunctionData("exactInputSingle", [
      {
        tokenIn: deployedContracts.wbnb,
        tokenOut: deployedContracts.usdt,
        fee: 500,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountIn,
        amountOutMinimum: (quote * (10_000n - bps)) / 10_000n,
        sqrtPriceLimitX96: 0n,
      },
    ]),
  };
}

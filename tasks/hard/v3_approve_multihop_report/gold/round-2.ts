import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const c = deployedContracts;
  const amountIn = ethers.parseUnits("{{x}}", 18);
  const path = ethers.solidityPacked(
    ["address", "uint24", "address", "uint24", "address"],
    [c.cake, 2500, c.wbnb, 500, c.usdt],
  );
  const quoter = new ethers.Contract(c.v3_quoter, QUOTER_ABI, provider);
  const [quoted]: [bigint] = await quoter.quoteExactInput.staticCall(path, amountIn);
  const bps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  return {
    to: c.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactInput", [
      {
        path,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountIn,
        amountOutMinimum: (quoted * (10_000n - bps)) / 10_000n,
      },
    ]),
  };
}

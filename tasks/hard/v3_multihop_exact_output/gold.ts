import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactOutput((bytes path, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum) params) payable returns (uint256 amountIn)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const amountOut = ethers.parseUnits("{{y}}", 18);
  // Exact output: the path is reversed, output token first (USDT ← WBNB ← CAKE).
  const path = ethers.solidityPacked(
    ["address", "uint24", "address", "uint24", "address"],
    [deployedContracts.usdt, 500, deployedContracts.wbnb, 2500, deployedContracts.cake],
  );
  const [quotedIn]: [bigint] = await quoter.quoteExactOutput.staticCall(path, amountOut);
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactOutput", [
      {
        path,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountOut,
        amountInMaximum: (quotedIn * (10_000n + slippageBps)) / 10_000n,
      },
    ]),
  };
}

import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_wbnb_usdt,
    ["function balanceOf(address owner) view returns (uint256)"],
    provider,
  );
  const held: bigint = await pair.balanceOf(agentAddress); // wallet LP plus the LP back from the farm
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.pair_wbnb_usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, held]),
  };
}

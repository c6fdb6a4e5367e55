import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_usdt_busd,
    ["function balanceOf(address owner) view returns (uint256)"],
    provider,
  );
  const held: bigint = await pair.balanceOf(agentAddress);
  const liquidity = (held * BigInt("{{p}}")) / 100n; // {{p}} % of the LP in my wallet
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.pair_usdt_busd,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, liquidity]),
  };
}

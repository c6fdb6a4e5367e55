import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The shares the deposit minted: the vault's last Transfer from 0x0 to me.
  const logs = await provider.getLogs({
    address: deployedContracts.usdt_vault,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(ethers.ZeroAddress, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const minted = BigInt(logs.at(-1)!.data);
  const vault = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("transfer", ["{{to}}", (minted * BigInt("{{q}}")) / 100n]),
  };
}

import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const transfer = ethers.id("Transfer(address,address,uint256)");
  const last = async (from: string, to: string) => {
    const logs = await provider.getLogs({
      address: deployedContracts.usdt,
      topics: [transfer, ethers.zeroPadValue(from, 32), ethers.zeroPadValue(to, 32)],
      fromBlock: 0,
    });
    return BigInt(logs.at(-1)!.data);
  };
  const sale = await last(deployedContracts.pair_wbnb_usdt, agentAddress);
  const deposited = await last(agentAddress, deployedContracts.usdt_vault);
  const loan = await last(deployedContracts.lend_wbnb, agentAddress);
  const share = ((sale - deposited + loan) * BigInt("{{q}}")) / 100n;
  const erc20 = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return { to: deployedContracts.usdt, data: erc20.encodeFunctionData("transfer", ["{{to}}", share]) };
}

import { ethers } from "ethers";

/** The USDT the FOT sale delivered: the last USDT Transfer from pair_wbnb_usdt to me. */
async function saleProceeds(provider: ethers.JsonRpcProvider, c: Record<string, string>, me: string) {
  const logs = await provider.getLogs({
    address: c.usdt,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(c.pair_wbnb_usdt, 32),
      ethers.zeroPadValue(me, 32),
    ],
    fromBlock: 0,
  });
  return BigInt(logs.at(-1)!.data);
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const deposit = ((await saleProceeds(provider, deployedContracts, agentAddress)) * BigInt("{{p}}")) / 100n;
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.usdt_vault, deposit]),
  };
}

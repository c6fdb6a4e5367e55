import { ethers } from "ethers";

const TRANSFER_EVENT = ["event Transfer(address indexed from, address indexed to, uint256 value)"];

// What an earlier round moved: the latest Transfer(from → to) of `token` in the last 20 blocks.
async function lastTransfer(
  provider: ethers.JsonRpcProvider,
  token: string,
  from: string,
  to: string,
): Promise<bigint> {
  const erc20 = new ethers.Contract(token, TRANSFER_EVENT, provider);
  const head = await provider.getBlockNumber();
  const logs = await erc20.queryFilter(erc20.filters.Transfer(from, to), Math.max(0, head - 20), head);
  const last = logs.at(-1) as ethers.EventLog | undefined;
  if (!last) throw new Error(`no Transfer ${from} → ${to} of ${token} in the last 20 blocks`);
  return last.args.value as bigint;
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The LP the deposit of the third round minted to me.
  const minted = await lastTransfer(
    provider,
    deployedContracts.pair_usdt_busd,
    ethers.ZeroAddress,
    agentAddress,
  );
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.pair_usdt_busd,
    data: erc20.encodeFunctionData("approve", [deployedContracts.simple_lp_staking, minted]),
  };
}

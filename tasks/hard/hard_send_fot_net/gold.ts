import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const fot = new ethers.Contract(
    deployedContracts.fot,
    [
      "function feeBps() view returns (uint256)",
      "function transfer(address to, uint256 value) returns (bool)",
    ],
    provider,
  );
  const feeBps: bigint = await fot.feeBps();
  const net = ethers.parseUnits("{{y}}", 18);
  // Received = a − floor(a·fee/10000) = ceil(a·(10000 − fee)/10000): the least a with that ≥ net.
  const keep = 10_000n - feeBps;
  let amount = (net * 10_000n + keep - 1n) / keep;
  while (amount > 0n && amount - 1n - ((amount - 1n) * feeBps) / 10_000n >= net) amount -= 1n;
  return {
    to: deployedContracts.fot,
    data: fot.interface.encodeFunctionData("transfer", ["{{to}}", amount]),
  };
}

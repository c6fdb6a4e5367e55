import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_usdt_busd,
    ["function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"],
    provider,
  );
  const [reserve0, reserve1] = await pair.getReserves();
  return { answer: { reserve0_before_wei: reserve0.toString(), reserve1_before_wei: reserve1.toString() } };
}

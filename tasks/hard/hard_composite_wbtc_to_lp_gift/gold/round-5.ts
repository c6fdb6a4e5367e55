import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const transfer = ethers.id("Transfer(address,address,uint256)");
  const logs = await provider.getLogs({
    address: deployedContracts.usdc,
    topics: [
      transfer,
      ethers.zeroPadValue(deployedContracts.pair_wbtc_usdc, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const received = BigInt(logs.at(-1)!.data);
  const pair = new ethers.Contract(
    deployedContracts.pair_eusdt_usdc,
    [
      "function token0() view returns (address)",
      "function getReserves() view returns (uint112, uint112, uint32)",
    ],
    provider,
  );
  const [token0, [r0, r1]] = await Promise.all([pair.token0(), pair.getReserves()]);
  const usdcIs0 = token0.toLowerCase() === deployedContracts.usdc.toLowerCase();
  const eusdtNeeded = (received * (usdcIs0 ? r1 : r0)) / (usdcIs0 ? r0 : r1); // router.quote, rounded down
  const token = new ethers.Interface(["function approve(address spender, uint256 value)"]);
  return {
    to: deployedContracts.eusdt,
    data: token.encodeFunctionData("approve", [deployedContracts.pancake_router, eusdtNeeded]),
  };
}

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
  const usdc = BigInt(logs.at(-1)!.data);
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
  const eusdt = (usdc * (usdcIs0 ? r1 : r0)) / (usdcIs0 ? r0 : r1);
  const sPpm = ethers.parseUnits("{{s}}", 4);
  const min = (v: bigint) => (v * (1_000_000n - sPpm)) / 1_000_000n;
  const router = new ethers.Interface([
    "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)",
  ]);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidity", [
      deployedContracts.usdc,
      deployedContracts.eusdt,
      usdc,
      eusdt,
      min(usdc),
      min(eusdt),
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
  };
}

import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_wbtc_usdc,
    [
      "function token0() view returns (address)",
      "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
    ],
    provider,
  );
  const [token0, reserves] = await Promise.all([pair.token0(), pair.getReserves()]);
  const wbtcIs0 = token0.toLowerCase() === deployedContracts.wbtc.toLowerCase();
  const [reserveWbtc, reserveUsdc]: bigint[] = wbtcIs0
    ? [reserves[0], reserves[1]]
    : [reserves[1], reserves[0]];
  // WBTC units (8 decimals) × USDC units per WBTC unit; the ratio of raw reserves already
  // carries the decimals difference. Integer division rounds down.
  const amount = (ethers.parseUnits("{{y}}", 8) * reserveUsdc) / reserveWbtc;
  const erc20 = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return { to: deployedContracts.usdc, data: erc20.encodeFunctionData("transfer", ["{{to}}", amount]) };
}

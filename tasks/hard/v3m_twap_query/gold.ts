import { ethers } from "ethers";

const POOL_ABI = [
  "function token0() view returns (address)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)",
];
const ERC20_ABI = ["function decimals() view returns (uint8)"];

export async function executeSkill(
  providerUrl: string,
  _agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(deployedContracts.v3pool_wbnb_usdc, POOL_ABI, provider);
  const window = BigInt("{{w}}");
  const [cumulatives] = await pool.observe([window, 0n]);
  const delta = BigInt(cumulatives[1]) - BigInt(cumulatives[0]);
  // BigInt division truncates toward zero; OracleLibrary rounds a negative mean down.
  let tick = delta / window;
  if (delta < 0n && delta % window !== 0n) tick -= 1n;
  const wbnbIsToken0 = (await pool.token0()).toLowerCase() === deployedContracts.wbnb.toLowerCase();
  const dWbnb = Number(await new ethers.Contract(deployedContracts.wbnb, ERC20_ABI, provider).decimals());
  // The raw price is token1 units per token0 unit; 1 WBNB = 10^dWbnb WBNB units.
  const usdcUnitsPerWbnb = (raw: number) => (wbnbIsToken0 ? raw : 1 / raw) * 10 ** dWbnb;
  const twap = usdcUnitsPerWbnb(1.0001 ** Number(tick));
  const [sqrtPriceX96] = await pool.slot0();
  const spotRaw = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
  return {
    answer: {
      twap_tick: Number(tick),
      twap_price_usdc_units: BigInt(Math.floor(twap)).toString(),
      spot_price_usdc_units: BigInt(Math.floor(usdcUnitsPerWbnb(spotRaw))).toString(),
    },
  };
}

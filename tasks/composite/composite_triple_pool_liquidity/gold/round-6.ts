import { ethers } from "ethers";

const PAIR_ABI = [
  "function token0() view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
];

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
  const tokenA = deployedContracts.usdt;
  const tokenB = deployedContracts.busd;
  // The USDT the BNB swap of the first round paid me.
  const received = await lastTransfer(
    provider,
    deployedContracts.usdt,
    deployedContracts.pair_wbnb_usdt,
    agentAddress,
  );
  const half = received / 2n;
  // The BUSD the swap of the third round paid me.
  const busdReceived = await lastTransfer(
    provider,
    deployedContracts.busd,
    deployedContracts.pair_usdt_busd,
    agentAddress,
  );
  const amountA = received - half; // the USDT I kept
  const amountB = busdReceived;
  // The router keeps the pool ratio: it takes all of one side and the matching amount of the other.
  const pair = new ethers.Contract(deployedContracts.pair_usdt_busd, PAIR_ABI, provider);
  const [token0, reserves] = await Promise.all([pair.token0(), pair.getReserves()]);
  const aIs0 = (token0 as string).toLowerCase() === tokenA.toLowerCase();
  const [reserveA, reserveB]: bigint[] = aIs0 ? [reserves[0], reserves[1]] : [reserves[1], reserves[0]];
  const bOptimal = (amountA * reserveB) / reserveA;
  const [usedA, usedB] =
    bOptimal <= amountB ? [amountA, bOptimal] : [(amountB * reserveA) / reserveB, amountB];
  const minA = (usedA * 50n) / 100n; // 50 % slippage
  const minB = (usedB * 50n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
  const router = new ethers.Interface([
    "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  ]);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidity", [
      tokenA,
      tokenB,
      amountA,
      amountB,
      minA,
      minB,
      agentAddress,
      deadline,
    ]),
  };
}

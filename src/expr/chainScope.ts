import {
  type AbiFunction,
  type Address,
  type BlockTag,
  getAddress,
  type Hex,
  type Log,
  type PublicClient,
  parseAbi,
  parseAbiItem,
} from "viem";
import type { World } from "../world/world.ts";
import { asBigInt, type ExprScope, type ParamValue, type Value } from "./expr.ts";
import { callPure, PURE_FUNCTIONS, resolveRef } from "./scope.ts";

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address, address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
]);
const erc721 = parseAbi([
  "function ownerOf(uint256) view returns (address)",
  "function getApproved(uint256) view returns (address)",
  "function isApprovedForAll(address, address) view returns (bool)",
]);
const erc1155 = parseAbi(["function balanceOf(address, uint256) view returns (uint256)"]);
const router = parseAbi([
  "function getAmountsOut(uint256, address[]) view returns (uint256[])",
  "function getAmountsIn(uint256, address[]) view returns (uint256[])",
]);
const pair = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]);
const staking = parseAbi([
  "function userInfo(address) view returns (uint256, uint256)",
  "function pendingReward(address) view returns (uint256)",
]);
const rewardPool = parseAbi(["function userInfo(address) view returns (uint256, uint256, uint256)"]);

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** Chain-reading functions of the expression language, with their arity (-1: variadic). */
export const CHAIN_FUNCTIONS: Record<string, number> = {
  balance: 1, // native balance of an account, wei
  tokenBalance: 2, // (token, account)
  allowance: 3, // (token, owner, spender)
  totalSupply: 1,
  ownerOf: 2, // (nft, id)
  getApproved: 2,
  isApprovedForAll: 3, // 1 or 0
  erc1155Balance: 3, // (token, account, id)
  nonce: 1,
  blockNumber: 0,
  blockTimestamp: 0,
  gasPrice: 0,
  baseFee: 0, // latest block's baseFeePerGas
  quoteOut: -1, // (amountIn, token0, token1, ...): router getAmountsOut, last element
  quoteIn: -1, // (amountOut, token0, token1, ...): router getAmountsIn, first element
  reserve: 2, // (pair, 0 | 1)
  lpShare: 3, // (pair, token, lpAmount) = ⌊L · token.balanceOf(pair) / pair.totalSupply()⌋
  staked: 2, // (stakingContract, account): userInfo(account).amount
  depositTime: 2, // (stakingContract, account): userInfo(account).depositTime, unix seconds
  stakedReward: 2, // (rewardPool, account): userInfo(account).amount of the 3-field reward pool
  pending: 2, // (rewardPool, account): pendingReward(account)
  call: -1, // (address, "name(types)(returnType)", ...args): a view call returning one value
  transferred: 3, // (token, from, to): sum of Transfer(from → to) values in the attempt's logs
};

export const ALL_FUNCTIONS: Record<string, number> = { ...PURE_FUNCTIONS, ...CHAIN_FUNCTIONS };

const addr = (v: Value): Address => getAddress(String(v));

/** `"getCounter()(uint256)"` → an ABI function item. */
function parseCallSignature(signature: string) {
  const match = /^\s*(\w+)\(([^)]*)\)\s*\(([^)]*)\)\s*$/.exec(signature);
  if (!match) throw new Error(`call signature must look like "name(types)(returnType)", got "${signature}"`);
  return parseAbiItem(`function ${match[1]}(${match[2]}) view returns (${match[3]})`) as AbiFunction;
}

function normalise(value: unknown): Value {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return BigInt(value);
  if (typeof value === "boolean") return value ? 1n : 0n;
  return String(value);
}

/**
 * A scope whose functions read the chain at `blockNumber` (or latest) through the harness's
 * direct client. Used to evaluate checks' expected values at `pre` and observed values at `post`.
 */
export function chainScope(
  client: PublicClient,
  params: Record<string, ParamValue>,
  world: World,
  blockNumber?: bigint,
  /** The attempt's logs, for `transferred` (amounts received, measured from the attempt's logs). */
  logs: readonly Log[] = [],
): ExprScope {
  const at: { blockNumber: bigint } | { blockTag: BlockTag } =
    blockNumber === undefined ? { blockTag: "latest" } : { blockNumber };
  const read = (address: Value, abi: readonly unknown[], functionName: string, args: unknown[]) =>
    client.readContract({ address: addr(address), abi: abi as never, functionName, args, ...at } as never);
  return {
    ref: (path) => resolveRef(path, params, world),
    async fn(name, args): Promise<Value> {
      switch (name) {
        case "balance":
          return client.getBalance({ address: addr(args[0]!), ...at });
        case "tokenBalance":
          return normalise(await read(args[0]!, erc20, "balanceOf", [addr(args[1]!)]));
        case "allowance":
          return normalise(await read(args[0]!, erc20, "allowance", [addr(args[1]!), addr(args[2]!)]));
        case "totalSupply":
          return normalise(await read(args[0]!, erc20, "totalSupply", []));
        case "ownerOf":
          return normalise(await read(args[0]!, erc721, "ownerOf", [asBigInt(args[1]!, name)]));
        case "getApproved":
          return normalise(await read(args[0]!, erc721, "getApproved", [asBigInt(args[1]!, name)]));
        case "isApprovedForAll":
          return normalise(
            await read(args[0]!, erc721, "isApprovedForAll", [addr(args[1]!), addr(args[2]!)]),
          );
        case "erc1155Balance":
          return normalise(
            await read(args[0]!, erc1155, "balanceOf", [addr(args[1]!), asBigInt(args[2]!, name)]),
          );
        case "nonce":
          return BigInt(await client.getTransactionCount({ address: addr(args[0]!), ...at }));
        case "blockNumber":
          return (await client.getBlock(at)).number ?? 0n;
        case "blockTimestamp":
          return (await client.getBlock(at)).timestamp;
        case "baseFee":
          return (await client.getBlock(at)).baseFeePerGas ?? 0n;
        case "gasPrice":
          return client.getGasPrice();
        case "quoteOut":
        case "quoteIn": {
          const [amount, ...path] = args;
          const amounts = (await read(
            world.contracts.pancake_router,
            router,
            name === "quoteOut" ? "getAmountsOut" : "getAmountsIn",
            [asBigInt(amount!, name), path.map(addr)],
          )) as bigint[];
          return name === "quoteOut" ? amounts[amounts.length - 1]! : amounts[0]!;
        }
        case "reserve": {
          const reserves = (await read(args[0]!, pair, "getReserves", [])) as [bigint, bigint, number];
          return normalise(reserves[Number(asBigInt(args[1]!, name))]);
        }
        case "lpShare": {
          const held = asBigInt(normalise(await read(args[1]!, erc20, "balanceOf", [addr(args[0]!)])), name);
          const supply = asBigInt(normalise(await read(args[0]!, erc20, "totalSupply", [])), name);
          return (asBigInt(args[2]!, name) * held) / supply;
        }
        case "staked":
          return ((await read(args[0]!, staking, "userInfo", [addr(args[1]!)])) as bigint[])[0]!;
        case "depositTime":
          return ((await read(args[0]!, staking, "userInfo", [addr(args[1]!)])) as bigint[])[1]!;
        case "stakedReward":
          return ((await read(args[0]!, rewardPool, "userInfo", [addr(args[1]!)])) as bigint[])[0]!;
        case "pending":
          return normalise(await read(args[0]!, staking, "pendingReward", [addr(args[1]!)]));
        case "transferred": {
          const [token, from, to] = args.map((a) => String(a).toLowerCase());
          let sum = 0n;
          for (const log of logs) {
            if (
              log.address.toLowerCase() !== token ||
              log.topics[0] !== TRANSFER_TOPIC ||
              log.topics.length !== 3
            )
              continue;
            const [, f, t] = log.topics.map((x) => `0x${x!.slice(26)}`);
            if (f === from && t === to) sum += BigInt(log.data);
          }
          return sum;
        }
        case "call": {
          const [address, signature, ...rest] = args;
          const item = parseCallSignature(String(signature));
          const callArgs = rest.map((v, i) => (item.inputs[i]?.type === "address" ? addr(v) : v));
          return normalise(await read(address!, [item], item.name, callArgs));
        }
        default:
          return callPure(name, args);
      }
    },
  };
}

export type { Hex };

import { createRequire } from "node:module";
import type AjvModule from "ajv";
import {
  type AbiFunction,
  type AbiParameter,
  type Address,
  createPublicClient,
  custom,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseAbi,
  parseAbiItem,
  BaseError as ViemBaseError,
} from "viem";
import type { ToolCall, ToolDefinition } from "../../models/types.ts";
import { cleanText } from "../../sandbox/cleanText.ts";
import type { RpcGuard } from "../../sandbox/rpcGuard.ts";
import type { SentTransaction } from "../../validators/types.ts";
import type { World } from "../../world/world.ts";
import { type ChainClients, signAndSend } from "../chain.ts";
import { normaliseTransaction, type TransactionRequest } from "../transaction.ts";

/*
 * Runs one tool call of `--protocol tools` (docs/PROTOCOLS.md "Tools"). Reads, simulations and
 * signatures go through the attempt's RPC guard, exactly as a module's requests would (a cheat
 * method cannot be named, and one the guard refuses is recorded as a violation); a transaction goes
 * through the same gate as a module's returned one (normaliseTransaction: no `from`, nonce or chain
 * id) and is signed and sent by the harness. Errors are results for the model, never throws.
 */

/** What one tool call did: its JSON result for the model, and what the attempt must know. */
export type ToolOutcome = {
  /** The result sent back to the model (JSON), `{ error }` for a refused or failed call. */
  result: Record<string, unknown>;
  ok: boolean;
  /** The call ended the attempt. */
  ends?: { kind: "finish" | "answer" | "refuse"; answer?: Record<string, unknown>; reason?: string };
  /** A transaction the call sent (mined, successful or reverted). */
  tx?: SentTransaction | undefined;
  /** The call reached the node with a transaction that was refused (not mined). */
  rejected?: string | undefined;
  /** A signature the call made. */
  signed?: boolean | undefined;
  /** A simulation: the request it simulated (to, data, value). */
  simulated?: { to: string; data: string; value: bigint } | undefined;
};

/** What the executor works with during one attempt. */
export type ToolContext = {
  guard: RpcGuard;
  /** Reads through the guard ({@link guardedClient} of `guard`). */
  client: PublicClient;
  clients: ChainClients;
  world: World;
  /** Called once before the attempt's first transaction is sent (the atomic checks' `pre` reads). */
  beforeSend: () => Promise<void>;
  /** Transactions the attempt may still send (each send, refused or mined, uses one). */
  sendsLeft: number;
};

const require = createRequire(import.meta.url);
type Validator = ReturnType<InstanceType<typeof AjvModule.default>["compile"]>;
let ajv: InstanceType<typeof AjvModule.default> | undefined;
const validators = new Map<string, Validator>();
/** The compiled argument validator of one tool (its definition's schema), compiled once per process. */
function validatorOf(definition: ToolDefinition): Validator {
  let validate = validators.get(definition.name);
  if (!validate) {
    ajv ??= new (require("ajv") as typeof AjvModule.default)({ allErrors: false, strict: false });
    validate = ajv.compile(definition.parameters);
    validators.set(definition.name, validate);
  }
  return validate;
}

/** A viem client whose every request goes through the guard's handler (no TCP): reads as a module makes them. */
export function guardedClient(guard: RpcGuard): PublicClient {
  let id = 0;
  return createPublicClient({
    transport: custom({
      async request({ method, params }) {
        const response = await guard.handle({
          method: "POST",
          path: new URL(guard.url).pathname,
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        });
        const body = JSON.parse(response.body) as {
          result?: unknown;
          error?: { code: number; message: string; data?: unknown };
        };
        if (body.error) throw Object.assign(new Error(body.error.message), body.error);
        return body.result;
      },
    }),
  }) as PublicClient;
}

const EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
]);
const ERC721_EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
]);

/** Bigints as base-10 strings, nested: results are JSON for the model. */
const plain = (value: unknown): unknown =>
  typeof value === "bigint"
    ? value.toString()
    : Array.isArray(value)
      ? value.map(plain)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
        : value;

class ToolError extends Error {}

/** The longest arguments text a call may have (a typed-data permit batch is a few kB). */
export const MAX_ARGUMENT_CHARS = 64 * 1024;
/** How deep arguments may nest (the sandbox's result channel allows the same): deeper is refused, not recursed into. */
export const MAX_ARGUMENT_DEPTH = 64;

/** How deep a parsed JSON value nests (iterative: a hostile depth cannot overflow the stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== "object") continue;
    if (d > deepest) deepest = d;
    if (deepest > MAX_ARGUMENT_DEPTH) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/** A human-readable function signature as viem's ABI item ("function " added when missing). */
function functionOf(signature: string): AbiFunction {
  const text = signature.trim().startsWith("function ") ? signature.trim() : `function ${signature.trim()}`;
  let item: ReturnType<typeof parseAbiItem>;
  try {
    item = parseAbiItem(text);
  } catch (error) {
    throw new ToolError(
      `signature ${JSON.stringify(signature)} is not a function signature: ${firstLine(error)}`,
    );
  }
  if (item.type !== "function")
    throw new ToolError(`signature ${JSON.stringify(signature)} is not a function`);
  return item;
}

/** JSON arguments as the ABI's types want them: integers to bigint (from strings or numbers), tuples by position or name. */
function coerce(value: unknown, parameter: AbiParameter, where: string): unknown {
  const type = parameter.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) throw new ToolError(`${where} must be an array (${type})`);
    return value.map((v, i) => coerce(v, { ...parameter, type: array[1]! }, `${where}[${i}]`));
  }
  if (type === "tuple") {
    const components = (parameter as { components?: readonly AbiParameter[] }).components ?? [];
    if (Array.isArray(value)) return components.map((c, i) => coerce(value[i], c, `${where}.${c.name ?? i}`));
    if (value && typeof value === "object")
      return Object.fromEntries(
        components.map((c, i) => [
          c.name ?? String(i),
          coerce((value as Record<string, unknown>)[c.name ?? String(i)], c, `${where}.${c.name ?? i}`),
        ]),
      );
    throw new ToolError(`${where} must be an array or an object (tuple)`);
  }
  if (/^u?int\d*$/.test(type)) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === "string" && /^-?(\d+|0x[0-9a-fA-F]+)$/.test(value.trim()))
      return value.trim().startsWith("-") ? -BigInt(value.trim().slice(1)) : BigInt(value.trim());
    throw new ToolError(
      `${where} must be an integer as a base-10 string (${type}), got ${JSON.stringify(value)}`,
    );
  }
  if (type === "bool") {
    if (typeof value !== "boolean") throw new ToolError(`${where} must be true or false`);
    return value;
  }
  return value;
}

/** Calldata from `data`, or from `signature` + `args`. */
function calldataOf(args: Record<string, unknown>): { data: Hex; fn?: AbiFunction } {
  if (args.signature === undefined) return { data: ((args.data as string | undefined) ?? "0x") as Hex };
  if (args.data !== undefined) throw new ToolError("give either data or signature and args, not both");
  const fn = functionOf(args.signature as string);
  const given = (args.args as unknown[] | undefined) ?? [];
  if (given.length !== fn.inputs.length)
    throw new ToolError(`${fn.name} takes ${fn.inputs.length} argument(s), got ${given.length}`);
  try {
    const data = encodeFunctionData({
      abi: [fn],
      functionName: fn.name,
      args: fn.inputs.map((input, i) => coerce(given[i], input, `args[${i}]`)),
    } as never);
    return { data, fn };
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      `cannot encode ${fn.name}(${fn.inputs.map((i) => i.type).join(",")}): ${firstLine(error)}`,
    );
  }
}

const firstLine = (error: unknown) =>
  cleanText(
    (error instanceof ViemBaseError
      ? error.shortMessage
      : ((error as Error)?.message ?? String(error))
    ).split("\n")[0]!,
    300,
  );

/** A reverted call's reason, decoded as viem decodes it (Error(string), Panic(uint256), custom errors as their selector). */
function revertOf(error: unknown): string {
  const e = error as ViemBaseError;
  const walked = e.walk?.((err) => typeof (err as { reason?: string }).reason === "string") as
    | { reason?: string }
    | undefined;
  return cleanText(walked?.reason ?? e.shortMessage ?? (error as Error).message ?? "execution reverted", 300);
}

const wei = (v: unknown) => (v === undefined ? 0n : BigInt(v as string));

/**
 * Runs one tool call; never throws for anything the model did (bad JSON, unknown tool, bad
 * arguments, a revert): each is a result with `error`, explained.
 * @throws only for harness faults (the chain down while sending).
 */
export async function executeTool(
  call: ToolCall,
  definitions: ToolDefinition[],
  ctx: ToolContext,
): Promise<ToolOutcome> {
  const error = (message: string): ToolOutcome => ({ ok: false, result: { error: message } });
  const definition = definitions.find((d) => d.name === call.name);
  if (!definition)
    return error(
      `unknown tool ${JSON.stringify(cleanText(call.name, 80))}; the tools are ${definitions.map((d) => d.name).join(", ")}`,
    );
  if (call.arguments.length > MAX_ARGUMENT_CHARS)
    return error(`bad arguments for ${call.name}: more than ${MAX_ARGUMENT_CHARS} characters`);
  let args: Record<string, unknown>;
  try {
    const parsed = JSON.parse(call.arguments === "" ? "{}" : call.arguments) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      return error("malformed arguments: not a JSON object");
    args = parsed as Record<string, unknown>;
  } catch (e) {
    return error(`malformed arguments: not JSON (${cleanText((e as Error).message, 120)})`);
  }
  if (depthOf(args) > MAX_ARGUMENT_DEPTH)
    return error(`bad arguments for ${call.name}: nested more than ${MAX_ARGUMENT_DEPTH} levels`);
  const validate = validatorOf(definition);
  if (!validate(args)) {
    const first = validate.errors?.[0];
    return error(
      `bad arguments for ${call.name}: ${first ? `${first.instancePath || "(arguments)"} ${first.message}${first.params && "additionalProperty" in first.params ? ` (${String(first.params.additionalProperty)})` : ""}` : "invalid"}`,
    );
  }
  try {
    return await run(call.name, args, ctx);
  } catch (e) {
    if (e instanceof ToolError) return error(e.message);
    // A read the node refused (a revert, a bad address): the model's to read and fix.
    return error(firstLine(e));
  }
}

async function run(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
  const client = ctx.client;
  const agent = ctx.world.agent.address as Address;
  const ok = (result: Record<string, unknown>): ToolOutcome => ({ ok: true, result });
  switch (name) {
    case "read_contract": {
      const fn = functionOf(args.signature as string);
      const { data } = calldataOf({ signature: args.signature, args: args.args ?? [] });
      const returned = await client.call({
        account: agent,
        to: args.to as Address,
        data,
        value: wei(args.value),
      });
      const decoded = decodeFunctionResult({
        abi: [fn],
        functionName: fn.name,
        data: returned.data ?? "0x",
      } as never);
      return ok({ result: plain(decoded) });
    }
    case "eth_call": {
      const returned = await client.call({
        account: agent,
        to: args.to as Address,
        data: args.data as Hex,
        value: wei(args.value),
      });
      return ok({ data: returned.data ?? "0x" });
    }
    case "get_balance": {
      const account = (args.account as Address | undefined) ?? agent;
      if (args.token === undefined)
        return ok({
          token: "BNB",
          account,
          balance: String(await client.getBalance({ address: account })),
          decimals: 18,
        });
      const token = args.token as Address;
      const [balance, decimals, symbol] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account] }),
        client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" }).catch(() => null),
        client.readContract({ address: token, abi: erc20Abi, functionName: "symbol" }).catch(() => null),
      ]);
      return ok({
        token,
        account,
        balance: String(balance),
        decimals,
        symbol: symbol && cleanText(symbol, 40),
      });
    }
    case "get_allowance": {
      const owner = (args.owner as Address | undefined) ?? agent;
      const allowance = await client.readContract({
        address: args.token as Address,
        abi: erc20Abi,
        functionName: "allowance",
        args: [owner, args.spender as Address],
      });
      return ok({ token: args.token, owner, spender: args.spender, allowance: String(allowance) });
    }
    case "get_chain_state": {
      const [chainId, block, gasPrice, balance] = await Promise.all([
        client.getChainId(),
        client.getBlock({ blockTag: "latest" }),
        client.getGasPrice(),
        client.getBalance({ address: agent }),
      ]);
      return ok({
        chainId,
        blockNumber: String(block.number),
        timestamp: String(block.timestamp),
        baseFeePerGas: block.baseFeePerGas === null ? null : String(block.baseFeePerGas),
        gasPrice: String(gasPrice),
        agent,
        agentBalance: String(balance),
      });
    }
    case "simulate": {
      const { data, fn } = calldataOf(args);
      const request = { to: args.to as Address, data, value: wei(args.value) };
      const simulated = { ...request };
      try {
        const returned = await client.call({ account: agent, ...request });
        const gas = await client.estimateGas({ account: agent, ...request }).catch(() => null);
        const decoded =
          fn && fn.outputs.length > 0
            ? plain(
                decodeFunctionResult({
                  abi: [fn],
                  functionName: fn.name,
                  data: returned.data ?? "0x",
                } as never),
              )
            : undefined;
        return {
          ok: true,
          simulated,
          result: {
            success: true,
            returnData: returned.data ?? "0x",
            ...(decoded !== undefined ? { result: decoded } : {}),
            gasEstimate: gas === null ? null : String(gas),
          },
        };
      } catch (e) {
        return { ok: true, simulated, result: { success: false, revertReason: revertOf(e) } };
      }
    }
    case "send_transaction": {
      if (ctx.sendsLeft <= 0)
        throw new ToolError(
          "no transaction left in this attempt's budget: nothing was sent; call finish or refuse",
        );
      const { data } = calldataOf(args);
      const normalised = normaliseTransaction({
        to: args.to,
        data,
        value: args.value ?? "0",
        gas: args.gas,
        maxFeePerGas: args.maxFeePerGas,
        maxPriorityFeePerGas: args.maxPriorityFeePerGas,
      });
      if (!normalised.ok) throw new ToolError(`not a valid transaction: ${normalised.message}`);
      ctx.sendsLeft--;
      await ctx.beforeSend();
      const sent = await signAndSend(ctx.clients, normalised.tx as TransactionRequest);
      if ("rejected" in sent)
        return {
          ok: false,
          rejected: cleanText(sent.rejected, 300),
          result: { error: `the node refused the transaction: ${cleanText(sent.rejected, 300)}` },
        };
      return {
        ok: true,
        tx: sent,
        result: {
          hash: sent.hash,
          status: sent.receipt.status,
          gasUsed: String(sent.receipt.gasUsed),
          fee: String(sent.fee),
          ...(sent.revertReason ? { revertReason: sent.revertReason } : {}),
          events: eventsOf(sent),
        },
      };
    }
    case "sign_typed_data": {
      const response = await ctx.guard.handle({
        method: "POST",
        path: new URL(ctx.guard.url).pathname,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_signTypedData_v4",
          params: [agent, JSON.stringify(args)],
        }),
      });
      const body = JSON.parse(response.body) as { result?: string; error?: { message: string } };
      if (body.error) throw new ToolError(`not signed: ${cleanText(body.error.message, 300)}`);
      return { ok: true, signed: true, result: { signature: body.result } };
    }
    case "answer":
      return {
        ok: true,
        result: { ended: "answer" },
        ends: { kind: "answer", answer: args.answer as Record<string, unknown> },
      };
    case "refuse":
      return {
        ok: true,
        result: { ended: "refuse" },
        ends: { kind: "refuse", reason: cleanText(args.reason as string, 2000) },
      };
    case "finish":
      return {
        ok: true,
        result: { ended: "finish" },
        ends: { kind: "finish", answer: (args.answer as Record<string, unknown> | undefined) ?? {} },
      };
    default:
      throw new ToolError(`unknown tool ${name}`);
  }
}

/** The Transfer / Approval / ApprovalForAll events of a receipt, decoded (ERC-20 amounts, ERC-721 ids), at most 50. */
function eventsOf(tx: SentTransaction): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const log of tx.receipt.logs.slice(0, 200)) {
    for (const abi of [EVENTS, ERC721_EVENTS]) {
      try {
        const event = decodeEventLog({ abi, data: log.data, topics: log.topics, strict: true });
        out.push({ contract: log.address, event: event.eventName, ...(plain(event.args) as object) });
        break;
      } catch {
        // not this shape
      }
    }
    if (out.length >= 50) break;
  }
  return out;
}

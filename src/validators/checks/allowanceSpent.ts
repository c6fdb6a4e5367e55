import { type Address, getAddress, type Log } from "viem";
import { chainScope } from "../../expr/chainScope.ts";
import { asBigInt, evaluateExpr, type Value } from "../../expr/expr.ts";
import { exprArg } from "../args.ts";
import { scopeOf } from "../scopeOf.ts";
import { type CheckContext, defineCheck } from "../types.ts";

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const MAX_UINT256 = 2n ** 256n - 1n;
/** transferFrom(address,address,uint256). */
const TRANSFER_FROM = "0x23b872dd";

/** The `token` amount a transaction's logs moved from `from` to `to`. */
function movedIn(logs: readonly Log[], token: string, from: string, to: string): bigint {
  let sum = 0n;
  for (const log of logs) {
    if (log.address.toLowerCase() !== token || log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3)
      continue;
    const [, f, t] = log.topics.map((x) => `0x${x!.slice(26)}`);
    if (f === from && t === to) sum += BigInt(log.data);
  }
  return sum;
}

/**
 * The tokens were moved through the allowance (the rule of tasks/composite/composite_approve_transferfrom: "across the
 * tx that moved it, allowance(owner, spender) fell by exactly the amount or stayed 2^256−1"): every
 * transaction of the attempt that moved `token` from `owner` to `to` lowered allowance(owner, spender),
 * read at the block before it and at its own block, by exactly the amount it moved, or left an
 * infinite allowance infinite in a call of transferFrom (selector 0x23b872dd). At least one such
 * transaction must exist. A plain `transfer` leaves the
 * allowance unchanged and fails. Args: `{ token, owner, spender, to }`.
 */
export const allowanceSpent = defineCheck({
  description:
    "Every transaction that moved `token` from `owner` to `to` spent exactly that much of allowance(owner, spender) (transferFrom was used).",
  args: {
    token: { $ref: "#/definitions/expr", description: "ERC-20 address" },
    owner: { $ref: "#/definitions/expr", description: "owner" },
    spender: { $ref: "#/definitions/expr", description: "spender" },
    to: { $ref: "#/definitions/expr", description: "recipient" },
  },
  required: ["token", "owner", "spender", "to"],
  example: { token: "contracts.usdt", owner: "agent", spender: "agent", to: "to" },
  build: (args, compile) => {
    const exprs = (["token", "owner", "spender", "to"] as const).map((f) => exprArg(args, f, compile));
    const resolve = async (ctx: CheckContext) => {
      const scope = scopeOf(ctx);
      const values: Value[] = [];
      for (const e of exprs) values.push(await evaluateExpr(e, scope));
      return values.map((v) => getAddress(String(v))) as [Address, Address, Address, Address];
    };
    return {
      async evaluate(ctx) {
        const [token, owner, spender, to] = await resolve(ctx);
        const lower = [token, owner, to].map((a) => a.toLowerCase()) as [string, string, string];
        const moving = ctx.txs
          .map((tx) => ({ tx, moved: movedIn(tx.receipt.logs, ...lower) }))
          .filter((m) => m.moved > 0n);
        if (moving.length === 0)
          return {
            passed: false,
            detail: `no transaction of the attempt moved ${token} from ${owner} to ${to}`,
          };
        const problems: string[] = [];
        const seen: string[] = [];
        for (const { tx, moved } of moving) {
          const block = tx.receipt.blockNumber;
          const read = async (at: bigint) =>
            asBigInt(
              await chainScope(ctx.client, ctx.instance.params, ctx.world, at).fn("allowance", [
                token,
                owner,
                spender,
              ]),
              "allowance",
            );
          const [before, after] = [await read(block - 1n), await read(block)];
          // An infinite allowance is never decremented: then the call itself must be a transferFrom.
          const ok =
            before === MAX_UINT256
              ? after === MAX_UINT256 && tx.input.slice(0, 10).toLowerCase() === TRANSFER_FROM
              : before - after === moved;
          const line = `${tx.hash.slice(0, 10)}… moved ${moved}, allowance ${before} → ${after}`;
          (ok ? seen : problems).push(line);
        }
        return problems.length === 0
          ? { passed: true, detail: `allowance spent by the amount moved: ${seen.join("; ")}` }
          : { passed: false, detail: `allowance not spent by the amount moved: ${problems.join("; ")}` };
      },
    };
  },
});

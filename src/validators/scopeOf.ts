import { chainScope } from "../expr/chainScope.ts";
import type { ExprScope } from "../expr/expr.ts";
import type { CheckContext } from "./types.ts";

/** The scope checks evaluate in: the instance's parameters, the world, and the attempt's logs. */
export function scopeOf(ctx: CheckContext): ExprScope {
  return chainScope(
    ctx.client,
    ctx.instance.params,
    ctx.world,
    undefined,
    ctx.txs.flatMap((t) => t.receipt.logs),
  );
}

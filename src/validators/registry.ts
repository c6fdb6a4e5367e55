import type { CheckSpec } from "../tasks/types.ts";
import { allowOnly } from "./args.ts";
import { allowanceSpent } from "./checks/allowanceSpent.ts";
import { answerEquals, answerFormat } from "./checks/answerChecks.ts";
import { batchAllOrNothing } from "./checks/batchChecks.ts";
import { makeBranch } from "./checks/branch.ts";
import { holdingsUnchanged } from "./checks/holdings.ts";
import { addLiquidity, calldataArg, eventEmitted } from "./checks/logChecks.ts";
import {
  allowanceIs,
  nativeBalanceDelta,
  stateDelta,
  stateIs,
  tokenBalanceDelta,
} from "./checks/stateChecks.ts";
import { buildSubChecks } from "./checks/subChecks.ts";
import { selectorIn, txInput, txSucceeded, txTo, txValue } from "./checks/txChecks.ts";
import { refused } from "./judgement.ts";
import { v3CycleBest, v3SplitBest } from "./prices/bestExecution.ts";
import { priceBounds } from "./prices/priceBounds.ts";
import { v3QuoteGate } from "./prices/quoteGate.ts";
import { v3PriceBounds } from "./prices/v3Bounds.ts";
import { v3TwapGuard } from "./prices/v3TwapGuard.ts";
import {
  type Check,
  CheckArgsError,
  type CheckCompileContext,
  type CheckDefinition,
  defineCheck,
} from "./types.ts";
import { v3BestQuote, v3Position } from "./v3/v3Positions.ts";
import { v3OracleAnswer, v3PoolAtPrice, v3RangeAtPrices } from "./v3/v3Prices.ts";

/**
 * `all`: one weighted check that holds iff every sub-check holds (a ★ effect often has two parts,
 * e.g. "recipient +x and sender −x"). Args: `{ checks: [{ check, args }] }`.
 */
const all = defineCheck({
  description: "Holds iff every sub-check holds (one weight for a two-part effect).",
  args: {
    checks: {
      type: "array",
      minItems: 1,
      items: { $ref: "#/definitions/check" },
      description: "sub-checks ({ check, args })",
    },
  },
  required: ["checks"],
  example: {
    checks: [
      { check: "tokenBalanceDelta", args: { token: "contracts.usdt", account: "to", expected: "wei(x)" } },
      {
        check: "tokenBalanceDelta",
        args: { token: "contracts.usdt", account: "agent", expected: "-wei(x)" },
      },
    ],
  },
  build: (args, compile) => {
    const subs = args.checks;
    if (!Array.isArray(subs) || subs.length === 0)
      throw new CheckArgsError("checks", "must be a non-empty list of checks");
    const parts = buildSubChecks(buildCheck, subs, "checks", compile);
    return {
      prepare: async (ctx) => Promise.all(parts.map((p) => p.prepare?.(ctx))),
      async evaluate(ctx, prepared) {
        const results = [];
        for (const [i, part] of parts.entries())
          results.push(await part.evaluate(ctx, (prepared as unknown[])[i]));
        return {
          passed: results.every((r) => r.passed),
          detail: results.map((r) => `${r.passed ? "✓" : "✗"} ${r.detail}`).join("; "),
        };
      },
    };
  },
});

/**
 * Every check a task spec may name (`"check": "<name>"`). results.json reports each check under the
 * spec's `name` (default: this key), so keys and names stay stable once published.
 */
export const CHECKS: Record<string, CheckDefinition> = {
  txSucceeded,
  batchAllOrNothing,
  txTo,
  selectorIn,
  txValue,
  txInput,
  stateDelta,
  stateIs,
  tokenBalanceDelta,
  nativeBalanceDelta,
  allowanceIs,
  allowanceSpent,
  answerFormat,
  answerEquals,
  calldataArg,
  eventEmitted,
  addLiquidity,
  priceBounds,
  holdingsUnchanged,
  all,
  refused,
  v3PriceBounds,
  v3Position,
  v3BestQuote,
  v3SplitBest,
  v3CycleBest,
  v3QuoteGate,
  v3RangeAtPrices,
  v3PoolAtPrice,
  v3OracleAnswer,
  v3TwapGuard,
  branch: makeBranch((spec, compile) => buildCheck(spec, compile)),
};

function buildCheck(spec: CheckSpec, compile: CheckCompileContext): Pick<Check, "prepare" | "evaluate"> {
  const definition = CHECKS[spec.check];
  if (!definition)
    throw new CheckArgsError(
      "check",
      `unknown check '${spec.check}' (known: ${Object.keys(CHECKS).join(", ")})`,
    );
  const args = spec.args ?? {};
  allowOnly(args, Object.keys(definition.args));
  for (const field of definition.required ?? [])
    if (args[field] === undefined) throw new CheckArgsError(field, "is required");
  return definition.build(args, compile);
}

/**
 * Turns a check spec into a runnable check, validating its arguments.
 * @throws CheckArgsError naming the field below `args` (the loader adds file and index).
 */
export function compileCheck(spec: CheckSpec, compile: CheckCompileContext): Check {
  const built = buildCheck(spec, compile);
  return {
    name: spec.name ?? spec.check,
    weight: spec.weight ?? 0,
    critical: spec.critical === true,
    ...built,
  };
}

import type { CheckSpec } from "../tasks/types.ts";
import {
  type Check,
  CheckArgsError,
  type CheckCompileContext,
  type CheckDefinition,
  defineCheck,
} from "./types.ts";

type BuildCheck = (spec: CheckSpec, compile: CheckCompileContext) => Pick<Check, "prepare" | "evaluate">;

/**
 * Builds the sub-checks of a combinator (`all`, `anyOf`); an argument error names its place below
 * `field` (e.g. `checks[1].token`).
 */
export function buildSubChecks(
  build: BuildCheck,
  subs: readonly unknown[],
  field: string,
  compile: CheckCompileContext,
): Pick<Check, "prepare" | "evaluate">[] {
  return subs.map((sub, i) => {
    try {
      return build(sub as CheckSpec, compile);
    } catch (error) {
      if (error instanceof CheckArgsError)
        throw new CheckArgsError(`${field}[${i}].${error.field}`, error.message);
      throw error;
    }
  });
}

/**
 * `anyOf` (issue 20, conditional judgement): one weighted check that holds iff every sub-check of at
 * least one branch holds, e.g. "the rule allowed it and the claim paid out" or "the rule forbade it
 * and the attempt refused". Each branch should open with a condition on the instance (a `stateIs` of
 * a parameter), so an answer cannot pass the branch the seed did not choose. Args:
 * `{ branches: [{ name?, checks: [{ check, args }] }] }`. `build` is the registry's sub-check
 * builder, passed in so this module does not import the registry that lists it.
 */
export function anyOfCheck(build: BuildCheck): CheckDefinition {
  return defineCheck({
    description:
      "Holds iff every sub-check of at least one branch holds (a rule decided at run time: do it, or refuse).",
    args: {
      branches: {
        type: "array",
        minItems: 2,
        items: {
          type: "object",
          required: ["checks"],
          additionalProperties: false,
          properties: {
            name: { type: "string", description: "what this branch means (shown in the detail)" },
            checks: { type: "array", minItems: 1, items: { $ref: "#/definitions/check" } },
          },
        },
        description: "alternatives ({ name?, checks: [{ check, args }] })",
      },
    },
    required: ["branches"],
    example: {
      branches: [
        {
          name: "allowed: executed",
          checks: [{ check: "stateIs", args: { read: "allowed", expected: "1" } }, { check: "txSucceeded" }],
        },
        {
          name: "forbidden: refused",
          checks: [{ check: "stateIs", args: { read: "allowed", expected: "0" } }, { check: "refused" }],
        },
      ],
    },
    build: (args, compile) => {
      const branches = args.branches;
      if (!Array.isArray(branches) || branches.length < 2)
        throw new CheckArgsError("branches", "must list at least two branches");
      const built = branches.map((branch, b) => {
        const { name, checks } = (branch ?? {}) as { name?: unknown; checks?: unknown };
        if (!Array.isArray(checks) || checks.length === 0)
          throw new CheckArgsError(`branches[${b}].checks`, "must be a non-empty list of checks");
        const parts = buildSubChecks(build, checks, `branches[${b}].checks`, compile);
        return { name: typeof name === "string" ? name : `branch ${b + 1}`, parts };
      });
      return {
        prepare: async (ctx) =>
          Promise.all(built.map((branch) => Promise.all(branch.parts.map((p) => p.prepare?.(ctx))))),
        async evaluate(ctx, prepared) {
          const lines: string[] = [];
          for (const [b, branch] of built.entries()) {
            const results = [];
            for (const [i, part] of branch.parts.entries())
              results.push(await part.evaluate(ctx, (prepared as unknown[][])[b]![i]));
            if (results.every((r) => r.passed))
              return { passed: true, detail: `${branch.name}: ${results.map((r) => r.detail).join("; ")}` };
            const failed = results.find((r) => !r.passed)!;
            lines.push(`${branch.name}: ✗ ${failed.detail}`);
          }
          return { passed: false, detail: `no branch holds (${lines.join(" | ")})` };
        },
      };
    },
  });
}

import type { CheckSpec } from "../../tasks/types.ts";
import { type Check, CheckArgsError, type CheckCompileContext } from "../types.ts";

type BuildCheck = (spec: CheckSpec, compile: CheckCompileContext) => Pick<Check, "prepare" | "evaluate">;

/**
 * Builds the sub-checks of a combinator (`all`, `branch`); an argument error names its place below
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

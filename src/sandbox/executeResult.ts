/** Why an execution produced no value. Every code is a fault of the model's code, never of the harness. */
export type ExecuteModuleErrorCode =
  | "transpile_error"
  | "no_export"
  | "signature_mismatch"
  | "runtime_error"
  | "timeout"
  | "memory_limit"
  | "permission_denied"
  | "output_invalid"
  | "output_too_large"
  | "process_exit";

/** Wall-clock milliseconds of each phase; 0 for phases that did not run. */
export type ExecuteModuleTimings = {
  /** esbuild transform. */
  transpileMs: number;
  /** Waiting for a booted child (Node under the permission model, ethers preloaded): ~0 when one was warm. */
  spawnMs: number;
  /** From handing the module over until the result or the end: importing the module and running it. */
  runMs: number;
};

/** Result of `executeModule`. `value` is the return value of `executeSkill`, bigints intact. */
export type ExecuteModuleResult =
  | { ok: true; value: unknown; timings: ExecuteModuleTimings }
  | { ok: false; error: { code: ExecuteModuleErrorCode; message: string }; timings: ExecuteModuleTimings };

/** The failed result with this code and message. */
export function fail(
  code: ExecuteModuleErrorCode,
  message: string,
  timings: ExecuteModuleTimings,
): ExecuteModuleResult {
  return { ok: false, error: { code, message }, timings };
}

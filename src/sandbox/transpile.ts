import { transform } from "esbuild";
import { SandboxError } from "../errors.ts";

/** Result of {@link transpileModule}: ES module JavaScript, or the compiler's message for the model. */
export type TranspileModuleReturnType = { ok: true; code: string } | { ok: false; message: string };

type EsbuildMessage = { text: string; location?: { line: number; column: number; lineText: string } | null };

/**
 * Strips TypeScript from the model's code block with esbuild (`loader: "ts"`, `format: "esm"`,
 * `target: "node20"`). Types are erased, not checked: the paper runs the model's code as written,
 * and a type error that still runs is not a failure.
 *
 * Source: SPEC §5 (transpile with esbuild).
 *
 * @param source TypeScript text of the model's fenced code block.
 * @returns `{ ok: true, code }`, or `{ ok: false, message }` with esbuild's messages as
 *   `line:column: text` lines when the source does not parse (a model fault, never thrown).
 * @throws {SandboxError} when esbuild itself fails (service crashed, binary missing).
 * @example
 * import { transpileModule } from "./transpile.ts";
 * const result = await transpileModule("export const x: number = 1;");
 * // { ok: true, code: "export const x = 1;\n" }
 */
export async function transpileModule(source: string): Promise<TranspileModuleReturnType> {
  try {
    const result = await transform(source, {
      loader: "ts",
      format: "esm",
      target: "node20",
      sourcefile: "executeSkill.ts",
    });
    return { ok: true, code: result.code };
  } catch (error) {
    const errors = (error as { errors?: EsbuildMessage[] }).errors;
    // esbuild reports syntax errors as an Error carrying `errors`; anything else is esbuild failing.
    if (!Array.isArray(errors) || errors.length === 0) {
      throw new SandboxError("esbuild failed while transpiling a module.", { cause: error });
    }
    const message = errors
      .map((e) => (e.location ? `${e.location.line}:${e.location.column}: ${e.text}` : e.text))
      .join("\n");
    return { ok: false, message };
  }
}

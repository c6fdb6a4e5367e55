import { build } from "esbuild";
import { SandboxError } from "../errors.ts";

/** Result of {@link transpileModule}: ES module JavaScript, or the compiler's message for the model. */
export type TranspileModuleReturnType = { ok: true; code: string } | { ok: false; message: string };

type EsbuildMessage = { text: string; location?: { line: number; column: number; lineText: string } | null };

/**
 * Strips TypeScript from the model's code block with esbuild (`loader: "ts"`, `format: "esm"`,
 * `target: "node20"`). Types are erased, not checked: the paper runs the model's code as written,
 * and a type error that still runs is not a failure.
 *
 * Imports are left as written, except that a static or literal dynamic import of a specifier in
 * `libraries` (`"ethers"`, `"viem/chains"`, see `libraryBundle.ts`) is pointed at that absolute
 * file. Nothing else is bundled: a module importing anything but ethers and viem fails at run time
 * exactly as it would have.
 *
 * Source: docs/ARCHITECTURE.md "The path of one instance" (the sandbox step: transpiled with esbuild).
 *
 * @param source TypeScript text of the model's fenced code block.
 * @param libraries specifier → absolute path of a pre-bundled entry module.
 * @returns `{ ok: true, code }`, or `{ ok: false, message }` with esbuild's messages as
 *   `line:column: text` lines when the source does not parse (a model fault, never thrown).
 * @throws {SandboxError} when esbuild itself fails (service crashed, binary missing).
 * @example
 * import { transpileModule } from "./transpile.ts";
 * const result = await transpileModule("export const x: number = 1;");
 * // { ok: true, code: "...const x = 1;\nexport {\n  x\n};\n" }
 */
export async function transpileModule(
  source: string,
  libraries: Record<string, string> = {},
): Promise<TranspileModuleReturnType> {
  try {
    const result = await build({
      stdin: { contents: source, loader: "ts", sourcefile: "executeSkill.ts" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      legalComments: "inline",
      plugins: [
        {
          name: "questbench-imports",
          setup(builder) {
            builder.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === "entry-point") return undefined;
              const library = Object.hasOwn(libraries, args.path) ? libraries[args.path] : undefined;
              return { path: library ?? args.path, external: true };
            });
          },
        },
      ],
    });
    return { ok: true, code: result.outputFiles[0]!.text };
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

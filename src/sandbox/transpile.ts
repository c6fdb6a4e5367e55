import { build, stop } from "esbuild";

/** Result of {@link transpileModule}: ES module JavaScript, or the compiler's message for the model. */
export type TranspileModuleReturnType = { ok: true; code: string } | { ok: false; message: string };

type EsbuildMessage = { text: string; location?: { line: number; column: number; lineText: string } | null };

/**
 * The largest module transpiled, in characters (UTF-16 code units). A model's code block is a few
 * kilobytes; esbuild's work and output grow with the input.
 */
export const MAX_MODULE_CHARS = 256 * 1024;

/**
 * The deepest nesting of brackets (`(`, `[`, `{`, counted anywhere, strings and comments included, so
 * the count can only over-estimate) transpiled. Written code nests a few dozen levels at most; esbuild
 * recurses per level (about 250 k levels overflowed its stack) and indents its output per level (40 k
 * nested braces, 80 KB of input, printed about 3 GB).
 */
export const MAX_NESTING = 128;

/** A transform that has not finished after this long is abandoned, and the transpiler restarted. */
export const TRANSPILE_DEADLINE_MS = 15_000;

/** Why `source` is refused before esbuild sees it, or undefined. */
export function transpileBoundExceeded(source: string): string | undefined {
  if (source.length > MAX_MODULE_CHARS)
    return `the module is ${source.length} characters long; at most ${MAX_MODULE_CHARS} are transpiled`;
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > MAX_NESTING)
        return `brackets nest deeper than ${MAX_NESTING} levels (at character ${i + 1}); the transpiler refuses it`;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return undefined;
}

/**
 * Stops esbuild's long-lived service so that the next transform starts a fresh one: a transform that
 * crashed or hung costs its own module, not the attempts after it in this process.
 */
async function restartTranspiler(): Promise<void> {
  try {
    await stop();
  } catch {
    // already stopped
  }
}

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
 * A module over {@link MAX_MODULE_CHARS} characters or nesting brackets deeper than
 * {@link MAX_NESTING} is refused before esbuild sees it; a transform still running after
 * {@link TRANSPILE_DEADLINE_MS}, or one that crashes esbuild, is this module's failure: the service is
 * restarted for the next module (docs/SECURITY.md "The barriers").
 *
 * @returns `{ ok: true, code }`, or `{ ok: false, message }` with esbuild's messages as
 *   `line:column: text` lines when the source does not parse, or the bound, deadline or crash that
 *   stopped it (a model fault, never thrown).
 * @example
 * import { transpileModule } from "./transpile.ts";
 * const result = await transpileModule("export const x: number = 1;");
 * // { ok: true, code: "...const x = 1;\nexport {\n  x\n};\n" }
 */
export async function transpileModule(
  source: string,
  libraries: Record<string, string> = {},
): Promise<TranspileModuleReturnType> {
  const refused = transpileBoundExceeded(source);
  if (refused) return { ok: false, message: refused };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), TRANSPILE_DEADLINE_MS);
    timer.unref();
  });
  try {
    const building = build({
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
    const result = await Promise.race([building, deadline]);
    if (result === "deadline") {
      building.catch(() => {});
      await restartTranspiler();
      return {
        ok: false,
        message: `the transpiler did not finish this module within ${TRANSPILE_DEADLINE_MS / 1000} s`,
      };
    }
    return { ok: true, code: result.outputFiles[0]!.text };
  } catch (error) {
    const errors = (error as { errors?: EsbuildMessage[] }).errors;
    // esbuild reports syntax errors as an Error carrying `errors`; anything else is esbuild failing on
    // this module (its service crashed): the module's failure, and a fresh service for the next one.
    if (!Array.isArray(errors) || errors.length === 0) {
      await restartTranspiler();
      return {
        ok: false,
        message: `the transpiler failed on this module: ${String((error as Error)?.message ?? error).split("\n")[0]}`,
      };
    }
    const message = errors
      .map((e) => (e.location ? `${e.location.line}:${e.location.column}: ${e.text}` : e.text))
      .join("\n");
    return { ok: false, message };
  } finally {
    clearTimeout(timer);
  }
}

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Which files a Node process loads, through Node's own module hooks (module.register): every module
// that passes Node's loader, packages and the program's own, in load order. No change to the program.
const dir = mkdtempSync(path.join(tmpdir(), "qb-loaded-"));
const hook = path.join(dir, "hook.mjs");
writeFileSync(
  hook,
  `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(process.env.QB_LOADED_LOG, url + "\\n");
  return next(url, context);
}
`,
);
const register = path.join(dir, "register.mjs");
writeFileSync(
  register,
  `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
);

/**
 * Runs `node SCRIPT ARGS` in `cwd` and returns the paths of the files it loaded (and its exit code
 * and output). `env` replaces the process's environment.
 */
export async function loadedModules(
  script: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ files: string[]; code: number; stdout: string; stderr: string }> {
  const log = path.join(mkdtempSync(path.join(dir, "run-")), "loaded.txt");
  writeFileSync(log, "");
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) =>
      execFile(
        process.execPath,
        ["--import", pathToFileURL(register).href, script, ...args],
        { cwd: options.cwd, env: { ...(options.env ?? process.env), QB_LOADED_LOG: log } },
        (error, stdout, stderr) =>
          resolve({ code: typeof error?.code === "number" ? error.code : error ? 1 : 0, stdout, stderr }),
      ),
  );
  const files = readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((url) => new URL(url).pathname);
  return { files, code, stdout, stderr };
}

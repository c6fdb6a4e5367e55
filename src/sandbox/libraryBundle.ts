import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build, version as esbuildVersion } from "esbuild";
import { SandboxError } from "../errors.ts";
import { sandboxImportablePackages, sandboxLibraries } from "./sandboxLibraries.ts";

/**
 * ethers and viem pre-bundled by esbuild: one ES module per public entry point of each package
 * (`ethers`, `ethers/abi`, …, `viem`, `viem/chains`, …), with code splitting so that entry points
 * share one copy of every internal module (a `viem/chains` chain object and a `viem` client come
 * from the same code, exactly as from `node_modules`).
 *
 * Why: importing ethers from `node_modules` reads ~300 files and costs ~200 ms per sandboxed child
 * on this machine (viem ~420 ms); the bundles load in ~60–90 ms (viem ~150 ms). Every execution
 * is a fresh process, so this is paid once per execution (see `npm run bench`).
 */
export type LibraryBundle = {
  /** Absolute folder holding the bundle's `.mjs` files (the sandbox may read it). */
  dir: string;
  /** Import specifier (`"ethers"`, `"viem/chains"`) → absolute path of its entry module. */
  entries: Record<string, string>;
};

/** Bump when the bundle's layout or options change, so old bundles are not reused. */
const FORMAT = 3;

let pending: Promise<LibraryBundle> | undefined;

type PackageManifest = { version: string; exports?: Record<string, unknown> };

function readManifest(packageDir: string): PackageManifest {
  return JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as PackageManifest;
}

/** Public entry points of a package: its `exports` keys without wildcards or JSON files. */
function entrySpecifiers(name: string, manifest: PackageManifest): string[] {
  const keys = Object.keys(manifest.exports ?? { ".": null });
  return keys
    .filter((key) => !key.includes("*") && !key.endsWith(".json"))
    .map((key) => (key === "." ? name : `${name}/${key.slice(2)}`));
}

function fileName(specifier: string): string {
  return `${specifier.replace(/\//g, "__")}.mjs`;
}

/**
 * The library bundle for the installed ethers and viem, built on first use into
 * `<project>/.questbench/sandbox/libs/<key>/` (key: hash of the ethers, viem and esbuild versions)
 * and reused by every later execution and run. Built in a temp folder and renamed into place, so
 * concurrent workers never see half a bundle. Files are world-readable (public library code): the
 * sandbox user must read them.
 *
 * @throws {SandboxError} when esbuild cannot bundle the packages or the folder cannot be written.
 */
export function libraryBundle(): Promise<LibraryBundle> {
  pending ??= loadOrBuild().catch((error) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function loadOrBuild(): Promise<LibraryBundle> {
  const { projectRoot } = sandboxLibraries();
  const packages = sandboxImportablePackages.map((name) => {
    const dir = path.join(projectRoot, "node_modules", name);
    return { name, dir, manifest: readManifest(dir) };
  });
  const key = createHash("sha256")
    .update(JSON.stringify([FORMAT, esbuildVersion, ...packages.map((p) => [p.name, p.manifest.version])]))
    .digest("hex")
    .slice(0, 16);
  const base = path.join(projectRoot, ".questbench", "sandbox", "libs");
  const dir = path.join(base, key);
  const specifiers = packages.flatMap((p) => entrySpecifiers(p.name, p.manifest));
  const entries = Object.fromEntries(specifiers.map((s) => [s, path.join(dir, fileName(s))]));
  if (Object.values(entries).every((file) => fs.existsSync(file))) return { dir, entries };

  const temp = path.join(base, `.tmp-${key}-${randomBytes(6).toString("hex")}`);
  try {
    fs.mkdirSync(base, { recursive: true, mode: 0o755 });
    fs.chmodSync(base, 0o755);
    await build({
      entryPoints: specifiers.map((specifier) => ({
        in: `questbench-entry:${specifier}`,
        out: fileName(specifier).slice(0, -".mjs".length),
      })),
      bundle: true,
      splitting: true,
      format: "esm",
      // The browser builds (each package's own "browser" map and export condition): ethers' getUrl
      // on fetch, which the sandbox carries over its pipe to the RPC guard (childRunner.mjs), its
      // crypto on @noble and globalThis.crypto, WebSocket from the global (absent in the sandbox)
      // instead of `ws`. So the bundles load no Node built-in, and the sandbox allows the model
      // none it does not need (sandboxBuiltins.ts). The few entry points that still name one
      // (`viem/node`'s IPC transport) fail at import in the sandbox, as they should.
      platform: "browser",
      external: [...builtinModules, "node:*"],
      target: "node20",
      outdir: temp,
      outExtension: { ".js": ".mjs" },
      logLevel: "silent",
      plugins: [
        {
          name: "questbench-entries",
          setup(builder) {
            builder.onResolve({ filter: /^questbench-entry:/ }, (args) => ({
              path: args.path.slice("questbench-entry:".length),
              namespace: "questbench-entry",
            }));
            builder.onLoad({ filter: /.*/, namespace: "questbench-entry" }, (args) => ({
              contents: `export * from ${JSON.stringify(args.path)};`,
              resolveDir: projectRoot,
              loader: "js",
            }));
          },
        },
      ],
    });
    fs.chmodSync(temp, 0o755);
    for (const file of fs.readdirSync(temp)) fs.chmodSync(path.join(temp, file), 0o644);
    try {
      fs.renameSync(temp, dir);
    } catch (error) {
      // Another worker finished first: its bundle is the same bytes.
      if (!fs.existsSync(dir)) throw error;
      fs.rmSync(temp, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw new SandboxError("Cannot bundle ethers and viem for the sandbox.", {
      cause: error,
      details: dir,
    });
  }
  return { dir, entries };
}

import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildManifest, forkRecord, taskFileHashes } from "../../src/results/runManifest.ts";
import { phase } from "../../src/run/phases.ts";
import { indexedSelection, instancesAtMost } from "../../src/run/plan.ts";
import { preflight } from "../../src/run/preflight.ts";
import "../../src/run/vitest.ts";
import { installBarriers } from "../../src/sandbox/barriers.ts";
import { PROJECT_ROOT, taskIndex } from "../../src/tasks/files.ts";
import { type AnvilHandle, startAnvil } from "../../src/world/anvil.ts";
import type { ForkContext } from "../../src/world/fork/boot.ts";
import { worldIdentity, worldStatePath } from "../../src/world/paths.ts";

/**
 * Once per Vitest session: installs the sandbox barriers, boots `--concurrency` Anvil instances from
 * the world state (the pool of chains; with `--fork-url`, forks provisioned by src/world/fork) and
 * builds the run manifest; provides their URLs, the fork and the manifest to the tests and the
 * reporter. The test file's pool fixture takes the instances over; they stop when the session ends.
 */
export default async function setup(project: TestProject) {
  phase("global setup: start");
  const options = project.getProvidedContext().questbench;
  // Plain Vitest runs check here what the CLI checked before starting Vitest (src/run/preflight.ts):
  // a bad --out, a missing API key, a folder of another run fail before any Anvil starts.
  if (!project.getProvidedContext().questbenchCli)
    for (const warning of preflight(options)) console.warn(`questbench: warning: ${warning}`);
  // The one place the run installs the OS barriers around sandboxed code (docs/SECURITY.md, "The barriers").
  const sandbox = installBarriers(options);
  // The task folders, unvalidated (the worker loads and checks the selected ones): this process never
  // loads the validators, viem or ethers (docs/PERFORMANCE.md "The author's loop").
  const index = taskIndex(options.tasksDirs);
  // No more chains than instances: a one-task run boots one Anvil.
  const size = Math.max(
    1,
    Math.min(options.concurrency, instancesAtMost(indexedSelection(index, options), options)),
  );
  const handles: AnvilHandle[] = [];
  const stop = () => Promise.all(handles.map((h) => h.stop()));
  let fork: ForkContext | null = null;
  try {
    if (options.forkUrl) {
      // Fork mode only: provisioning (viem) and the loaded task texts.
      const [{ bootForkInstance, resolveFork }, { tasksToSkip }, { loadTasks }] = await Promise.all([
        import("../../src/world/fork/boot.ts"),
        import("../../src/world/fork/requirements.ts"),
        import("../../src/tasks/load.ts"),
      ]);
      const tasks = loadTasks(undefined, options.tasksDirs);
      const url = options.forkUrl;
      const manifest = await resolveFork({ url, block: options.forkBlock ?? "latest" });
      const first = await bootForkInstance({ url, fork: manifest });
      handles.push(first.handle);
      const rest = await Promise.all(
        Array.from({ length: size - 1 }, () =>
          bootForkInstance({ url, fork: manifest, expect: first.world }),
        ),
      );
      handles.push(...rest.map((r) => r.handle));
      const texts = tasks.map((t) => ({
        id: t.spec.id,
        // The spec and its gold answer (gold.ts / gold/ sit beside task.json).
        text: [
          readFileSync(path.resolve(PROJECT_ROOT, t.spec.file), "utf8"),
          ...Object.values(t.spec.reference ?? {}).flat(),
        ].join("\n"),
      }));
      const skipped = tasksToSkip(first.report.requirements, texts);
      fork = { manifest, world: first.world, report: first.report, skipped };
    } else {
      const world = worldIdentity();
      handles.push(
        ...(await Promise.all(
          Array.from({ length: size }, () =>
            startAnvil({ loadState: worldStatePath(), chainId: world.chainId }),
          ),
        )),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const world = fork?.world ?? worldIdentity();
  project.provide("fork", fork);
  project.provide(
    "anvilUrls",
    handles.map((h) => h.url),
  );
  project.provide(
    "manifest",
    buildManifest(
      options,
      { worldId: world.worldId, chainId: world.chainId },
      sandbox,
      taskFileHashes(index),
      fork ? forkRecord(fork) : undefined,
    ),
  );
  phase("global setup: anvils booted, manifest built");
  return async () => {
    await stop();
  };
}

import { beforeAll, describe, expect, test } from "vitest";
import { atomicPrompt, compositePrompt, taskHint } from "../src/protocol/prompt.ts";
import { buildManifest } from "../src/results/runManifest.ts";
import { parseRunFlags, type RunOptions } from "../src/runOptions.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { type LoadedTask, loadTasks } from "../src/tasks/load.ts";
import { sampleTasks } from "../src/tasks/select.ts";
import type { Instance } from "../src/tasks/types.ts";
import { loadWorld, type World } from "../src/world/world.ts";

const world: World = loadWorld();
const tasks = loadTasks();
const allTasks = tasks;
const task = (id: string) => tasks.find((t) => t.spec.id === id)!;

describe("prompt modes", () => {
  let atomic: { task: LoadedTask; instance: Instance };
  let composite: { task: LoadedTask; instance: Instance };
  beforeAll(async () => {
    const make = async (id: string) => ({
      task: task(id),
      instance: await instantiate(task(id).spec, { runSeed: 1, world }),
    });
    atomic = await make("erc20_transfer_fixed");
    composite = await make("composite_approve_swap_tokens");
  });
  const user = (m: { content: string }[]) => m[1]!.content;
  const base = () => user(atomicPrompt(atomic.instance, atomic.task.spec.answer, world));
  const withModes = (modes: RunOptions["modes"]) =>
    user(
      atomicPrompt(atomic.instance, atomic.task.spec.answer, world, {
        modes,
        hint: taskHint(atomic.task.spec),
      }),
    );

  test("no mode (or an empty one) gives the default prompt byte for byte", () => {
    expect(withModes(undefined)).toBe(base());
    expect(withModes({})).toBe(base());
    expect(base()).toContain("Libraries you may import: ethers v6");
  });

  test("--library ethers and --library viem offer one library with its conventions", () => {
    const ethers = withModes({ library: "ethers" });
    const viem = withModes({ library: "viem" });
    expect(ethers).toContain("Library: use ethers v6");
    expect(ethers).toContain("new ethers.JsonRpcProvider(providerUrl)");
    expect(ethers).not.toContain("createPublicClient");
    expect(viem).toContain("Library: use viem");
    expect(viem).toContain("encodeFunctionData({ abi, functionName, args })");
    expect(viem).not.toContain("ethers");
    // Only the library line changes.
    expect(ethers.replace(/- Library: [\s\S]*?MaxUint256`, `ethers\.getAddress\(a\)`\.\n/, "")).toBe(
      base().replace(/- Libraries you may import: .*\n/, ""),
    );
  });

  test("--env-detail paper lists canonical contracts by address only, own contracts keep their descriptions", () => {
    const paper = withModes({ envDetail: "paper" });
    expect(paper.length).toBeLessThan(base().length);
    expect(paper).toMatch(new RegExp(`  - usdt: ${world.contracts.usdt}\\n`));
    expect(base()).toMatch(new RegExp(`  - usdt: ${world.contracts.usdt} — `));
    const own = base()
      .split("\n")
      .find((l) => l.startsWith("  - simple_lp_staking:"))!;
    expect(paper).toContain(own);
  });

  test("--naive appends the task's generated hint; composites name their workflow steps", () => {
    const naive = withModes({ naive: true });
    expect(naive).toContain(`\n\nHint: ${atomic.task.spec.summary}`);
    expect(naive.replace(`\n\n${taskHint(atomic.task.spec)}`, "")).toBe(base());
    const c = user(
      compositePrompt(composite.instance, composite.task.spec.answer, world, 4, {
        modes: { naive: true },
        hint: taskHint(composite.task.spec),
      }),
    );
    expect(c).toContain(`Steps, in order: ${composite.task.spec.workflow!.join(" → ")}.`);
  });
});

describe("mode flags and selection", () => {
  test("flags parse into manifest modes; defaults are not recorded; bad values are one-line errors", () => {
    const o = parseRunFlags(["--library", "viem", "--env-detail", "paper", "--naive", "--sample", "20"]);
    expect(o.modes).toEqual({ library: "viem", envDetail: "paper", naive: true, sample: 20 });
    expect(parseRunFlags(["--env-detail", "full", "--nl-level", "precise"]).modes).toBeUndefined();
    expect(() => parseRunFlags(["--library", "web3"])).toThrow(
      /--library must be ethers or viem, got 'web3'/,
    );
    const manifest = buildManifest(
      o,
      { worldId: "w", chainId: 56 },
      { network: { kind: "none", detail: "" }, memory: { kind: "none", detail: "" } },
      {},
    );
    expect(manifest.modes).toEqual(o.modes);
    expect(
      "modes" in
        buildManifest(
          parseRunFlags([]),
          { worldId: "w", chainId: 56 },
          { network: { kind: "none", detail: "" }, memory: { kind: "none", detail: "" } },
          {},
        ),
    ).toBe(false);
  });

  test("--sample N is seeded and category-proportional (largest remainder)", () => {
    // The paper's 107 (as `--split paper --sample N` selects them); the hard split has its own categories.
    const tasks = allTasks.filter((t) => (t.spec.set ?? "paper") === "paper");
    const a = sampleTasks(tasks, 20, 1).map((t) => t.spec.id);
    expect(sampleTasks(tasks, 20, 1).map((t) => t.spec.id)).toEqual(a);
    expect(sampleTasks(tasks, 20, 2).map((t) => t.spec.id)).not.toEqual(a);
    const perCategory = (ids: string[]) => {
      const out: Record<string, number> = {};
      for (const id of ids) {
        const c = task(id).spec.category;
        out[c] = (out[c] ?? 0) + 1;
      }
      return out;
    };
    // 107 tasks: 40 basic, 19 defi, 3 advanced, 45 composite → 20 × share = 7.48, 3.55, 0.56, 8.41.
    expect(perCategory(a)).toEqual({
      basic_transactions: 7,
      defi_operations: 4,
      advanced_features: 1,
      composite: 8,
    });
    expect(() => sampleTasks(tasks, 500, 1)).toThrow(/--sample 500 exceeds the 107/);
  });
});

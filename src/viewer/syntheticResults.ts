/**
 * Synthetic results folders for measuring the viewer (docs/VIEWER.md "Performance"): `models` runs
 * of `epochs` epochs over the tasks given, each instance of a real instance's size (an 8 kB prompt,
 * a reply with its module, four checks; composites two rounds), scores drawn from a fixed seed so
 * the folders are the same on every machine. Written as the recorder writes (src/results/folder.ts):
 * instances.jsonl and a two-space results.json.
 */
import path from "node:path";
import seedrandom from "seedrandom";
import { appendInstance, writeResultsFile } from "../results/folder.ts";
import { summarize } from "../results/summarize.ts";
import type { InstanceResult, RunManifest } from "../results/types.ts";
import type { TaskSpec } from "../tasks/types.ts";

export type SyntheticResultsParameters = {
  /** The folder to write into: one subfolder per model (`model-01`, …). */
  dir: string;
  models: number;
  epochs: number;
  tasks: readonly Pick<TaskSpec, "id" | "split" | "set" | "category" | "subcategory">[];
};

const FAILURES = ["checks_failed", "runtime_error", "schema_invalid", "send_rejected"] as const;
const FLAGS = ["no_min_out", "unlimited_approval", "extra_side_effect", "far_deadline"] as const;
const FILLER =
  "Contracts: usdt 0x55d398326f99059fF775485246999027B3197955 (BEP-20, 18 decimals), router 0x10ED43C718714eb63d5aA57B78B54704E256024E. ";

/** Writes the folders and returns their paths. */
export function writeSyntheticResults(p: SyntheticResultsParameters): string[] {
  const rng = seedrandom("questbench-viewer-bench");
  const folders: string[] = [];
  for (let m = 0; m < p.models; m++) {
    const model = `model-${String(m + 1).padStart(2, "0")}`;
    const out = path.join(p.dir, model);
    const skill = 0.25 + (0.65 * m) / Math.max(1, p.models - 1);
    const instances: InstanceResult[] = [];
    for (const t of p.tasks)
      for (let epoch = 0; epoch < p.epochs; epoch++) {
        const passed = rng() < skill;
        const score = passed ? 100 : [0, 0, 20, 50][Math.floor(rng() * 4)]!;
        const cls = FAILURES[Math.floor(rng() * FAILURES.length)]!;
        const flags = rng() < 0.2 ? [FLAGS[Math.floor(rng() * FLAGS.length)]!] : [];
        const module = `import { ethers } from "ethers";\n\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${"  // step\n".repeat(30)}  return { to: deployedContracts.usdt, data: "0x095ea7b3" };\n}\n`;
        const response = `\`\`\`ts\n${module}\`\`\``;
        const tx = {
          hash: `0x${"ab".repeat(32)}`,
          to: "0x55d398326f99059fF775485246999027B3197955",
          input: `0x095ea7b3${"0".repeat(128)}`,
          value: "0",
          status: "success" as const,
          gasUsed: "46000",
          fee: "46000000000000",
        };
        const instance: InstanceResult = {
          taskId: t.id,
          taskVersion: 1,
          split: t.split,
          set: t.set ?? "paper",
          category: t.category,
          subcategory: t.subcategory,
          difficulty: "medium",
          seed: 1,
          epoch,
          instanceSeed: `${m}-${t.id}-${epoch}`,
          templateIndex: 0,
          params: { x: "1.5", to: "0xBfaCb06D66A6bF28837D375A4DBbC15A415F6406" },
          model,
          prompt: [
            { role: "system", content: FILLER.repeat(60) },
            { role: "user", content: `Do ${t.id} for the agent. ${FILLER.repeat(3)}` },
          ],
          response,
          integrityViolations: [],
          safety: flags,
          execution: {
            costBps: passed ? 0 : Math.round(rng() * 20000 - 5000) / 10,
            value: "-1000000000000000000",
            goldValue: "-1000000000000000000",
            gasUsed: "46000",
            goldGasUsed: "46000",
            gasRatio: 1,
            unpriced: 0,
          },
          score,
          passed,
          checks: ["recipient", "amount", "effects", "holdingsUnchanged"].map((name, k) => ({
            name,
            weight: 25,
            critical: k === 0,
            passed: passed || k > 1,
            detail: `${name}: expected = 1500000000000000000, actual ${passed ? "1500000000000000000" : "150000000000000000"}`,
          })),
          failure: passed ? null : { class: cls, reason: `${cls}: the synthetic answer failed` },
          durationMs: 300,
          timings: { execute: 60, send: 90, checks: 40 },
          ...(t.split === "composite"
            ? {
                composite: {
                  kOpt: 2,
                  kAct: 2,
                  kFailed: 0,
                  kQuery: 0,
                  budget: 4,
                  base: score,
                  decay: 1,
                  endedBy: "submit" as const,
                  answer: {},
                  plan: '{"plan": ["approve", "swap"]}',
                  planSteps: ["approve", "swap"],
                  rounds: [1, 2].map((round) => ({
                    round,
                    response,
                    kind: "transaction" as const,
                    counted: true,
                    transaction: tx,
                    feedback: "Round executed: transaction 0xabab… succeeded.",
                  })),
                  ethersNotDefined: false,
                },
              }
            : { transaction: tx }),
        };
        instances.push(instance);
        appendInstance(out, instance);
      }
    writeResultsFile(out, {
      schemaVersion: 1,
      manifest: {
        packageVersion: "0.0.0",
        gitCommit: null,
        seed: 1,
        epochs: p.epochs,
        model,
        split: "all",
        taskFiles: {},
        anvilVersion: "synthetic",
        worldId: "synthetic",
        chainId: 56,
        nodeVersion: process.version,
        startedAt: "2026-01-01T00:00:00.000Z",
      } satisfies RunManifest,
      summary: summarize(instances),
      instances,
    });
    folders.push(out);
  }
  return folders;
}

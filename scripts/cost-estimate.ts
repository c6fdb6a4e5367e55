// Prints the figures of docs/RUNNING.md "Cost to expect": per split (the paper's 107 — the default run —, the
// hard split, both) the calls and tokens one epoch is expected to take, and per priced registry model
// the USD of each split, by the estimate `--budget` projects with before real instances have paid
// (src/run/estimate.ts; seed 1, the default protocol). Usage: `npx tsx scripts/cost-estimate.ts`.

import { loadRegistry } from "../src/models/registry.ts";
import { estimateInstanceUsage } from "../src/run/estimate.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { loadTasks } from "../src/tasks/load.ts";
import { selectTasks } from "../src/tasks/select.ts";
import { loadWorld } from "../src/world/world.ts";

/** Reasoning models write several times more output: the tables' last column assumes 4×. */
const REASONING_OUTPUT = 4;

const world = loadWorld();
const tasks = loadTasks();
type Totals = { instances: number; calls: number; input: number; output: number; prompt: number[] };
const empty = (): Totals => ({ instances: 0, calls: 0, input: 0, output: 0, prompt: [] });
const totals: Record<"paper" | "hard" | "all", Totals> = { paper: empty(), hard: empty(), all: empty() };
for (const split of ["paper", "hard"] as const)
  for (const task of selectTasks(tasks, { split, tasks: [] })) {
    const usage = estimateInstanceUsage(task, await instantiate(task.spec, { runSeed: 1, world }), world);
    for (const t of [totals[split], totals.all]) {
      t.instances++;
      t.calls += usage.calls;
      t.input += usage.inputTokens;
      t.output += usage.outputTokens;
      t.prompt.push(usage.promptChars);
    }
  }

const millions = (n: number) => (n / 1e6).toFixed(2);
const kchars = (n: number) => `${(n / 1000).toFixed(1)} k`;
console.log("| split | instances | opening prompt (characters) | calls | input tokens | output tokens |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [split, t] of Object.entries(totals))
  console.log(
    `| ${split} | ${t.instances} | ${kchars(Math.min(...t.prompt))}–${kchars(Math.max(...t.prompt))} | ${t.calls} | ${millions(t.input)} M | ${millions(t.output)} M |`,
  );

const usd = (t: Totals, p: { input: number; output: number }, outputFactor = 1) =>
  `$${((t.input * p.input + t.output * outputFactor * p.output) / 1e6).toFixed(2)}`;
console.log("\n| model | paper | hard | all | paper, reasoning (4× output) |");
console.log("| --- | --- | --- | --- | --- |");
for (const [name, m] of Object.entries(loadRegistry().models)) {
  const p = m.price;
  const cells = p
    ? [usd(totals.paper, p), usd(totals.hard, p), usd(totals.all, p), usd(totals.paper, p, REASONING_OUTPUT)]
    : ["—", "—", "—", "—"];
  console.log(`| \`${name}\` | ${cells.join(" | ")} |`);
}

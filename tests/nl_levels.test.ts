import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TaskSpecError } from "../src/errors.ts";
import { resolveModel } from "../src/models/resolve.ts";
import { runAttempt } from "../src/protocol/attempt.ts";
import { buildManifest } from "../src/results/runManifest.ts";
import { parseRunFlags } from "../src/runOptions.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { loadTaskFile, TASKS_DIR } from "../src/tasks/load.ts";
import { fillPlaceholders, placeholderNames } from "../src/tasks/placeholders.ts";
import { selectTasks } from "../src/tasks/select.ts";
import { type NlLevel, templatesAt } from "../src/tasks/templates.ts";
import { type AnvilPool, createAnvilPool } from "../src/world/pool.ts";
import { tasks, world } from "./helpers/attempts.ts";

// The paper's NL difficulty (README "Comparing with the paper", `--nl-difficulty`): the same request worded precisely,
// moderately or vaguely. The rule: vague in wording, never in information.
const LEVELS = ["moderate", "vague"] as const;

/** The parameters a template states: every placeholder but contract addresses and the agent (in the prompt's environment anyway). */
const stated = (text: string) =>
  [...new Set(placeholderNames(text).filter((n) => !n.startsWith("contracts.") && n !== "agent"))]
    .sort()
    .join(",");

describe("every task has moderate and vague templates carrying the precise ones' information", () => {
  test("the 107 paper tasks are all there (62 atomic, 45 composite)", () => {
    const paper = tasks.filter((t) => (t.spec.set ?? "paper") === "paper");
    expect(paper.filter((t) => t.spec.split === "atomic")).toHaveLength(62);
    expect(paper.filter((t) => t.spec.split === "composite")).toHaveLength(45);
  });

  test.each(tasks.map((t) => [t.spec.id, t] as const))("%s", (_id, task) => {
    const precise = new Set(task.spec.templates.map(stated));
    for (const level of LEVELS) {
      const list = templatesAt(task.spec, level);
      expect(list, `${level} templates`).toBeDefined();
      // The paper's tasks carry two phrasings per level; the hard split's authors wrote at least one.
      expect(list!.length).toBeGreaterThanOrEqual((task.spec.set ?? "paper") === "paper" ? 2 : 1);
      for (const text of list!) {
        // Same parameter set as some precise template: no value the checks need is left out, none added.
        expect(precise, `${level}: ${text}`).toContain(stated(text));
        expect(task.spec.templates, "a level repeats a precise template word for word").not.toContain(text);
      }
    }
  });
});

describe("--nl-level instantiation", () => {
  const ids = [
    "erc20_transfer_fixed",
    "erc20_permit",
    "add_liquidity_bnb_token",
    "composite_full_liquidity_cycle",
  ];
  test.each(ids)(
    "%s: same parameters and facts at every level, only the request's wording changes",
    async (id) => {
      const spec = tasks.find((t) => t.spec.id === id)!.spec;
      for (const seed of [1, 2, 3]) {
        const precise = await instantiate(spec, { runSeed: seed, world });
        // Absent and "precise" are today's instance, byte for byte.
        expect(await instantiate(spec, { runSeed: seed, world, nlLevel: "precise" })).toEqual(precise);
        const factLines = (spec.facts ?? []).length;
        const lines = (text: string) => text.split("\n");
        const request = (text: string) =>
          lines(text)
            .slice(0, lines(text).length - factLines)
            .join("\n");
        for (const level of LEVELS) {
          const a = await instantiate(spec, { runSeed: seed, world, nlLevel: level });
          expect(await instantiate(spec, { runSeed: seed, world, nlLevel: level })).toEqual(a);
          expect(a.params).toEqual(precise.params);
          expect(a.secrets).toEqual(precise.secrets);
          // The request is this level's drawn template, filled; the facts lines are the precise instance's.
          const template = templatesAt(spec, level)![a.templateIndex]!;
          expect(request(a.taskText)).toBe(fillPlaceholders(template, a, world));
          expect(request(a.taskText)).not.toBe(request(precise.taskText));
          expect(lines(a.taskText).slice(lines(a.taskText).length - factLines)).toEqual(
            lines(precise.taskText).slice(lines(precise.taskText).length - factLines),
          );
          // Every value the template names is in the text as sampled.
          for (const name of placeholderNames(template))
            if (!name.includes(".")) expect(a.taskText).toContain(String(precise.params[name]));
        }
      }
    },
  );

  test("the template is drawn per instance seed, so a run covers a level's templates", async () => {
    const spec = tasks.find((t) => t.spec.id === "erc20_transfer_fixed")!.spec;
    const seen = new Set<number>();
    for (let seed = 1; seed <= 20; seed++)
      seen.add((await instantiate(spec, { runSeed: seed, world, nlLevel: "vague" })).templateIndex);
    expect(seen.size).toBe(templatesAt(spec, "vague")!.length);
  });

  test("a task without the level is refused by name, at selection and at instantiation", async () => {
    const bare = tasks.map((t) =>
      t.spec.id === "wbnb_deposit" ? { ...t, spec: { ...t.spec, templatesByLevel: undefined } } : t,
    );
    for (const level of LEVELS)
      expect(() => selectTasks(bare, { split: "atomic", tasks: [], modes: { nlLevel: level } })).toThrow(
        new RegExp(
          `--nl-level ${level}: 1 selected task\\(s\\) have no ${level} templates, e\\.g\\. wbnb_deposit$`,
        ),
      );
    expect(selectTasks(bare, { split: "atomic", tasks: [], modes: { nlLevel: "precise" } })).toHaveLength(62);
    const spec = bare.find((t) => t.spec.id === "wbnb_deposit")!.spec;
    await expect(instantiate(spec, { runSeed: 1, world, nlLevel: "vague" })).rejects.toThrow(
      /wbnb_deposit has no vague templates/,
    );
  });

  test("every paper task is selected at every level, and the level is recorded in the manifest", () => {
    for (const level of ["precise", ...LEVELS] as NlLevel[]) {
      const o = parseRunFlags(["--split", "paper", "--nl-level", level]);
      expect(selectTasks(tasks, { ...o, split: "paper" })).toHaveLength(107);
      const manifest = buildManifest(
        o,
        { worldId: "w", chainId: 56 },
        { network: { kind: "none", detail: "" }, memory: { kind: "none", detail: "" } },
        {},
      );
      expect(manifest.modes?.nlLevel).toBe(level === "precise" ? undefined : level);
    }
  });
});

describe("a level template naming an unknown parameter fails at load with file, field, line and column", () => {
  test.each(LEVELS)("%s", (level) => {
    const spec = JSON.parse(
      readFileSync(path.join(TASKS_DIR, "atomic/erc20_transfer_fixed/task.json"), "utf8"),
    );
    spec.templatesByLevel[level][1] = "Send {{amount}} USDT to {{to}}.";
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "qb-nl-")), "atomic", "erc20_transfer_fixed");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "task.json");
    writeFileSync(file, JSON.stringify(spec, null, 2));
    const text = readFileSync(file, "utf8");
    const line = text.slice(0, text.indexOf(`"${level}"`)).split("\n").length;
    expect(() => loadTaskFile(file)).toThrow(TaskSpecError);
    expect(() => loadTaskFile(file)).toThrow(
      new RegExp(
        `erc20_transfer_fixed/task\\.json:${line + 2}:\\d+: templatesByLevel\\.${level}\\[1\\]: placeholder \\{\\{amount\\}\\} names no parameter`,
      ),
    );
  });
});

describe("the reference model scores 100 on vague wording (it reads values, not wording)", () => {
  let pool: AnvilPool;
  beforeAll(async () => {
    pool = createAnvilPool({ size: 1, world });
    await pool.start();
  });
  afterAll(async () => {
    await pool?.stop();
  });
  const ids = [
    "erc20_permit",
    "swap_exact_tokens_for_bnb",
    "query_pair_reserves",
    "composite_emergency_exit_workflow",
  ];
  test.each(ids)("%s", async (id) => {
    const task = tasks.find((t) => t.spec.id === id)!;
    const instance = await instantiate(task.spec, { runSeed: 4, world, nlLevel: "vague" });
    expect(instance.taskText).toContain(
      fillPlaceholders(templatesAt(task.spec, "vague")![instance.templateIndex]!, instance, world),
    );
    const lease = await pool.lease();
    try {
      const result = await runAttempt({
        task,
        instance,
        model: resolveModel("reference"),
        world,
        chain: lease,
      });
      expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
      expect(result.score).toBe(100);
    } finally {
      lease.release();
    }
  });
});

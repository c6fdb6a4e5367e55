import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AjvModule from "ajv";
import { describe, expect, test } from "vitest";
import { TaskSpecError } from "../src/errors.ts";
import { evaluateExpr, parseExpr } from "../src/expr/expr.ts";
import { pureScope } from "../src/expr/scope.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { loadTaskFile, loadTasks, TASKS_DIR } from "../src/tasks/load.ts";
import { fillPlaceholders } from "../src/tasks/placeholders.ts";
import { selectTasks } from "../src/tasks/select.ts";
import { CHECKS } from "../src/validators/registry.ts";
import { taskSchema } from "../src/validators/schema.ts";
import { tasks, world } from "./helpers/attempts.ts";

const Ajv = AjvModule as unknown as typeof AjvModule.default;

const example = JSON.parse(
  readFileSync(path.join(TASKS_DIR, "atomic/erc20_transfer_fixed/task.json"), "utf8"),
);

/** Writes `spec` as `<dir>/atomic/<name>/task.json` and loads it. */
function load(spec: unknown, name = (spec as { id: string }).id) {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "qb-spec-")), "atomic", name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "task.json");
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return () => loadTaskFile(file);
}

describe("seeded instances", () => {
  test("the same seed gives the same instance byte for byte, for every task", async () => {
    for (const task of tasks) {
      const a = await instantiate(task.spec, { runSeed: 3, world });
      const b = await instantiate(task.spec, { runSeed: 3, world });
      expect(JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))).toBe(
        JSON.stringify(b, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)),
      );
    }
  });

  test("different seeds and epochs give different instances", async () => {
    const spec = tasks.find((t) => t.spec.id === "erc20_transfer_fixed")!.spec;
    const draws = await Promise.all(
      [1, 2, 3, 4].flatMap((seed) =>
        [0, 1].map((epoch) => instantiate(spec, { runSeed: seed, epoch, world })),
      ),
    );
    expect(new Set(draws.map((d) => `${d.params.to}/${d.params.x}`)).size).toBe(draws.length);
  });

  test("decimal parameters stay in range and read as a person writes them", async () => {
    const spec = tasks.find((t) => t.spec.id === "erc20_transfer_fixed")!.spec;
    for (let seed = 0; seed < 200; seed++) {
      const { params, taskText } = await instantiate(spec, { runSeed: seed, world });
      const x = params.x as string;
      expect(x).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(x).not.toMatch(/\.\d*0$/);
      expect(Number(x)).toBeGreaterThanOrEqual(1);
      expect(Number(x)).toBeLessThanOrEqual(100);
      expect(taskText).toContain(x);
      expect(taskText).not.toContain("{{");
    }
  });
});

describe("placeholders", () => {
  test("{{name | grouped}} writes an amount with thousands separators, as the facts state it", () => {
    const instance = { params: { a: "10000", b: "1234567.25", c: "999" } };
    expect(
      fillPlaceholders("{{a | grouped}} / {{b|grouped}} / {{c | grouped}} / {{a}}", instance, world),
    ).toBe("10,000 / 1,234,567.25 / 999 / 10000");
  });
});

describe("expressions", () => {
  const scope = pureScope({ x: "12.5", n: 7n, to: "0x00000000000000000000000000000000000000aa" }, world);
  test.each([
    ["wei(x)", 12_500_000_000_000_000_000n],
    ["-wei(x) + 1", -12_499_999_999_999_999_999n],
    ["n * 3 / 2", 10n],
    ["units(x, 6)", 12_500_000n],
    ["max(n, 9) - min(n, 9)", 2n],
    ["contracts.usdt", world.contracts.usdt],
    // Literals a JSON task file writes without escaped quotes:
    ["wei(1000)", 1000n * 10n ** 18n],
    ["wei(0.25)", 25n * 10n ** 16n],
    ["0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000"],
    ["'getValue()(uint256)'", "getValue()(uint256)"],
  ])("%s", async (source, expected) => {
    expect(await evaluateExpr(parseExpr(source), scope)).toBe(expected);
  });

  test("arithmetic on a decimal parameter without wei() is an error", async () => {
    await expect(evaluateExpr(parseExpr("x * 2"), scope)).rejects.toThrow(/needs an integer, got "12.5"/);
  });
});

describe("a malformed task spec fails at load with its file and field", () => {
  test.each([
    ["a schema violation", (s: any) => delete s.templates, "(root): must have required property 'templates'"],
    ["an unknown top-level field", (s: any) => (s.extra = 1), "extra: unknown field (allowed: $schema, id,"],
    ["a bad parameter", (s: any) => (s.parameters.x.decimals = 40), "parameters.x.decimals"],
    [
      "a template naming an undefined parameter",
      (s: any) => (s.templates[1] = "Send {{amount}} USDT to {{to}}."),
      "templates[1]: placeholder {{amount}} names no parameter",
    ],
    [
      "a check naming an unknown contract key",
      (s: any) => (s.checks[1].args.address = "contracts.no_such_token"),
      "checks[1].args.address: unknown contract key 'contracts.no_such_token'",
    ],
    [
      "an unknown check",
      (s: any) => (s.checks[2].check = "selectorsIn"),
      "checks[2].check: unknown check 'selectorsIn'",
    ],
    [
      "an unknown check argument",
      (s: any) => (s.checks[2].args.selector = "0x"),
      "checks[2].args.selector: unknown argument (allowed: selectors)",
    ],
    [
      "a nested check's bad expression",
      (s: any) => (s.checks[3].args.checks[1].args.expected = "wei(y)"),
      "checks[3].args.checks[1].expected: unknown name 'y'",
    ],
    [
      "weights that do not sum to 100",
      (s: any) => (s.checks[0].weight = 20),
      "checks: weights sum to 90, not 100",
    ],
    [
      "an id that is not the folder name",
      (s: any) => (s.id = "erc20_transfer"),
      "id: 'erc20_transfer' does not match the folder name",
    ],
  ])("%s", (_what, mutate, message) => {
    const spec = structuredClone(example);
    mutate(spec);
    const run = load(spec, "erc20_transfer_fixed");
    expect(run).toThrow(TaskSpecError);
    expect(run).toThrow(/erc20_transfer_fixed\/task\.json:\d+:\d+: /);
    expect(run).toThrow(message);
  });

  test("invalid JSON names the file", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "qb-spec-")), "atomic", "broken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "task.json"), "{ not json");
    expect(() => loadTaskFile(path.join(dir, "task.json"))).toThrow(
      /broken\/task\.json:1:3: \(file\): is not valid JSON: /,
    );
  });

  test("two files with one id are refused", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "qb-spec-"));
    for (const sub of ["a", "b"]) {
      const d = path.join(dir, sub, "atomic", "erc20_transfer_fixed");
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "task.json"), JSON.stringify(example));
    }
    expect(() => loadTasks(dir)).toThrow(/duplicate id 'erc20_transfer_fixed'/);
  });
});

describe("the task schema is generated from the check definitions", () => {
  test("the committed tasks/task.schema.json equals the generated one (npm run schema:tasks)", () => {
    const committed = JSON.parse(readFileSync(path.join(TASKS_DIR, "task.schema.json"), "utf8"));
    expect(committed).toEqual(taskSchema(committed));
  });

  test("every check declares a description and an example its own argument schema accepts", () => {
    const ajv = new Ajv({ strict: false });
    const schema = JSON.parse(readFileSync(path.join(TASKS_DIR, "task.schema.json"), "utf8"));
    const validateCheck = ajv.compile({ ...schema.definitions.check, definitions: schema.definitions });
    for (const [name, d] of Object.entries(CHECKS)) {
      expect(d.description, name).toMatch(/\S/);
      expect(
        validateCheck({ check: name, args: d.example }),
        `${name}: ${JSON.stringify(validateCheck.errors)}`,
      ).toBe(true);
    }
  });
});

describe("a broken task file names file:line:column and refuses only itself", () => {
  /** A tasks dir with the good erc20_transfer_fixed and `atomic/broken_one/task.json` = `text`. */
  function tasksDir(text: string) {
    const dir = mkdtempSync(path.join(tmpdir(), "qb-tasks-"));
    for (const [id, body] of [
      ["erc20_transfer_fixed", JSON.stringify(example, null, 2)],
      ["broken_one", text],
    ] as const) {
      mkdirSync(path.join(dir, "atomic", id), { recursive: true });
      writeFileSync(path.join(dir, "atomic", id, "task.json"), body);
    }
    return dir;
  }

  test("a JSON syntax error is reported at its line and column", () => {
    const dir = tasksDir('{\n  "id": "broken_one",\n  "version" 1\n}\n');
    const set = loadTasks(dir);
    expect(set.broken.map((b) => b.id)).toEqual(["broken_one"]);
    expect(set.broken[0]!.error.message).toMatch(
      /broken_one\/task\.json:3:13: \(file\): is not valid JSON: ColonExpected/,
    );
  });

  test("a schema error is reported at the line and column of the offending key", () => {
    const spec = structuredClone(example);
    spec.id = "broken_one";
    spec.checks[2].args.selector = "0x";
    const text = JSON.stringify(spec, null, 2);
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes('"selector":')) + 1;
    const column = lines[line - 1]!.indexOf('"selector"') + 1;
    const set = loadTasks(tasksDir(text));
    expect(set.broken[0]!.error.message).toContain(
      `broken_one/task.json:${line}:${column}: checks[2].args.selector: unknown argument`,
    );
  });

  test("a --tasks run of another task is not blocked; naming the broken one or running all is refused", () => {
    const set = loadTasks(tasksDir("{ not json"));
    expect(set.map((t) => t.spec.id)).toEqual(["erc20_transfer_fixed"]);
    const picked = selectTasks(set, { split: "all", tasks: ["erc20_transfer_fixed"] });
    expect(picked.map((t) => t.spec.id)).toEqual(["erc20_transfer_fixed"]);
    expect(() => selectTasks(set, { split: "all", tasks: ["broken_one"] })).toThrow(
      /broken_one\/task\.json:1:3: /,
    );
    expect(() => selectTasks(set, { split: "atomic", tasks: [] })).toThrow(TaskSpecError);
    expect(selectTasks(set, { split: "composite", tasks: [] })).toEqual([]);
  });

  test("every task in tasks/ loads", () => {
    expect(loadTasks().broken.map((b) => b.error.message)).toEqual([]);
  });
});

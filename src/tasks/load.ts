import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type AjvModule from "ajv";
import type { ErrorObject } from "ajv";
import type standaloneModule from "ajv/dist/standalone/index.js";
import {
  findNodeAtLocation,
  type JSONPath,
  type Node as JsonNode,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { didYouMean } from "../didYouMean.ts";
import { TaskSpecError } from "../errors.ts";
import { ALL_FUNCTIONS } from "../expr/chainScope.ts";
import { compileExpr } from "../expr/validate.ts";
import { compileCheck } from "../validators/registry.ts";
import { type Check, CheckArgsError } from "../validators/types.ts";
import { type CompiledAction, compileAction } from "./actions.ts";
import { layoutFolder, PROJECT_ROOT, stateDir, TASKS_DIR, taskIndex, taskSha256 } from "./files.ts";
import { readGold } from "./gold.ts";
import { placeholderNames } from "./placeholders.ts";
import type { LoadedTaskSpec, TaskSpec } from "./types.ts";

// The task folders as files (light, no validator): src/tasks/files.ts.
export { PROJECT_ROOT, TASK_FILE, TASKS_DIR, taskFiles } from "./files.ts";

const SCHEMA_FILE = path.join(TASKS_DIR, "task.schema.json");

/** A task spec ready to run: the spec, its compiled checks and pre-state actions. */
export type LoadedTask = { spec: LoadedTaskSpec; checks: Check[]; actions: CompiledAction[] };

type SchemaValidator = ReturnType<InstanceType<typeof AjvModule.default>["compile"]>;
let validator: SchemaValidator | undefined;
/**
 * The task schema's validator. Compiling it with ajv costs ~100 ms, paid by every Vitest worker (each
 * watch-mode re-run starts one), so the compiled code is kept as ajv standalone code in
 * `.questbench/cache/` ({@link stateDir}), keyed by the schema's bytes and ajv's version, and later runs only require it
 * (ajv itself, ~75 ms to load, is loaded only to compile).
 * An unwritable project folder just compiles every time.
 */
function schemaValidator(): SchemaValidator {
  if (validator) return validator;
  const text = readFileSync(SCHEMA_FILE, "utf8");
  const require = createRequire(import.meta.url);
  const ajvVersion = (require("ajv/package.json") as { version: string }).version;
  const key = createHash("sha256").update(`${ajvVersion}\0${text}`).digest("hex").slice(0, 16);
  const cached = path.join(stateDir(), "cache", `task-schema-${key}.cjs`);
  try {
    validator = createRequire(cached)(cached) as SchemaValidator;
    return validator;
  } catch {
    // not cached yet (or unreadable): compile below
  }
  const Ajv = require("ajv") as typeof AjvModule.default;
  const standaloneCode = require("ajv/dist/standalone/index.js") as typeof standaloneModule.default;
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { source: true } });
  validator = ajv.compile(JSON.parse(text));
  try {
    mkdirSync(path.dirname(cached), { recursive: true });
    // Concurrent workers may write it at once: each renames its own complete file into place.
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, standaloneCode(ajv, validator));
    renameSync(tmp, cached);
  } catch {
    // a read-only project: compiling each time is only slower
  }
  return validator;
}

/** A request's words that allow a range for an amount: "within 0.01 %", "at most x + 0.000001". */
const RANGE_PHRASE = /\bwithin \d[\d.]* ?%|\bat most (\{\{\w+\}\}|\w+) \+/i;

/**
 * Loads and validates one task spec: JSON Schema (ajv), then meaning — every placeholder and
 * expression names a defined parameter, contract key or function; every check's arguments are valid;
 * atomic weights sum to 100; a query task declares its answer fields.
 * @param pack the task pack (`--tasks-dir`) the file belongs to: its tasks may sit outside the
 *   `atomic/`, `composite/`, `hard/` layout, and its `file` is absolute.
 * @throws {TaskSpecError} naming the file and the offending field (e.g. `checks[3].args.token`).
 */
export function loadTaskFile(file: string, pack?: string): LoadedTask {
  const rel = pack === undefined ? path.relative(PROJECT_ROOT, file) : path.resolve(file);
  const bytes = readFileSync(file);
  const text = bytes.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const [syntax] = parseErrors(text);
    const where = syntax ? `${rel}:${lineColumn(text, syntax.offset)}` : rel;
    const problem = syntax ? printParseErrorCode(syntax.error) : (error as Error).message;
    throw new TaskSpecError(where, "(file)", `is not valid JSON: ${problem}`);
  }
  const tree = parseTree(text);
  /** `rel:line:column` of a field (`checks[3].args.token`), or of its nearest existing parent. */
  const at = (field: string) => `${rel}:${lineColumn(text, fieldOffset(tree, field))}`;
  const validate = schemaValidator();
  if (!validate(json)) {
    const { field, problem } = describeSchemaError(validate.errors!);
    throw new TaskSpecError(at(field), field, problem);
  }
  const spec = json as TaskSpec;
  const fail = (field: string, problem: string): never => {
    throw new TaskSpecError(at(field), field, problem);
  };
  const folder = path.dirname(file);
  const expectedName = path.basename(folder);
  if (spec.id !== expectedName) fail("id", `'${spec.id}' does not match the folder name '${expectedName}'`);
  const expectedParent = layoutFolder(file, pack);
  if (
    expectedParent !== undefined &&
    ((spec.set ?? "paper") === "hard" ? expectedParent !== "hard" : spec.split !== expectedParent)
  )
    fail(
      spec.set === "hard" ? "set" : "split",
      `'${spec.set === "hard" ? "hard" : spec.split}' but the task lives in ${pack === undefined ? "tasks/" : ""}${expectedParent}/`,
    );
  const gold = readGold(folder, spec.split);
  if (gold.reference) spec.reference = gold.reference;
  const params = new Set(Object.keys(spec.parameters));
  const kind = spec.kind ?? (spec.answer ? "query" : "transaction");
  if (spec.split === "atomic" && kind === "query" && !spec.answer)
    fail("answer", "a query task must declare answer.fields");

  for (const [name, p] of Object.entries(spec.parameters)) {
    if (p.type === "decimal" && Number(p.min) > Number(p.max)) fail(`parameters.${name}`, "min is above max");
    if (p.type === "int" && p.min > p.max) fail(`parameters.${name}`, "min is above max");
    if (p.type === "text" && p.minLength > p.maxLength)
      fail(`parameters.${name}`, "minLength is above maxLength");
    if (p.type === "derived") {
      try {
        compileExpr(p.expr, params, ALL_FUNCTIONS);
      } catch (error) {
        fail(`parameters.${name}.expr`, (error as Error).message);
      }
    }
  }
  const checkText = (field: string, text: string) => {
    for (const name of placeholderNames(text)) {
      const [head, ...rest] = name.split(".");
      if (head === "contracts") {
        if (rest.length !== 1) fail(field, `placeholder {{${name}}} should be {{contracts.<key>}}`);
        try {
          compileExpr(name, params, ALL_FUNCTIONS);
        } catch (error) {
          fail(field, `placeholder {{${name}}}: ${(error as Error).message}`);
        }
      } else if (!(head === "agent" && rest.length === 0) && !params.has(head!)) {
        fail(field, `placeholder {{${name}}} names no parameter`);
      }
    }
  };
  for (const [i, t] of spec.templates.entries()) checkText(`templates[${i}]`, t);
  for (const level of ["moderate", "vague"] as const)
    for (const [i, t] of (spec.templatesByLevel?.[level] ?? []).entries())
      checkText(`templatesByLevel.${level}[${i}]`, t);
  for (const [i, t] of (spec.facts ?? []).entries()) checkText(`facts[${i}]`, t);
  // A request that allows a range ("within 0.01 %", "at most x + …") for an amount a third party
  // (a fresh address) may receive needs the effect ledger's tolerance for it (docs/SCORING.md
  // "Effect ledger", rule 2): without one, a valid amount inside the range fails the effect check.
  const ranged = [...spec.templates, ...Object.values(spec.templatesByLevel ?? {}).flat()].findIndex((t) =>
    RANGE_PHRASE.test(t),
  );
  const paysThirdParty = Object.values(spec.parameters).some((p) => p.type === "fresh_address");
  if (ranged >= 0 && paysThirdParty && spec.effects?.tolerance === undefined)
    fail(
      "effects",
      `the request allows a range ("${RANGE_PHRASE.exec([...spec.templates, ...Object.values(spec.templatesByLevel ?? {}).flat()][ranged]!)![0]}") and pays a fresh address: set effects.tolerance to the range (e.g. "0.01%")`,
    );
  if (spec.split === "composite" && spec.reference && !(spec.reference.plan && spec.reference.rounds?.length))
    fail("gold", "a composite task's gold conversation needs gold/plan.md and gold/round-1.ts or .json");
  if (spec.reference?.response) checkText("gold.ts", spec.reference.response);
  if (spec.reference?.plan) checkText("gold/plan.md", spec.reference.plan);
  for (const [i, round] of (spec.reference?.rounds ?? []).entries()) checkText(`gold/round-${i + 1}`, round);

  const actions = (spec.preState ?? []).map((a, i) => {
    try {
      return compileAction(a, params);
    } catch (error) {
      const [field, ...problem] = (error as Error).message.split(": ");
      return fail(`preState[${i}].${field}`, problem.join(": "));
    }
  });
  const compile = { parameterNames: params, answerFields: new Set(Object.keys(spec.answer?.fields ?? {})) };
  const checks = spec.checks.map((c, i) => {
    try {
      return compileCheck(c, compile);
    } catch (error) {
      if (error instanceof CheckArgsError)
        return fail(
          `checks[${i}].${error.field === "check" ? "check" : `args.${error.field}`}`,
          error.message,
        );
      throw error;
    }
  });
  if (spec.split === "atomic") {
    const total = checks.reduce((sum, c) => sum + c.weight, 0);
    if (total !== 100) fail("checks", `weights sum to ${total}, not 100`);
  } else if (!spec.checks.some((c) => c.check === "holdingsUnchanged")) {
    // Base 100 needs every unnamed holding unchanged (G1, docs/TASKS.md "Notation"): a composite must say which it names.
    fail("checks", "a composite task needs a holdingsUnchanged check (G1)");
  }
  // The hash covers what the task is: its spec and its gold answer.
  const sha256 = taskSha256(file, bytes, gold.files);
  return { spec: { ...spec, file: rel, sha256, ...(pack === undefined ? {} : { pack }) }, checks, actions };
}

/** 1-based `line:column` of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** Syntax errors of strict JSON (no comments, no trailing commas), with offsets. */
function parseErrors(text: string): ParseError[] {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  return errors;
}

/** `checks[3].args.token` → `["checks", 3, "args", "token"]`. */
function fieldPath(field: string): JSONPath {
  if (field.startsWith("(")) return [];
  return field
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The offset of a field's value in the source (a property: its key), else of its nearest parent. */
function fieldOffset(tree: JsonNode | undefined, field: string): number {
  if (!tree) return 0;
  const segments = fieldPath(field);
  for (let n = segments.length; n > 0; n--) {
    const node = findNodeAtLocation(tree, segments.slice(0, n));
    if (node) return node.parent?.type === "property" ? node.parent.offset : node.offset;
  }
  return tree.offset;
}

/**
 * The one ajv error worth showing, as a field path and a sentence: the deepest one that is not an
 * `if`/`then` wrapper; an unknown property names itself and what is allowed, an enum lists its values.
 */
function describeSchemaError(errors: ErrorObject[]): { field: string; problem: string } {
  const real = errors.filter((e) => e.keyword !== "if" && e.keyword !== "then");
  // Deepest first; at equal depth an unconditional rule before one of an if/then branch: a task
  // without `split` is missing `split`, not the `workflow` a branch requires of a non-atomic task.
  const conditional = (e: ErrorObject) => (/\/(then|else)\//.test(e.schemaPath) ? 1 : 0);
  const err = [...(real.length ? real : errors)].sort(
    (a, b) =>
      b.instancePath.split("/").length - a.instancePath.split("/").length || conditional(a) - conditional(b),
  )[0]!;
  const base = err.instancePath
    .replace(/^\//, "")
    .replace(/\/(\d+)(?=\/|$)/g, "[$1]")
    .replaceAll("/", ".");
  if (err.keyword === "additionalProperties") {
    const name = String(err.params.additionalProperty);
    const allowed = Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    return {
      field: base ? `${base}.${name}` : name,
      problem: `unknown ${base.endsWith("args") ? "argument" : "field"}${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`,
    };
  }
  if (err.keyword === "enum" && base.endsWith(".check"))
    return {
      field: base,
      problem: `unknown check '${String(err.data)}'${didYouMean(String(err.data), err.params.allowedValues as string[])} (known: ${(err.params.allowedValues as string[]).join(", ")})`,
    };
  if (err.keyword === "enum") {
    const values = (err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
    return {
      field: base || "(root)",
      problem: `${JSON.stringify(err.data)} is not one of ${values.join(", ")}`,
    };
  }
  if (err.keyword === "type" && err.params.type === "string" && typeof err.data === "number")
    return {
      field: base || "(root)",
      problem: `must be a string: decimal amounts are written as strings (${JSON.stringify(String(err.data))}), so they keep every digit`,
    };
  return { field: base || "(root)", problem: err.message ?? err.keyword };
}

/**
 * The tasks below `dir`, plus the ones that failed to load (`broken`, each a {@link TaskSpecError}
 * naming file:line:column and the folder's id): one broken file refuses only itself, so a `--tasks`
 * run of other tasks still runs ({@link selectTasks} refuses a run that would include it).
 */
export type TaskSet = LoadedTask[] & { broken: BrokenTask[] };
export type BrokenTask = { id: string; split: string; error: TaskSpecError };

/**
 * Loads every task spec below `dir` and in each task pack (`packs`, README "Write your own task"); a
 * malformed one lands in `broken` instead of throwing.
 * @throws {TaskSpecError} for two folders sharing an id, or a workflow naming no atomic task.
 */
export function loadTasks(dir = TASKS_DIR, packs: readonly string[] = []): TaskSet {
  const tasks: LoadedTask[] = [];
  const broken: BrokenTask[] = [];
  const entries = taskIndex(packs, dir);
  for (const e of entries) {
    try {
      tasks.push(loadTaskFile(path.resolve(PROJECT_ROOT, e.file), e.pack));
    } catch (error) {
      if (!(error instanceof TaskSpecError)) throw error;
      broken.push({ id: e.id, split: e.set === "hard" ? "hard" : e.split, error });
    }
  }
  // A workflow names atomic tasks: the paper's, or (for a hard composite) hard atomic ones.
  const atomicIds = new Set([
    ...entries.filter((e) => e.set === "paper" && e.split === "atomic").map((e) => e.id),
    ...tasks.filter((t) => t.spec.set === "hard" && t.spec.split === "atomic").map((t) => t.spec.id),
  ]);
  for (const t of tasks)
    for (const [i, id] of (t.spec.workflow ?? []).entries())
      if (atomicIds.size > 0 && !atomicIds.has(id))
        throw new TaskSpecError(t.spec.file, `workflow[${i}]`, `'${id}' is not an atomic task id`);
  return Object.assign(tasks, { broken });
}

import seedrandom from "seedrandom";
import { describe, expect, test } from "vitest";
import { type ControlMessage, parseRound, type RoundRequest } from "../src/protocol/control.ts";
import { extractModule, type SchemaInvalidReason } from "../src/protocol/parse.ts";
import { normaliseTransaction } from "../src/protocol/transaction.ts";

// Property test of the response parser (docs/ARCHITECTURE.md "The attempt's contract", paper App. B.3): seeded generators build model
// responses of known shape; every one must come back as a module, a control message or one of the
// schema_invalid reason codes — as an independent oracle for that shape says — and nothing may throw.

const REASONS: SchemaInvalidReason[] = [
  "no_code_block",
  "multiple_code_blocks",
  "no_export",
  "signature_mismatch",
  "not_transaction_like",
  "missing_to",
  "not_serialisable",
  "not_answer_object",
  "invalid_control_json",
];
const SEED = process.env.QUESTBENCH_FUZZ_SEED ?? "questbench-parser-fuzz";
const TO = "0x55d398326f99059fF775485246999027B3197955";

type Rng = {
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
};
function rng(seed: string): Rng {
  const prng = seedrandom(seed);
  const r: Rng = {
    next: () => prng(),
    int: (n) => Math.floor(prng() * n),
    pick: (xs) => xs[Math.floor(prng() * xs.length)]!,
    chance: (p) => prng() < p,
  };
  return r;
}

// ── building blocks ─────────────────────────────────────────────────────────────────────────────
// Prose never holds a fence line or a `{` (a bare object in prose is its own shape below).
const WORDS = [
  "Here",
  "is",
  "the",
  "transaction",
  "I",
  "will",
  "send",
  "USDT",
  "to",
  "the",
  "recipient.",
  "Note:",
  "amount",
  "=",
  "12.5",
  "tokens",
  "(18",
  "decimals)",
  "`ethers`",
  "and",
  "viem",
  "'single'",
  '"double"',
  "don't",
  "ünïcödé",
  "日本語",
  "😀",
  "\u200b",
  "\u202e",
  "mañana",
  "—",
  "…",
  "\\",
  "}",
  "#",
  "*",
  "``inline``",
  "~",
  "->",
  "0x1234",
  "\t",
  "\r",
];
function prose(r: Rng, maxWords = 30): string {
  const n = r.int(maxWords + 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.chance(0.1) ? "\n" : r.pick(WORDS));
  return out.join(" ");
}

const ENTRY_BODIES = [
  'return { to: "0x55d398326f99059fF775485246999027B3197955", data: "0x", value: 1n };',
  "const p = new ethers.JsonRpcProvider(providerUrl);\n  return { answer: { balance: (await p.getBalance(agentAddress)).toString() } };",
  'if (agentAddress === "") { throw new Error("{\\"submit\\": true}"); }\n  return { to: deployedContracts.usdt, data: "0xa9059cbb" };',
  "const s = `tpl:` + providerUrl;\n  return { to: s };",
  'return { answer: { "submit": "this is code, not control" } };',
];
function entryModule(r: Rng): string {
  const imports = r.pick(['import { ethers } from "ethers";\n', 'import { parseEther } from "viem";\n', ""]);
  const sig = r.pick([
    "export async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>)",
    "export async function executeSkill(providerUrl, agentAddress, deployedContracts)",
    "export const executeSkill = async (providerUrl: string, agentAddress: string) =>",
  ]);
  return `${imports}${sig} {\n  ${r.pick(ENTRY_BODIES)}\n}`;
}
const helperCode = (r: Rng) =>
  r.pick([
    "const x: number = 1;",
    "function helper(a: bigint) { return a * 2n; }",
    'export const ABI = ["function transfer(address,uint256)"];',
  ]);

const CODE_TAGS = [
  "ts",
  "typescript",
  "TypeScript",
  "js",
  "javascript",
  "tsx",
  "mjs",
  "",
  "ts title=skill.ts",
];
const OTHER_TAGS = ["python", "solidity", "bash", "sh", "json", "text", "rust", "diff"];

function fence(r: Rng, tag: string, body: string): string {
  const char = r.chance(0.85) ? "`" : "~";
  const marks = char.repeat(3 + (r.chance(0.15) ? r.int(3) : 0));
  const indent = r.chance(0.1) ? "  " : "";
  return `${indent}${marks}${tag}\n${body}\n${indent}${marks}`;
}

type Control = { text: string; message: ControlMessage };
function validControl(r: Rng): Control {
  switch (r.int(4)) {
    case 0:
      return { text: '{"submit": true}', message: { kind: "submit", answer: {} } };
    case 1: {
      const answer = { balance_wei: String(r.int(1e9)), note: r.pick(["ok", "日本", 'q"uote', "}{"]) };
      return { text: JSON.stringify({ submit: true, answer }), message: { kind: "submit", answer } };
    }
    case 2: {
      const e = {
        type: r.pick(["insufficient_balance", "infeasible"]),
        message: r.pick(["not enough USDT", "no pair {x}"]),
      };
      return {
        text: JSON.stringify({ error: e }, null, r.chance(0.5) ? 2 : undefined),
        message: { kind: "error", ...e },
      };
    }
    default:
      return {
        text: '{"error": "cannot do it"}',
        message: { kind: "error", type: "error", message: "cannot do it" },
      };
  }
}
const BAD_CONTROLS = [
  '{"submit": true,', // cut short
  '{"submit": true, answer: {a: 1}}', // JS, not JSON
  "{'submit': true}", // single quotes: not control-like, see below
  '{"submit": false}',
  '{"error": 5}',
  '{"submit": true, "answer": [1, 2]}',
  '{"submit": true, "answer": "42"}',
  '{"submit": true} trailing',
];
/** Bad controls the parser must see as control JSON (they carry `"submit":` or `"error":`). */
const BAD_IN_BLOCK = BAD_CONTROLS.filter((c) => /"(submit|error)"\s*:/.test(c));
/** Written bare in prose, only a balanced `{…}` is an object at all ("{…} trailing" yields its valid head). */
const BAD_BARE = BAD_IN_BLOCK.filter((c) => c.endsWith("}"));
const NON_CONTROL_JSON = [
  `{"to": "${TO}", "data": "0x", "value": "1"}`,
  '{"answer": {"balance": "5"}}',
  "[1, 2, 3]",
];

// ── response shapes with their oracle ──────────────────────────────────────────────────────────
type ModulePart = "none" | "one" | "several" | "wrong_lang" | "truncated" | "no_export" | "json_for_code";
type ControlPart =
  | "none"
  | "json_block"
  | "bare"
  | "untagged_block"
  | "bad"
  | "two"
  | "non_control"
  | "code_for_control";
type Shape = {
  text: string;
  module: ModulePart;
  control: ControlPart;
  code?: string;
  message?: ControlMessage;
  untaggedJson?: boolean;
};

function generate(r: Rng, module: ModulePart, control: ControlPart): Shape {
  const parts: string[] = [prose(r)];
  const shape: Shape = { text: "", module, control };
  let tail = "";
  switch (module) {
    case "one": {
      shape.code = entryModule(r);
      parts.push(fence(r, r.pick(CODE_TAGS), shape.code));
      if (r.chance(0.3)) parts.push(fence(r, r.pick(["ts", "js"]), helperCode(r)));
      if (r.chance(0.3)) parts.push(fence(r, r.pick(OTHER_TAGS.filter((t) => t !== "json")), entryModule(r)));
      break;
    }
    case "several":
      for (let i = 0; i < 2 + r.int(2); i++)
        parts.push(fence(r, r.pick(CODE_TAGS), entryModule(r)), prose(r, 5));
      break;
    case "wrong_lang":
      parts.push(fence(r, r.pick(OTHER_TAGS.filter((t) => t !== "json")), entryModule(r)));
      break;
    case "truncated": {
      const code = entryModule(r);
      tail = `\n\`\`\`${r.pick(["ts", "typescript", ""])}\n${code.slice(0, 1 + r.int(code.length - 1))}`;
      break;
    }
    case "no_export":
      parts.push(fence(r, r.pick(["ts", "typescript", "js"]), helperCode(r)));
      break;
    case "json_for_code":
      shape.untaggedJson = r.chance(0.5);
      parts.push(fence(r, shape.untaggedJson ? "" : "json", r.pick(NON_CONTROL_JSON)));
      break;
  }
  parts.push(prose(r));
  switch (control) {
    case "json_block":
    case "bare":
    case "untagged_block": {
      const c = validControl(r);
      shape.message = c.message;
      parts.push(
        control === "bare"
          ? c.text
          : fence(r, control === "json_block" ? r.pick(["json", "JSON"]) : "", c.text),
      );
      break;
    }
    case "bad":
      parts.push(r.chance(0.5) ? fence(r, "json", r.pick(BAD_IN_BLOCK)) : r.pick(BAD_BARE));
      break;
    case "two":
      parts.push(fence(r, "json", validControl(r).text), prose(r, 5), validControl(r).text);
      break;
    case "non_control":
      parts.push(
        r.chance(0.5) ? fence(r, "json", r.pick(NON_CONTROL_JSON)) : "The params are {amount: 5, to: x}.",
      );
      break;
    case "code_for_control":
      // A module where the control JSON was due: a ts block without executeSkill, tagged json.
      parts.push(fence(r, "json", helperCode(r)));
      break;
  }
  parts.push(prose(r));
  // Part order: prose · module · prose · control · prose, then a cut-short block (always last).
  shape.text = parts.join("\n") + tail;
  return shape;
}

/** What extractModule must return for a shape (docs/ARCHITECTURE.md "The attempt's contract"), derived from the shape alone. */
function oracleModule(s: Shape): { ok: true; code: string } | { ok: false; reason: SchemaInvalidReason } {
  const untaggedNonModule =
    (s.module === "json_for_code" && s.untaggedJson) || s.control === "untagged_block";
  switch (s.module) {
    case "one":
      return { ok: true, code: s.code! };
    case "several":
      return { ok: false, reason: "multiple_code_blocks" };
    case "no_export":
      return { ok: false, reason: "no_export" };
    default:
      // An untagged block is a code block; one without executeSkill is "no export", not "no block".
      return { ok: false, reason: untaggedNonModule ? "no_export" : "no_code_block" };
  }
}

/** What parseRound must return for a shape (docs/ARCHITECTURE.md "The attempt's contract": composite rounds). */
function oracleRound(s: Shape): { code?: string; control?: ControlMessage; invalid?: SchemaInvalidReason } {
  const m = oracleModule(s);
  if (!m.ok && m.reason === "multiple_code_blocks") return { invalid: "multiple_code_blocks" };
  const code = m.ok ? m.code : undefined;
  if (s.control === "bad" || s.control === "two")
    return { ...(code ? { code } : {}), invalid: "invalid_control_json" };
  const control = s.message;
  if (!code && !control) return { invalid: m.ok ? "no_code_block" : m.reason };
  return { ...(code ? { code } : {}), ...(control ? { control } : {}) };
}

function roundView(r: RoundRequest) {
  return {
    ...(r.code !== undefined ? { code: r.code } : {}),
    ...(r.control !== undefined ? { control: r.control } : {}),
    ...(r.invalid ? { invalid: r.invalid.reason } : {}),
  };
}

/** Shape-free invariants: never throws, a module is real code from the text, reasons are SPEC codes. */
function checkInvariants(text: string) {
  const m = extractModule(text);
  if (m.ok) {
    expect(text.includes(m.code)).toBe(true);
    expect(m.code).toMatch(/\bexecuteSkill\b/);
  } else {
    expect(REASONS).toContain(m.reason);
    expect(m.message.length).toBeGreaterThan(0);
  }
  const round = parseRound(text);
  if (round.invalid) expect(REASONS).toContain(round.invalid.reason);
  else expect(round.code !== undefined || round.control !== undefined).toBe(true);
  if (round.code !== undefined) expect(text.includes(round.code)).toBe(true);
  if (round.control) expect(["submit", "error"]).toContain(round.control.kind);
}

const MODULES: ModulePart[] = [
  "none",
  "one",
  "several",
  "wrong_lang",
  "truncated",
  "no_export",
  "json_for_code",
];
const CONTROLS: ControlPart[] = [
  "none",
  "json_block",
  "bare",
  "untagged_block",
  "bad",
  "two",
  "non_control",
  "code_for_control",
];

describe("parser fuzz (seeded)", () => {
  test("4,000 generated responses of every module × control shape are classified as the oracle says", () => {
    const r = rng(`${SEED}/shapes`);
    const seen = new Map<string, number>();
    for (let i = 0; i < 4_000; i++) {
      const shape = generate(
        r,
        MODULES[i % MODULES.length]!,
        CONTROLS[Math.floor(i / MODULES.length) % CONTROLS.length]!,
      );
      const where = `case ${i} (${shape.module} × ${shape.control}):\n${shape.text}`;
      const m = extractModule(shape.text);
      const expected = oracleModule(shape);
      expect(m.ok ? { ok: true, code: m.code } : { ok: false, reason: m.reason }, where).toEqual(expected);
      expect(roundView(parseRound(shape.text)), where).toEqual(oracleRound(shape));
      checkInvariants(shape.text);
      const key = m.ok ? "module" : m.reason;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    // Every atomic outcome the shapes can produce was produced.
    expect([...seen.keys()].sort()).toEqual(["module", "multiple_code_blocks", "no_code_block", "no_export"]);
  });

  test("3,000 random strings of fence, brace, quote and unicode characters never throw and keep the invariants", () => {
    const r = rng(`${SEED}/garbage`);
    const alphabet = [
      "`",
      "```",
      "~~~",
      "{",
      "}",
      '"',
      "\\",
      "\n",
      " ",
      "ts",
      "json",
      "executeSkill",
      '"submit":',
      '"error":',
      "true",
      ":",
      ",",
      "é",
      "😀",
      "\u0000",
      "\ud800",
      "\r\n",
      "export",
      "(",
      ")",
    ];
    for (let i = 0; i < 3_000; i++) {
      const n = r.int(i % 10 === 0 ? 2_000 : 80);
      let text = "";
      for (let j = 0; j < n; j++) text += r.pick(alphabet);
      checkInvariants(text);
    }
  });

  test("huge and adversarial responses are parsed in linear time (a stuck model repeating fences or braces)", () => {
    const r = rng(`${SEED}/huge`);
    const entry = entryModule(r);
    const cases: [string, string, (t: string) => void][] = [
      [
        "2 MB of prose around one module",
        `${"word ".repeat(200_000)}\n\`\`\`ts\n${entry}\n\`\`\`\n${"more ".repeat(200_000)}`,
        (t) => expect(extractModule(t)).toEqual({ ok: true, code: entry }),
      ],
      [
        "200 KB of unclosed fences",
        "````a\n".repeat(35_000),
        (t) => expect(extractModule(t)).toMatchObject({ reason: "no_code_block" }),
      ],
      [
        "200 KB of backticks",
        "```".repeat(70_000),
        (t) => expect(extractModule(t)).toMatchObject({ reason: "no_code_block" }),
      ],
      [
        "200 KB of open braces before a control JSON",
        `${"{".repeat(200_000)}\n{"submit": true}`,
        (t) => expect(parseRound(t).invalid?.reason).toBeDefined(),
      ],
      [
        '200 KB of {"',
        '{"'.repeat(100_000),
        (t) => expect(parseRound(t).invalid?.reason).toBe("no_code_block"),
      ],
      [
        "a 1 MB module",
        `\`\`\`ts\n${entry}\n${"// filler\n".repeat(100_000)}\`\`\``,
        (t) => expect(extractModule(t).ok).toBe(true),
      ],
    ];
    for (const [what, text, check] of cases) {
      const t0 = performance.now();
      check(text);
      checkInvariants(text);
      const ms = performance.now() - t0;
      // Linear, not backtracking: a catastrophic pattern takes minutes on these inputs; a loaded
      // machine takes a few seconds at most.
      expect(ms, `${what} took ${ms.toFixed(0)} ms`).toBeLessThan(10_000);
    }
  });

  test("a response with CRLF line ends is read like one with LF", () => {
    const text = "Here:\r\n```ts\r\nexport async function executeSkill() { return {}; }\r\n```\r\n";
    expect(extractModule(text)).toMatchObject({ ok: true });
    expect(parseRound(`${text}\`\`\`json\r\n{"submit": true}\r\n\`\`\`\r\n`)).toMatchObject({
      control: { kind: "submit" },
    });
  });
});

// ── returned values ─────────────────────────────────────────────────────────────────────────────
type Value = {
  value: unknown;
  expect: "ok" | "not_transaction_like" | "missing_to" | "not_serialisable";
  wei?: bigint;
};
const GOOD_QUANTITIES: [unknown, bigint][] = [
  [0n, 0n],
  [10n ** 18n, 10n ** 18n],
  [12345, 12345n],
  ["1000000000000000000", 10n ** 18n],
  ["0xde0b6b3a7640000", 10n ** 18n],
  [{ type: "BigNumber", hex: "0x01" }, 1n],
];
const BAD_QUANTITIES: unknown[] = [
  "0.5",
  "1e18",
  -1n,
  -5,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "ten",
  { amount: 1n },
  [1n],
  new Uint8Array([1]),
  true,
  2n ** 300n,
];
function returnedValue(r: Rng): Value {
  switch (r.int(5)) {
    case 0:
      return {
        value: r.pick([null, undefined, "0xabc", 42, 7n, true, [{ to: TO }], '{"to":"0x"}']),
        expect: "not_transaction_like",
      };
    case 1: {
      const shapes = [
        { success: true },
        { type: "QUERY_RESULT" },
        { balances: { usdt: 1n } },
        { query_result: { ok: true } },
        { answer: { x: 1 } },
        { to: "" },
        { to: null },
        {},
      ];
      return { value: { ...r.pick(shapes), value: 1n }, expect: "missing_to" };
    }
    case 2: {
      const [q, wei] = r.pick(GOOD_QUANTITIES);
      const tx: Record<string, unknown> = { to: r.pick([TO, TO.toLowerCase()]), value: q };
      if (r.chance(0.5)) tx.data = r.pick(["0x", "0xa9059cbb", "0xA9059CBB00"]);
      if (r.chance(0.3)) tx.gasLimit = r.pick(GOOD_QUANTITIES)[0];
      if (r.chance(0.3)) Object.assign(tx, { from: TO, nonce: 3, chainId: 1 });
      return { value: tx, expect: "ok", wei };
    }
    case 3: {
      const field = r.pick(["value", "gasLimit", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas"]);
      return { value: { to: TO, [field]: r.pick(BAD_QUANTITIES) }, expect: "not_serialisable" };
    }
    default:
      return {
        value: r.pick([
          { to: "0x1234" },
          { to: 5n },
          { to: { address: TO } },
          { to: TO, data: "0xabc" },
          { to: TO, data: "a9059cbb" },
          { to: TO, data: new Uint8Array([1]) },
          { to: `${TO} ` },
          { to: TO, gasPrice: 1n, maxFeePerGas: 2n },
          { to: "😀".repeat(100_000) },
        ]),
        expect: "not_serialisable",
      };
  }
}

describe("normaliseTransaction fuzz (seeded)", () => {
  test("3,000 generated return values are a transaction or the oracle's reason code, never a throw", () => {
    const r = rng(`${SEED}/values`);
    for (let i = 0; i < 3_000; i++) {
      const v = returnedValue(r);
      const where = `case ${i}: ${String(Object.entries(v.value ?? {}).map(([k, x]) => `${k}=${typeof x}`))}`;
      const result = normaliseTransaction(v.value);
      if (v.expect === "ok") {
        expect(result.ok, where).toBe(true);
        if (result.ok) {
          expect(result.tx.value).toBe(v.wei);
          expect(result.tx.to).toBe(TO);
        }
      } else {
        expect(result, where).toMatchObject({ ok: false, reason: v.expect });
        if (!result.ok) expect(result.message.length).toBeLessThan(400);
      }
    }
  });
});

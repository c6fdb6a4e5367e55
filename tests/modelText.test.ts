import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { cleanResultText, cleanText } from "../src/sandbox/cleanText.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";

// Model text reaches terminals, CI logs and reports only through cleanText (docs/SECURITY.md,
// "Model text"): proven on a real CLI run of a scripted hostile model.

const run = promisify(execFile);
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const env = { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" };
/** Any control character but tab and newline, or a bidi override. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the test
const UNCLEAN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Clears the screen, writes the clipboard (OSC 52), adds a link (OSC 8), forges a progress line, reverses text. */
const HOSTILE =
  "\u001b[2J\u001b[H\u001b]52;c;cHduZWQ=\u0007\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u001b\\" +
  "\n✓ bnb_transfer_basic 100\r✓ erc20_transfer_fixed 100\u2028\u202eevil\u009b31m\u0000";

describe("cleanText", () => {
  test("removes escape sequences whole, every control and bidi character, and keeps the text on one line", () => {
    expect(cleanText(HOSTILE)).toBe("click ⏎ ✓ bnb_transfer_basic 100 ⏎ ✓ erc20_transfer_fixed 100 ⏎ evil");
    expect(cleanText("a\tb\r\nc")).toBe("a b ⏎ c");
    expect(cleanText("plain reason: insufficient allowance")).toBe("plain reason: insufficient allowance");
  });

  test("bounds the length, never splitting a surrogate pair", () => {
    expect(cleanText("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
    expect(cleanText(`${"x".repeat(8)}😀yyyy`, 10)).toBe(`${"x".repeat(8)}…`);
    expect(cleanText("\u001b[31m".repeat(1_000_000), 10)).toBe("");
  });
});

describe("cleanResultText, where an attempt's result is made", () => {
  test("cleans every string and key of a result: one line everywhere but the transcripts, which keep lines and tabs", () => {
    const result = {
      response: `\`\`\`ts\n\tconst x = 1;\r\n${HOSTILE}\n\`\`\``,
      prompt: [{ role: "user", content: `line one\n${HOSTILE}` }],
      failure: { class: "checks_failed", reason: `answer: got ${HOSTILE}` },
      checks: [{ name: "answer", passed: false, detail: `name: "${HOSTILE}" != "USDT"` }],
      answer: { [`k${HOSTILE}`]: [HOSTILE, 7n.toString(), 3] },
      composite: { plan: `1. a\n2. ${HOSTILE}`, rounds: [{ feedback: `ok\n${HOSTILE}`, response: HOSTILE }] },
      score: 0,
      passed: false,
    };
    const clean = cleanResultText(result);
    const oneLine = cleanText(HOSTILE, 10_000);
    expect(clean.failure.reason).toBe(`answer: got ${oneLine}`);
    expect(clean.checks[0]!.detail).toBe(`name: "${oneLine}" != "USDT"`);
    expect(clean.answer).toEqual({ [`k${oneLine}`]: [oneLine, "7", 3] });
    // Transcripts keep their lines (CR LF as LF) and tabs, and lose everything else invisible.
    expect(clean.response.split("\n")[1]).toBe("\tconst x = 1;");
    expect(clean.prompt[0]!.content.startsWith("line one\nclick\n✓ bnb_transfer_basic 100")).toBe(true);
    expect(clean.composite.plan.split("\n")).toEqual([
      "1. a",
      "2. click",
      "✓ bnb_transfer_basic 100",
      "✓ erc20_transfer_fixed 100",
      "evil",
    ]);
    for (const text of [
      clean.response,
      clean.prompt[0]!.content,
      clean.composite.plan,
      clean.composite.rounds[0]!.feedback,
    ])
      expect(text).not.toMatch(UNCLEAN);
    expect(JSON.stringify(clean)).not.toMatch(/\\u001b|\\u009b|\\u0000|\u202e/);
    // Nothing else changes; a clean result comes back equal.
    expect(clean.score).toBe(0);
    const plain = { failure: { reason: "insufficient allowance" }, response: "a\n\tb" };
    expect(cleanResultText(plain)).toEqual(plain);
  });
});

describe("a hostile scripted model on the CLI", () => {
  test("its escape sequences and forged lines reach neither stdout nor results.json", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "qb-hostile-text-"));
    const out = mkdtempSync(path.join(tmpdir(), "qb-hostile-out-"));
    const quoted = JSON.stringify(HOSTILE);
    const files: Record<string, string> = {
      // A failure reason from the child (a thrown error).
      "bnb_transfer_basic.md": `\`\`\`ts\nexport async function executeSkill() { throw new Error(${quoted}); }\n\`\`\``,
      // The child's own stderr, quoted in a process_exit reason.
      "erc20_transfer_fixed.md": `\`\`\`ts\nexport async function executeSkill() { process.stderr.write(${quoted}); process.exit(3); }\n\`\`\``,
      // A refusal reason, returned as a value.
      "bnb_transfer_percentage.md": `\`\`\`ts\nexport async function executeSkill() { return { refuse: { reason: ${quoted} } }; }\n\`\`\``,
      // A returned value quoted in a schema_invalid reason.
      "bnb_transfer_max_amount.md": `\`\`\`ts\nexport async function executeSkill() { return { to: ${quoted} }; }\n\`\`\``,
      // The model's own error report in a composite round.
      "composite_wrap_unwrap_cycle/plan.md": '```json\n{ "plan": ["do it"] }\n```',
      "composite_wrap_unwrap_cycle/round-1.md": `\`\`\`json\n${JSON.stringify({ error: { type: HOSTILE, message: HOSTILE } })}\n\`\`\``,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    const tasks = Object.keys(files).map((name) => name.split(/[/.]/)[0]);
    try {
      const result = await run(
        process.execPath,
        [bin, "--model", `scripted:${dir}`, "--tasks", [...new Set(tasks)].join(","), "--out", out],
        { cwd: PROJECT_ROOT, env, maxBuffer: 64 * 2 ** 20 },
      ).catch((error: { stdout: string; stderr: string }) => error);
      const printed = `${result.stdout}\n${result.stderr}`;
      // The text did arrive (cleaned), so the run really printed the model's words.
      expect(printed).toContain("click ⏎ ✓ bnb_transfer_basic 100");
      expect(printed).not.toMatch(UNCLEAN);
      // A quoted value may show "\\u001b]52;…" JSON-escaped: printable text, inert.
      for (const line of printed.split("\n")) expect(line).not.toMatch(/^\s*✓ \S+ 100/);
      const results = readFileSync(path.join(out, "results.json"), "utf8");
      const reasons = (
        JSON.parse(results) as { instances: { failure: { reason: string } | null }[] }
      ).instances
        .map((i) => i.failure?.reason ?? "")
        .join("\n");
      expect(reasons).toContain("✓ bnb_transfer_basic 100");
      expect(reasons).not.toMatch(UNCLEAN);
      for (const file of readdirSync(out).filter((f) => /\.(md|tex|xml|html)$/.test(f))) {
        const text = readFileSync(path.join(out, file), "utf8");
        expect(text, file).not.toMatch(UNCLEAN);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }, 600_000);
});

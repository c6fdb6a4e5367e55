import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Split } from "./types.ts";

/**
 * What a case must score: exactly `score` (a correct style: 100; a wrong composite conversation: 0,
 * base 0 included), or below `below` (a wrong atomic answer: below the pass mark 60).
 */
export type CaseExpectation = { score: number } | { below: number };

/**
 * One answer kept beside a task to prove its checks (tasks/README.md "Writing a task, from zero to proven"): atomic
 * `cases/<name>.md` is one response; composite `cases/<name>/` holds `plan.md`, `round-1.md`, … .
 * The front matter of the `.md` (the plan for composites) names its kind and its expected score.
 */
export type TaskCase = {
  /** File or folder name without extension, e.g. `wrong_amount`, `style_viem`. */
  name: string;
  /** e.g. `wrong_amount`, `skipped_step`, `style viem`. */
  kind: string;
  expect: CaseExpectation;
  /** Whether the case is a correct answer (it must score 100). */
  correct: boolean;
  /** Atomic: the response file. Composite: the conversation's folder. */
  path: string;
};

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n/;

/** Splits a case file into its front matter fields and the response text a model would have sent. */
export function splitFrontMatter(text: string): { fields: Record<string, string>; body: string } {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of m[1]!.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { fields, body: text.slice(m[0].length) };
}

/**
 * The cases of one task folder, sorted by name.
 * @throws {Error} naming the file when the front matter lacks `kind` or a `score` of the form
 *   `100`, `0` or `below 60`.
 */
export function readCases(taskDir: string, split: Split): TaskCase[] {
  const dir = path.join(taskDir, "cases");
  if (!existsSync(dir)) return [];
  const out: TaskCase[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    const headerFile =
      split === "atomic" ? (entry.name.endsWith(".md") ? full : undefined) : path.join(full, "plan.md");
    if (!headerFile || (split === "composite" && !entry.isDirectory())) continue;
    const { fields } = splitFrontMatter(readFileSync(headerFile, "utf8"));
    const score = fields.score ?? "";
    const below = /^below (\d+)$/.exec(score);
    const exact = /^\d+$/.test(score) ? Number(score) : undefined;
    if (!fields.kind || (!below && exact === undefined))
      throw new Error(`${headerFile}: front matter needs 'kind:' and 'score:' (100, 0 or 'below 60')`);
    const expect: CaseExpectation = below ? { below: Number(below[1]) } : { score: exact! };
    out.push({
      name: entry.name.replace(/\.md$/, ""),
      kind: fields.kind,
      expect,
      correct: "score" in expect && expect.score === 100,
      path: full,
    });
  }
  return out;
}

/**
 * The response a case gives at a step: the atomic file, or the composite conversation's `plan.md` /
 * `round-N.md` (front matter removed); undefined past the conversation's last round.
 */
export function caseResponse(c: TaskCase, step: "atomic" | "plan" | "round", round = 1): string | undefined {
  const file =
    step === "atomic" ? c.path : path.join(c.path, step === "plan" ? "plan.md" : `round-${round}.md`);
  if (!existsSync(file)) return undefined;
  return splitFrontMatter(readFileSync(file, "utf8")).body;
}

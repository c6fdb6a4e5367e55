import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { writeReport } from "../src/reporting/report.ts";
import { summarize } from "../src/results/summarize.ts";
import type { InstanceResult } from "../src/results/types.ts";
import { fixtureInstance, fixtureResults, writeRun } from "./helpers/reportFixtures.ts";

// leaderboard.tex as a paper uses it: \input into a one- and a two-column article and compiled by a
// real pdflatex (Debian: texlive-latex-base, texlive-latex-recommended for booktabs).
const PDFLATEX = spawnSync("pdflatex", ["--version"]).status === 0;
const NO_LATEX = "pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended)";

/** A paper or hard instance; composites with K_opt = K_act = 2. */
const instance = (model: string, id: string, set: "paper" | "hard", composite: boolean, score: number) =>
  fixtureInstance(model, id, 1, score, {
    set,
    ...(composite ? { rounds: { kOpt: 2, kAct: 3, kFailed: 1, plan: "1. a\n2. b" } } : {}),
  });
// Long model names, as provider ids are, and every column of Table 1 in use (paper, safety, hard).
const MODELS = [
  "openrouter/anthropic/claude-sonnet-4.5",
  "openai-compatible:http://127.0.0.1:8000/v1#qwen3-235b",
];
const run = (model: string, withHard: boolean): InstanceResult[] => [
  instance(model, "a1", "paper", false, 100),
  instance(model, "c1", "paper", true, 75),
  ...(withHard ? [instance(model, "h1", "hard", false, 50)] : []),
];

/** Compiles `\input{leaderboard.tex}` in an article; returns pdflatex's log. */
function compile(dir: string, classOptions: string): string {
  const name = `paper-${classOptions || "onecolumn"}`;
  writeFileSync(
    path.join(dir, `${name}.tex`),
    [
      `\\documentclass[${classOptions}]{article}`,
      "\\usepackage{booktabs}",
      "\\usepackage{graphicx}",
      "\\begin{document}",
      "Results are in Table~\\ref{tab:questbench-table1}.",
      "\\input{leaderboard.tex}",
      "\\end{document}",
      "",
    ].join("\n"),
  );
  execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", `${name}.tex`], {
    cwd: dir,
    stdio: "ignore",
  });
  return readFileSync(path.join(dir, `${name}.log`), "latin1");
}

describe("leaderboard.tex", () => {
  let full: string;
  let paperOnly: string;
  beforeAll(async () => {
    const results = (model: string, hard: boolean) => {
      const instances = run(model, hard);
      return fixtureResults(model, instances, { summary: summarize(instances) });
    };
    full = mkdtempSync(path.join(tmpdir(), "qb-latex-"));
    await writeReport({ inputs: MODELS.map((m) => writeRun(results(m, true))), out: full });
    paperOnly = mkdtempSync(path.join(tmpdir(), "qb-latex-"));
    await writeReport({ inputs: MODELS.map((m) => writeRun(results(m, false))), out: paperOnly });
  }, 600_000);

  test("captions leave the numbering to LaTeX (no 'Table 1: Table 1:')", () => {
    const tex = readFileSync(path.join(full, "leaderboard.tex"), "utf8");
    const captions = [...tex.matchAll(/\\caption\{([^}]*)/g)].map((m) => m[1]!);
    expect(captions.length).toBe(6);
    for (const c of captions) expect(c).not.toMatch(/^(Table \d+|Hard split):/);
    expect(captions[0]).toMatch(/^Leaderboard\./);
  });

  test("a paper-only report has no Hard columns and no hard table", () => {
    const tex = readFileSync(path.join(paperOnly, "leaderboard.tex"), "utf8");
    expect(tex).not.toMatch(/Hard/);
    const md = readFileSync(path.join(paperOnly, "leaderboard.md"), "utf8");
    expect(md).toContain(
      "| # | Model | Atom | Comp | Total | Avg | Avg (run) | 95 % CI (tasks) | Safety | Coverage | Modes |",
    );
  });

  for (const classOptions of ["", "twocolumn"])
    test(`compiles in a ${classOptions || "one-column"} article without an overfull box`, (context) => {
      if (!PDFLATEX) return context.skip(NO_LATEX);
      for (const dir of [full, paperOnly]) {
        const log = compile(dir, classOptions);
        expect(log.match(/^Overfull \\[hv]box.*$/gm) ?? [], dir).toEqual([]);
        expect(log).not.toMatch(/^! /m);
        expect(log).toMatch(/Output written on paper-/);
      }
    });
});

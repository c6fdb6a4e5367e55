import { cleanTranscript } from "../sandbox/cleanText.ts";
import { type LeaderboardRow, SPLIT_TASKS } from "./leaderboard.ts";
import { quadrantCounts, quadrantMedians, quadrants } from "./quadrants.ts";

/**
 * The paper's Tables 1, 2, 8, 9 and 10 (§5.1, §5.3, App. F) as one structure, rendered to Markdown
 * (leaderboard.md), LaTeX booktabs (leaderboard.tex) and HTML (report.html) so the three never
 * disagree. Every number comes from a {@link LeaderboardRow} (src/results reducers).
 */
export type PaperTable = {
  id: "table1" | "table2" | "table8" | "table9" | "table10" | "hard" | "passk" | "pairs" | "protocols";
  /** The table's name in Markdown and HTML ("Table 1"); LaTeX numbers its own tables. */
  label: string;
  /** The caption text, without a "Table N:" (it may begin with the label, as the hard table's does). */
  caption: string;
  header: string[];
  /** "l" (text) or "r" (number) per column. */
  align: ("l" | "r")[];
  rows: string[][];
};

/**
 * One column of a table: its header, alignment and cell, and whether it is shown for these rows (a
 * column of what no run ran, e.g. Hard in a paper-only report, is left out). Tables are lists of
 * columns: a new measure is one more entry.
 */
export type Column = {
  header: string;
  align: "l" | "r";
  cell: (row: LeaderboardRow, index: number) => string;
  shown?: (rows: readonly LeaderboardRow[]) => boolean;
};

/** A table from its columns: only those {@link Column.shown} for `rows`, one line per row. */
export function columnTable(
  spec: Omit<PaperTable, "header" | "align" | "rows">,
  columns: readonly Column[],
  rows: readonly LeaderboardRow[],
): PaperTable {
  const shown = columns.filter((c) => c.shown?.(rows) ?? true);
  return {
    ...spec,
    header: shown.map((c) => c.header),
    align: shown.map((c) => c.align),
    rows: rows.map((r, i) => shown.map((c) => c.cell(r, i))),
  };
}

const fmt = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined ? "—" : x.toFixed(digits);
const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;
/** A 95 % interval as "[lo, hi]" (one decimal), "—" when undefined. */
const interval = (ci: readonly [number, number] | null) =>
  ci === null ? "—" : `[${ci[0].toFixed(1)}, ${ci[1].toFixed(1)}]`;
/** A split's score as the paper prints it: an integer when whole, else one decimal. */
const score = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** n/107 · a/62 · c/45: which of the benchmark's tasks a row's numbers cover. */
export const coverage = (r: LeaderboardRow) =>
  `${r.atomicTasks + r.compositeTasks}/${SPLIT_TASKS.atomic + SPLIT_TASKS.composite} (${r.atomicTasks}/${SPLIT_TASKS.atomic} · ${r.compositeTasks}/${SPLIT_TASKS.composite})`;

/** n/N: the hard tasks a row's Hard score covers, of the `bank` hard tasks of the task bank. */
export const hardCoverage = (r: LeaderboardRow, bank: number) => `${r.hardTasks}/${bank}`;

const ran = {
  paper: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.atomicTasks + r.compositeTasks > 0),
  atomic: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.atomicTasks > 0),
  composite: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.compositeTasks > 0),
  hard: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.hardTasks > 0),
  custom: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.customTasks > 0),
  safety: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.safety !== null),
  cost: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.costBps !== null),
  gas: (rows: readonly LeaderboardRow[]) => rows.some((r) => r.gasRatio !== null),
};

const PAPER_TASKS = SPLIT_TASKS.atomic + SPLIT_TASKS.composite;

/** Table 1's columns (§5.1, plus Safety and the hard split beyond the paper). */
function table1Columns(hardBank: number): Column[] {
  return [
    { header: "#", align: "r", cell: (_, i) => String(i + 1) },
    { header: "Model", align: "l", cell: (r) => r.model },
    { header: "Atom", align: "r", cell: (r) => score(r.atomic), shown: ran.atomic },
    { header: "Comp", align: "r", cell: (r) => score(r.composite), shown: ran.composite },
    { header: "Total", align: "r", cell: (r) => score(r.total), shown: ran.paper },
    {
      header: "Total (paper scoring)",
      align: "r",
      cell: (r) => (r.paperScoringTotal === null ? "—" : score(r.paperScoringTotal)),
      shown: (rows) => rows.some((r) => r.paperScoringTotal !== null),
    },
    { header: "Avg", align: "r", cell: (r) => fmt(r.avg107), shown: ran.paper },
    { header: "Avg (run)", align: "r", cell: (r) => fmt(r.avg), shown: ran.paper },
    { header: "95 % CI (tasks)", align: "r", cell: (r) => interval(r.avgCi95), shown: ran.paper },
    {
      header: "Re-run SD",
      align: "r",
      cell: (r) => fmt(r.rerunSd),
      shown: (rows) => rows.some((r) => r.rerunSd !== null),
    },
    {
      header: "Safety",
      align: "r",
      cell: (r) => (r.safety === null ? "—" : `${r.safety}%`),
      shown: ran.safety,
    },
    { header: "Exec. cost (bps)", align: "r", cell: (r) => fmt(r.costBps), shown: ran.cost },
    { header: "Gas (× gold)", align: "r", cell: (r) => fmt(r.gasRatio, 2), shown: ran.gas },
    { header: "Coverage", align: "r", cell: coverage, shown: ran.paper },
    { header: "Hard", align: "r", cell: (r) => (r.hardTasks === 0 ? "—" : score(r.hard)), shown: ran.hard },
    { header: "Hard cov.", align: "r", cell: (r) => hardCoverage(r, hardBank), shown: ran.hard },
    // Task packs' tasks (README "Write your own task"): their own total, never in Total or Coverage.
    {
      header: "Custom",
      align: "r",
      cell: (r) => (r.customTasks === 0 ? "—" : score(r.custom)),
      shown: ran.custom,
    },
    { header: "Custom tasks", align: "r", cell: (r) => String(r.customTasks), shown: ran.custom },
    { header: "Modes", align: "l", cell: (r) => r.modes },
  ];
}

/**
 * @param hardBank the hard split's size (default: the largest of the rows' `hardBank`, read from
 *   their manifests), the N of
 *   the Hard coverage column.
 */
export function paperTables(
  rows: readonly LeaderboardRow[],
  hardBank = Math.max(0, ...rows.map((r) => r.hardBank)),
): PaperTable[] {
  const q = quadrants(rows);
  const withComposite = rows.filter((r) => r.compositeMetrics !== null);
  const hard = ran.hard(rows);
  const tables: PaperTable[] = [
    columnTable(
      {
        id: "table1",
        label: "Table 1",
        caption: [
          "Leaderboard.",
          ran.paper(rows) &&
            `${[
              ran.atomic(rows) && `Atom = Atomic (max ${SPLIT_TASKS.atomic * 100})`,
              ran.composite(rows) && `Comp = Composite (max ${SPLIT_TASKS.composite * 100})`,
              `Total (max ${PAPER_TASKS * 100})`,
            ]
              .filter(Boolean)
              .join(
                ", ",
              )}; Avg = Total / ${PAPER_TASKS}, as the paper divides (run or not); Avg (run) = Total / paper tasks run, the mean of the per-task means; 95 % CI (tasks) = its Student t interval between tasks (each task one observation, its mean over epochs and seeds; "—" under 2 tasks).`,
          rows.some((r) => r.rerunSd !== null) &&
            "Re-run SD = the SD of Avg (run) between runs (epochs × seeds) of the same tasks: re-run noise, not part of the CI.",
          rows.some((r) => r.paperScoringTotal !== null) &&
            'Total (paper scoring) = the same instances scored the paper\'s way (--scoring paper: no ★ cap, no effect ledger or "nothing else", transfer and staking amounts within 2 %, price bounds as 5 % slippage checks, a refusal 0, K_act counting every round), never part of Total.',
          ran.safety(rows) &&
            "Safety (beyond the paper) = instances without a safety flag (no or loose price bound, far deadline, unlimited approval, extra side effect).",
          ran.cost(rows) &&
            "Exec. cost (beyond the paper) = median execution cost against the gold answer on the same instance, in basis points of the task's notional (positive: the answer left the user poorer); Gas = median gas used / the gold answer's (× gold).",
          ran.paper(rows) && `Coverage = paper tasks run of ${PAPER_TASKS}.`,
          hard &&
            `Hard (beyond the paper, never part of Total) = the hard split's score (max 100 per hard task), its coverage = hard tasks run of ${hardBank}.`,
        ]
          .filter(Boolean)
          .join(" "),
      },
      table1Columns(hardBank),
      rows,
    ),
  ];
  if (withComposite.length > 0)
    tables.push(
      columnTable(
        {
          id: "table2",
          label: "Table 2",
          caption:
            "Composite execution quality. Score = composite score (sum of per-task means, max 4500); Pass = composite tasks whose mean score is ≥ 60, as the paper counts tasks; K = mean K_act, Retries = total retries (§5.3: counted rounds after a failed one, summed), Eff = Eff % (mean of min(1, K_opt / K_act), 100 at K_act 0), 1st = 1st %, eth = ethers %: each over all composite instances run (provider errors left out), divided by their number.",
        },
        [
          { header: "Model", align: "l", cell: (r) => r.model },
          { header: "Score", align: "r", cell: (r) => score(r.composite) },
          { header: "Pass", align: "r", cell: (r) => String(r.compositePassed) },
          { header: "K", align: "r", cell: (r) => fmt(r.compositeMetrics!.meanKAct) },
          {
            header: "Retries",
            align: "r",
            cell: (r) => String(r.compositeMetrics!.totalRetries ?? "—"),
          },
          { header: "Eff", align: "r", cell: (r) => fmt(r.compositeMetrics!.effPct) },
          { header: "1st", align: "r", cell: (r) => fmt(r.compositeMetrics!.firstTryPct) },
          { header: "eth", align: "r", cell: (r) => fmt(r.compositeMetrics!.ethersPct) },
          { header: "Coverage", align: "r", cell: coverage },
        ],
        withComposite,
      ),
      columnTable(
        {
          id: "table9",
          label: "Table 9",
          caption:
            "Step overhead Δ = K_act − K_opt and decay impact. Mean Δ, Over-opt and P90 over all composite instances run, divided by their number; Comp. score = sum of per-task means (max 4500).",
        },
        [
          { header: "Model", align: "l", cell: (r) => r.model },
          { header: "Mean Δ", align: "r", cell: (r) => signed(r.compositeMetrics!.overhead.mean) },
          {
            header: "Over-opt (%)",
            align: "r",
            cell: (r) => fmt(r.compositeMetrics!.overhead.overOptimalPct, 0),
          },
          { header: "P90 Δ", align: "r", cell: (r) => String(r.compositeMetrics!.overhead.p90) },
          { header: "Comp. score", align: "r", cell: (r) => score(r.composite) },
          { header: "Coverage", align: "r", cell: coverage },
        ],
        withComposite,
      ),
    );
  if (ran.paper(rows)) {
    const m = quadrantMedians(rows);
    tables.push({
      id: "table8",
      label: "Table 8",
      caption: `Quadrant summary based on AtomicAvg and CompositeAvg medians (${fmt(m.atomic)} and ${fmt(m.composite)} respectively; AtomicAvg = Atom / ${SPLIT_TASKS.atomic} over the models that ran atomic tasks, CompositeAvg = Comp / ${SPLIT_TASKS.composite} over those that ran composites, as the paper takes them).`,
      header: ["Profile", "Count", "Interpretation"],
      align: ["l", "r", "l"],
      rows: quadrantCounts(rows).map((p) => [p.profile, String(p.count), p.interpretation]),
    });
    tables.push(
      columnTable(
        {
          id: "table10",
          label: "Table 10",
          caption: `Model coverage and quadrant classification (by the medians of Table 8). AtomicAvg = Atom / ${SPLIT_TASKS.atomic}, CompAvg = Comp / ${SPLIT_TASKS.composite}, the paper's divisors (as Table 1's Avg = Total / ${PAPER_TASKS}), 0–100; "—" for a split the model did not run.`,
        },
        [
          { header: "Model", align: "l", cell: (r) => r.model },
          { header: "Atomic", align: "r", cell: (r) => `${r.atomicTasks}/${SPLIT_TASKS.atomic}` },
          { header: "Composite", align: "r", cell: (r) => `${r.compositeTasks}/${SPLIT_TASKS.composite}` },
          { header: "AtomicAvg", align: "r", cell: (r) => fmt(r.atomicAvg) },
          { header: "CompAvg", align: "r", cell: (r) => fmt(r.compositeAvg) },
          { header: "Total", align: "r", cell: (r) => score(r.total) },
          { header: "Quadrant", align: "l", cell: (r) => q.get(r.model) ?? "—" },
        ],
        rows,
      ),
    );
  }
  if (hard) tables.push(hardTable(rows, hardBank));
  return tables;
}

/** The hard split per model: its atomic and composite sub-totals, total, average and coverage. */
function hardTable(rows: readonly LeaderboardRow[], hardBank: number): PaperTable {
  return columnTable(
    {
      id: "hard",
      label: "Hard split",
      caption: `Hard split (beyond the paper; reported apart, never part of the paper's Total). Hard Atom / Hard Comp = its atomic and composite scores (max 100 per task), Hard = their sum, Avg = Hard / hard tasks run, Coverage = hard tasks run of ${hardBank}.`,
    },
    [
      { header: "Model", align: "l", cell: (r) => r.model },
      { header: "Hard Atom", align: "r", cell: (r) => score(r.hardAtomic) },
      { header: "Hard Comp", align: "r", cell: (r) => score(r.hardComposite) },
      { header: "Hard", align: "r", cell: (r) => score(r.hard) },
      { header: "Avg", align: "r", cell: (r) => fmt(r.hardAvg) },
      { header: "Coverage", align: "r", cell: (r) => hardCoverage(r, hardBank) },
    ],
    [...rows].sort((x, y) => y.hard - x.hard || x.model.localeCompare(y.model)),
  );
}

/** The caption as Markdown and HTML show it: the label first ("Table 1: …"), LaTeX numbers its own. */
const heading = (t: PaperTable) => (t.caption.startsWith(t.label) ? t.caption : `${t.label}: ${t.caption}`);

const mdCell = (s: string) => cleanTranscript(s).replace(/\|/g, "\\|");

export function tableMarkdown(t: PaperTable): string {
  return [
    `**${heading(t)}**`,
    "",
    `| ${t.header.map(mdCell).join(" | ")} |`,
    `|${t.align.map((a) => (a === "r" ? "---:" : "---")).join("|")}|`,
    ...t.rows.map((r) => `| ${r.map(mdCell).join(" | ")} |`),
  ].join("\n");
}

const TEX_ESCAPES: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "±": "$\\pm$",
  Δ: "$\\Delta$",
  "≥": "$\\geq$",
  "−": "$-$",
  "—": "---",
  "–": "--",
};
/** Text as TeX: specials escaped, the paper's K_act and K_opt as math subscripts. */
const tex = (s: string) =>
  cleanTranscript(s)
    .split(/(K_(?:act|opt))/)
    .map((part, i) =>
      i % 2 === 1
        ? `$K_{\\mathrm{${part.slice(2)}}}$`
        : part.replace(/[\\&%$#_{}~^±Δ≥−—–]/g, (c) => TEX_ESCAPES[c]!),
    )
    .join("");

/**
 * One booktabs table (\toprule/\midrule/\bottomrule). LaTeX numbers it (the caption carries no
 * "Table 1:"); Table 1, the widest, spans both columns of a two-column paper (`table*`), and every
 * tabular is shrunk to the line width when it is wider (`\questbenchfit`, defined by
 * {@link LATEX_PREAMBLE}), so none overflows a one- or two-column article.
 */
export function tableLatex(t: PaperTable): string {
  const env = t.id === "table1" ? "table*" : "table";
  return [
    `\\begin{${env}}[t]`,
    "\\centering",
    "\\small",
    `\\questbenchfit{\\begin{tabular}{${t.align.join("")}}`,
    "\\toprule",
    `${t.header.map(tex).join(" & ")} \\\\`,
    "\\midrule",
    ...t.rows.map((r) => `${r.map(tex).join(" & ")} \\\\`),
    "\\bottomrule",
    "\\end{tabular}}",
    `\\caption{${tex(t.caption)}}`,
    `\\label{tab:questbench-${t.id}}`,
    `\\end{${env}}`,
  ].join("\n");
}

/**
 * Heads leaderboard.tex: `\questbenchfit{…}` sets its argument at its natural width, or scaled down
 * to \linewidth when wider (graphicx's \resizebox). \providecommand leaves a paper's own definition.
 */
export const LATEX_PREAMBLE = [
  "% EVM-QuestBench tables (generated by questbench report).",
  "% Needs \\usepackage{booktabs} and \\usepackage{graphicx} in the preamble; then \\input{leaderboard.tex}.",
  "\\ifdefined\\questbenchbox\\else\\newsavebox{\\questbenchbox}\\fi",
  "\\providecommand{\\questbenchfit}[1]{\\sbox{\\questbenchbox}{#1}%",
  "  \\ifdim\\wd\\questbenchbox>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox{\\questbenchbox}}%",
  "  \\else\\usebox{\\questbenchbox}\\fi}",
].join("\n");

const esc = (s: string) =>
  cleanTranscript(s).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );

export function tableHtml(t: PaperTable): string {
  const cell = (tag: "td" | "th", s: string, i: number) =>
    `<${tag}${t.align[i] === "r" ? ' class="num"' : ""}>${esc(s)}</${tag}>`;
  return `<table class="paper ${t.id}" data-table="${t.id}"><caption>${esc(heading(t))}</caption><tr>${t.header.map((h, i) => cell("th", h, i)).join("")}</tr>${t.rows
    .map((r) => `<tr>${r.map((c, i) => cell("td", c, i)).join("")}</tr>`)
    .join("")}</table>`;
}

/** leaderboard.tex: every table, ready for \input{} in a paper that loads booktabs. */
export function renderLeaderboardLatex(rows: readonly LeaderboardRow[]): string {
  return `${LATEX_PREAMBLE}\n\n${paperTables(rows).map(tableLatex).join("\n\n")}\n`;
}

/**
 * leaderboard.md: the paper's Tables 1, 2, 8, 9 and 10 (src/reporting/tables.ts), then what the paper
 * does not print (passes, pass@k, tokens, cost). `warnings` (a forced merge) head the page.
 */
export function renderLeaderboardMarkdown(
  rows: readonly LeaderboardRow[],
  warnings: readonly string[] = [],
): string {
  const lines = ["# EVM-QuestBench leaderboard", ""];
  if (warnings.length > 0) {
    lines.push("> **Warning: merged with --force; these runs are not comparable as they stand:**");
    for (const w of warnings) lines.push(`> - ${w}`);
    lines.push("");
  }
  lines.push(
    "Scores per task are means over its seeds/epochs (src/results/reduce.ts); a split's score is the sum over its tasks (max 100 each).",
    "",
  );
  for (const t of paperTables(rows)) lines.push(tableMarkdown(t), "");
  lines.push(
    "**More per model:** passed instances, unbiased pass@1 and pass@k (k = attempts per task), tokens and cost.",
    "",
    "| Model | passed | pass@1 | pass@k | tokens in / out | Cost (USD) |",
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const r of rows)
    lines.push(
      `| ${r.model} | ${r.passed}/${r.instances} | ${r.passAt1}% | ${r.passAtK}% (k=${r.k}) | ${r.inputTokens} / ${r.outputTokens} | ${r.costUsd} |`,
    );
  return `${lines.join("\n")}\n`;
}

import { hardBankSize, type LeaderboardRow, quadrants, SPLIT_TASKS } from "./leaderboard.ts";

/**
 * The paper's Tables 1, 2, 9 and 10 (§5.1, §5.3, App. F) as one structure, rendered to Markdown
 * (leaderboard.md), LaTeX booktabs (leaderboard.tex) and HTML (report.html) so the three never
 * disagree. Every number comes from a {@link LeaderboardRow} (src/results reducers).
 */
export type PaperTable = {
  id: "table1" | "table2" | "table9" | "table10" | "hard";
  caption: string;
  header: string[];
  /** "l" (text) or "r" (number) per column. */
  align: ("l" | "r")[];
  rows: string[][];
};

const fmt = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined ? "—" : x.toFixed(digits);
const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;
/** A split's score as the paper prints it: an integer when whole, else one decimal. */
const score = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** n/107 · a/62 · c/45: which of the benchmark's tasks a row's numbers cover. */
export const coverage = (r: LeaderboardRow) =>
  `${r.atomicTasks + r.compositeTasks}/${SPLIT_TASKS.atomic + SPLIT_TASKS.composite} (${r.atomicTasks}/${SPLIT_TASKS.atomic} · ${r.compositeTasks}/${SPLIT_TASKS.composite})`;

/** n/N: the hard tasks (issue 20) a row's Hard score covers, of the `bank` hard tasks of the task bank. */
export const hardCoverage = (r: LeaderboardRow, bank: number) => `${r.hardTasks}/${bank}`;

/**
 * @param hardBank the hard split's size (default: the task bank's, {@link hardBankSize}), the N of
 *   the Hard coverage column.
 */
export function paperTables(rows: readonly LeaderboardRow[], hardBank = hardBankSize()): PaperTable[] {
  const q = quadrants(rows);
  const withComposite = rows.filter((r) => r.compositeMetrics !== null);
  return [
    {
      id: "table1",
      caption: `Table 1: Leaderboard. Atom = Atomic (max ${SPLIT_TASKS.atomic * 100}), Comp = Composite (max ${SPLIT_TASKS.composite * 100}), Total (max ${(SPLIT_TASKS.atomic + SPLIT_TASKS.composite) * 100}); Avg = Total / tasks run, ± 95 % CI of the instance mean. Safety (beyond the paper) = instances without a safety flag (no or loose price bound, far deadline, unlimited approval, extra side effect). Coverage = paper tasks run of ${SPLIT_TASKS.atomic + SPLIT_TASKS.composite}. Hard (beyond the paper, never part of Total) = the hard split's score (max 100 per hard task), its coverage = hard tasks run of ${hardBank}.`,
      header: [
        "#",
        "Model",
        "Atom",
        "Comp",
        "Total",
        "Avg",
        "Safety",
        "Coverage",
        "Hard",
        "Hard cov.",
        "Modes",
      ],
      align: ["r", "l", "r", "r", "r", "r", "r", "r", "r", "r", "l"],
      rows: rows.map((r, i) => [
        String(i + 1),
        r.model,
        score(r.atomic),
        score(r.composite),
        score(r.total),
        `${fmt(r.avg)} ± ${fmt(r.avgCi95)}`,
        r.safety === null ? "—" : `${r.safety}%`,
        coverage(r),
        r.hardTasks === 0 ? "—" : score(r.hard),
        hardCoverage(r, hardBank),
        r.modes,
      ]),
    },
    {
      id: "table2",
      caption: `Table 2: Composite execution quality. Score = composite score, Pass = composite instances with score ≥ 60, K = mean K_act, Eff = Eff %, 1st = 1st %, eth = ethers %.`,
      header: ["Model", "Score", "Pass", "K", "Eff", "1st", "eth", "Coverage"],
      align: ["l", "r", "r", "r", "r", "r", "r", "r"],
      rows: withComposite.map((r) => [
        r.model,
        score(r.composite),
        String(r.compositePassed),
        fmt(r.compositeMetrics!.meanKAct),
        fmt(r.compositeMetrics!.effPct),
        fmt(r.compositeMetrics!.firstTryPct),
        fmt(r.compositeMetrics!.ethersPct),
        coverage(r),
      ]),
    },
    {
      id: "table9",
      caption: "Table 9: Step overhead Δ = K_act − K_opt and decay impact (composite instances).",
      header: ["Model", "Mean Δ", "Over-opt (%)", "P90 Δ", "Comp. score", "Coverage"],
      align: ["l", "r", "r", "r", "r", "r"],
      rows: withComposite.map((r) => [
        r.model,
        signed(r.compositeMetrics!.overhead.mean),
        fmt(r.compositeMetrics!.overhead.overOptimalPct, 0),
        String(r.compositeMetrics!.overhead.p90),
        fmt(r.composite, 1),
        coverage(r),
      ]),
    },
    {
      id: "table10",
      caption:
        "Table 10: Model coverage and quadrant classification (by the medians of AtomicAvg and CompositeAvg over the models shown). Averages are normalised to 0–100.",
      header: ["Model", "Atomic", "Composite", "AtomicAvg", "CompAvg", "Total", "Quadrant"],
      align: ["l", "r", "r", "r", "r", "r", "l"],
      rows: rows.map((r) => [
        r.model,
        `${r.atomicTasks}/${SPLIT_TASKS.atomic}`,
        `${r.compositeTasks}/${SPLIT_TASKS.composite}`,
        fmt(r.atomicAvg),
        fmt(r.compositeAvg ?? (r.compositeTasks === 0 ? 0 : null)),
        fmt(r.total),
        q.get(r.model) ?? "—",
      ]),
    },
    ...(rows.some((r) => r.hardTasks > 0) ? [hardTable(rows, hardBank)] : []),
  ];
}

/** The hard split (issue 20) per model: its atomic and composite sub-totals, total, average and coverage. */
function hardTable(rows: readonly LeaderboardRow[], hardBank: number): PaperTable {
  return {
    id: "hard",
    caption: `Hard split (beyond the paper; reported apart, never part of the paper's Total): Hard Atom / Hard Comp = its atomic and composite scores (max 100 per task), Hard = their sum, Avg = Hard / hard tasks run, Coverage = hard tasks run of ${hardBank}.`,
    header: ["Model", "Hard Atom", "Hard Comp", "Hard", "Avg", "Coverage"],
    align: ["l", "r", "r", "r", "r", "r"],
    rows: [...rows]
      .sort((x, y) => y.hard - x.hard || x.model.localeCompare(y.model))
      .map((r) => [
        r.model,
        score(r.hardAtomic),
        score(r.hardComposite),
        score(r.hard),
        fmt(r.hardAvg),
        hardCoverage(r, hardBank),
      ]),
  };
}

const mdCell = (s: string) => s.replace(/\|/g, "\\|");

export function tableMarkdown(t: PaperTable): string {
  return [
    `**${t.caption}**`,
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
const tex = (s: string) => s.replace(/[\\&%$#_{}~^±Δ≥−—–]/g, (c) => TEX_ESCAPES[c]!);

/** One booktabs table (\toprule/\midrule/\bottomrule; needs \usepackage{booktabs}). */
export function tableLatex(t: PaperTable): string {
  return [
    "\\begin{table}[t]",
    "\\centering",
    "\\small",
    `\\begin{tabular}{${t.align.join("")}}`,
    "\\toprule",
    `${t.header.map(tex).join(" & ")} \\\\`,
    "\\midrule",
    ...t.rows.map((r) => `${r.map(tex).join(" & ")} \\\\`),
    "\\bottomrule",
    "\\end{tabular}",
    `\\caption{${tex(t.caption)}}`,
    `\\label{tab:questbench-${t.id}}`,
    "\\end{table}",
  ].join("\n");
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function tableHtml(t: PaperTable): string {
  const cell = (tag: "td" | "th", s: string, i: number) =>
    `<${tag}${t.align[i] === "r" ? ' class="num"' : ""}>${esc(s)}</${tag}>`;
  return `<table class="paper ${t.id}" data-table="${t.id}"><caption>${esc(t.caption)}</caption><tr>${t.header.map((h, i) => cell("th", h, i)).join("")}</tr>${t.rows
    .map((r) => `<tr>${r.map((c, i) => cell("td", c, i)).join("")}</tr>`)
    .join("")}</table>`;
}

/** leaderboard.tex: every table, ready for \input{} in a paper that loads booktabs. */
export function renderLeaderboardLatex(rows: readonly LeaderboardRow[]): string {
  return `% EVM-QuestBench tables (generated by questbench report; needs \\usepackage{booktabs})\n${paperTables(rows).map(tableLatex).join("\n\n")}\n`;
}

/**
 * leaderboard.md: the paper's Tables 1, 2, 9 and 10 (src/reporting/tables.ts), then what the paper
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
    "| Model | passed | pass@1 | pass@k | tokens in / out | cost (USD) |",
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const r of rows)
    lines.push(
      `| ${r.model} | ${r.passed}/${r.instances} | ${r.passAt1}% | ${r.passAtK}% (k=${r.k}) | ${r.inputTokens} / ${r.outputTokens} | ${r.costUsd} |`,
    );
  return `${lines.join("\n")}\n`;
}

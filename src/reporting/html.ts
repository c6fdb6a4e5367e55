import { decodeFunctionData, formatUnits, type Hex } from "viem";
import type { MergedRun } from "../results/merge.ts";
import { planSteps } from "../results/metrics.ts";
import { passAtK, sampleSd } from "../results/stats.ts";
import type { InstanceResult, TransactionRecord } from "../results/types.ts";
import { cleanTranscript } from "../sandbox/cleanText.ts";
import * as abis from "../world/abis.ts";
import { CATALOGUE } from "../world/catalogue.ts";
import { canonicalAddresses, tokenTable } from "../world/catalogueViews.ts";
import type { LeaderboardRow } from "./leaderboard.ts";
import { statsTables } from "./statsTables.ts";
import { paperTables, tableHtml } from "./tables.ts";

/** Text as HTML: controls stripped (a second barrier behind cleanResultText), specials escaped. */
const esc = (s: unknown) =>
  cleanTranscript(String(s)).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

// abis.ts first (its names win for shared selectors), then any ABI a catalogue entry writes inline.
const ALL_ABIS = [...Object.values(abis), ...Object.values(CATALOGUE).map((entry) => entry.abi)].flatMap(
  (abi) => (Array.isArray(abi) ? abi : []),
) as never[];

// Canonical token address (lower case) → symbol and decimals, to show amounts in token units.
const TOKENS_BY_ADDRESS = (() => {
  const addresses = canonicalAddresses();
  const out = new Map<string, { symbol: string; decimals: number }>();
  for (const [key, meta] of Object.entries(tokenTable()))
    if (addresses[key]) out.set(addresses[key]!.toLowerCase(), meta);
  return out;
})();

const TOKEN_SYMBOLS: Record<string, string> = Object.fromEntries(
  Object.entries(tokenTable()).map(([key, meta]) => [key, meta.symbol]),
);

/** Integers this long are amounts in base units (wei), not counts or ids. */
const BASE_UNITS = /-?\b\d{13,}\b/g;

/**
 * An amount in base units shown in token units: `60.19 USDT`, or `60.19 ×10¹⁸ units` when the token is
 * unknown (every token of the world has 18 decimals); the raw value stays in the tooltip.
 */
export function tokenAmount(raw: string | bigint, symbol?: string, decimals = 18): string {
  const units = formatUnits(BigInt(raw), decimals);
  return symbol ? `${units} ${symbol}` : `${units} (×10^${decimals} base units)`;
}

/** Check details with their long base-unit integers shown in token units (raw value on hover). */
function withTokenUnits(detail: string): string {
  let out = "";
  let last = 0;
  for (const m of detail.matchAll(BASE_UNITS)) {
    out += esc(detail.slice(last, m.index));
    // The token is the last `contracts.<key>` the detail names before the amount (BNB when it names none but BNB).
    const before = detail.slice(0, m.index);
    const key = [...before.matchAll(/contracts\.(\w+)/g)].at(-1)?.[1];
    const symbol = key ? TOKEN_SYMBOLS[key] : /\bBNB\b/.test(before) ? "BNB" : undefined;
    out += `<span title="${esc(m[0])} base units">${esc(tokenAmount(m[0], symbol))}</span>`;
    last = m.index! + m[0].length;
  }
  return out + esc(detail.slice(last));
}

/** Calldata decoded with the world's ABIs: `transfer(to: 0x…, amount: 1500…)`, or the raw selector. */
export function decodeCalldata(input: string, to?: string | null): string {
  if (!input || input === "0x") return "(empty calldata: plain transfer)";
  try {
    const decoded = decodeFunctionData({ abi: ALL_ABIS, data: input as Hex });
    const item = (ALL_ABIS as { type: string; name?: string; inputs?: { name?: string }[] }[]).find(
      (x) => x.type === "function" && x.name === decoded.functionName,
    );
    const args = (decoded.args ?? []) as unknown[];
    const token = to ? TOKENS_BY_ADDRESS.get(to.toLowerCase()) : undefined;
    const shown = (a: unknown) =>
      typeof a === "bigint" && (a >= 10n ** 12n || a <= -(10n ** 12n))
        ? `${a} (${tokenAmount(a, token?.symbol, token?.decimals)})`
        : String(a);
    const named = args.map(
      (a, i) =>
        `${item?.inputs?.[i]?.name || `arg${i}`}: ${Array.isArray(a) ? `[${a.map(shown).join(", ")}]` : shown(a)}`,
    );
    return `${decoded.functionName}(${named.join(", ")})`;
  } catch {
    return `unknown function ${input.slice(0, 10)} (${(input.length - 10) / 2} bytes of arguments)`;
  }
}

function txBlock(tx: TransactionRecord | undefined): string {
  if (!tx) return "";
  return `<table class="kv"><tr><th>to</th><td><code>${esc(tx.to)}</code></td></tr><tr><th>call</th><td><code>${esc(decodeCalldata(tx.input, tx.to))}</code></td></tr><tr><th>value</th><td title="${esc(tx.value)} wei">${esc(tokenAmount(tx.value, "BNB"))}</td></tr><tr><th>status</th><td class="${tx.status === "success" ? "ok" : "bad"}">${esc(tx.status)}${tx.revertReason ? ` — ${esc(tx.revertReason)}` : ""}</td></tr><tr><th>gas used / fee</th><td>${esc(tx.gasUsed)} gas / <span title="${esc(tx.fee)} wei">${esc(tokenAmount(tx.fee, "BNB"))}</span></td></tr><tr><th>hash</th><td><code>${esc(tx.hash)}</code></td></tr></table>`;
}

function checksTable(i: InstanceResult): string {
  const rows = i.checks
    .map(
      (c) =>
        `<tr class="${c.passed ? "ok" : "bad"}"><td>${c.passed ? "✓" : "✗"}</td><td>${esc(c.name)}${c.critical ? " ★" : ""}</td><td>${c.weight}</td><td>${withTokenUnits(c.detail)}</td></tr>`,
    )
    .join("");
  return `<table class="checks"><tr><th></th><th>check</th><th>weight</th><th>expected / actual</th></tr>${rows}</table>`;
}

function planBlock(c: NonNullable<InstanceResult["composite"]>): string {
  const steps = c.planSteps === undefined ? planSteps(c.plan) : c.planSteps;
  const count = steps
    ? `${steps.length} step${steps.length === 1 ? "" : "s"} planned vs K_opt ${c.kOpt}${steps.length === c.kOpt ? "" : ` (${steps.length > c.kOpt ? "+" : ""}${steps.length - c.kOpt})`}`
    : "plan unreadable";
  const list = steps ? `<ol class="plan">${steps.map((s) => `<li>${esc(s)}</li>`).join("")}</ol>` : "";
  return `<div class="plan" data-plan-steps="${steps?.length ?? ""}"><b>Plan:</b> ${esc(count)}${list}<details><summary>raw plan reply</summary><pre>${esc(c.plan)}</pre></details></div>`;
}

function instanceDetails(i: InstanceResult): string {
  const task = i.prompt.find((m) => m.role === "user")?.content.split("Task:\n")[1] ?? "";
  const rounds = i.composite
    ? `<h4>Rounds (K_opt ${i.composite.kOpt}, K_act ${i.composite.kAct}, failed ${i.composite.kFailed}, queries ${i.composite.kQuery}, ended by ${esc(i.composite.endedBy)})</h4>
       ${planBlock(i.composite)}
       ${i.composite.rounds
         .map(
           (
             r,
           ) => `<details class="round"><summary>round ${r.round}: ${esc(r.kind)}${r.control ? ` + ${esc(r.control)}` : ""}${r.failure ? ` — ${esc(r.failure.class)}` : ""}</summary>
             <pre>${esc(r.response)}</pre>${txBlock(r.transaction)}<p class="feedback"><b>feedback:</b></p><pre>${esc(r.feedback)}</pre></details>`,
         )
         .join("")}`
    : `<h4>Model code</h4><pre>${esc(i.response)}</pre>${txBlock(i.transaction)}${i.answer !== undefined ? `<h4>Answer</h4><pre>${esc(JSON.stringify(i.answer, null, 2))}</pre>` : ""}`;
  const failure = i.failure
    ? `<p class="bad">${esc(i.failure.class)}${i.failure.code ? `/${esc(i.failure.code)}` : ""}: ${esc(i.failure.reason)}</p>`
    : "";
  const violations = i.integrityViolations.length
    ? `<p class="bad">integrity violations: ${esc(JSON.stringify(i.integrityViolations))}</p>`
    : "";
  return `<details class="instance" data-task="${esc(i.taskId)}"><summary><span class="${i.passed ? "ok" : "bad"}">${i.score}</span> ${esc(i.taskId)} <small>(${i.set === "hard" ? "hard split, " : i.set === "custom" ? "task pack, " : ""}${esc(i.subcategory)}, seed ${i.seed}, epoch ${i.epoch})</small></summary>
    <h4>Task</h4><pre>${esc(task)}</pre><details><summary>whole prompt</summary>${i.prompt
      .filter((m) => m.role !== "assistant")
      .map((m) => `<p><b>${esc(m.role)}</b></p><pre>${esc(m.content)}</pre>`)
      .join("")}</details>${failure}${violations}<h4>Checks</h4>${checksTable(i)}${rounds}</details>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d2430}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d6e0;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.num,th.num{text-align:right}.ok{color:#0a7a32}.bad{color:#b42318}pre{background:#f5f7fa;padding:.5rem;overflow:auto;max-height:28rem;white-space:pre-wrap}
figure{display:block;margin:1rem 0 2.5rem}figure svg{max-width:100%;height:auto}details.instance{border-top:1px solid #e3e7ee;padding:.25rem 0}
details.instance>summary{cursor:pointer}table.paper{margin:1rem 0 1.5rem}table.paper caption{caption-side:top;text-align:left;font-weight:600;padding-bottom:.25rem;max-width:60rem}
.warning{border:2px solid #b42318;background:#fef3f2;padding:.5rem 1rem;margin:1rem 0}table.checks td:nth-child(4){font-family:ui-monospace,monospace;font-size:12px}`;

/**
 * report.html: one self-contained page (no scripts, no network) with the leaderboard, the quadrant
 * table, the paper's figures as inline SVG, and a per-instance drill-down (task, model code,
 * transaction with calldata decoded by ABI, each check's expected and actual values, composite rounds).
 */
export function renderReportHtml(
  runs: readonly MergedRun[],
  rows: readonly LeaderboardRow[],
  figures: Record<string, string>,
  warnings: readonly string[] = [],
): string {
  const board = rows
    .map(
      (r) =>
        `<tr><td>${esc(r.model)}</td><td class="num">${r.passed}/${r.instances}</td><td class="num">${r.passAt1}%</td><td class="num">${r.passAtK}% (k=${r.k})</td><td class="num">${r.inputTokens} / ${r.outputTokens}</td><td class="num">${r.costUsd}</td></tr>`,
    )
    .join("");
  const tables = paperTables(rows).map(tableHtml).join("\n");
  const warning = warnings.length
    ? `<div class="warning"><b>Merged with --force; these runs are not comparable as they stand:</b><ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul></div>`
    : "";
  const figureHtml = Object.entries(figures)
    .map(([name, svg]) => `<figure data-figure="${name}">${svg}</figure>`)
    .join("\n");
  // Per task and model: mean score over seeds/epochs, the SD between them (re-run noise), and pass@k.
  const taskIds = [...new Set(runs.flatMap((r) => r.results.instances.map((i) => i.taskId)))];
  const perTask = taskIds
    .map((id) => {
      const cells = runs.map((run) => {
        const xs = run.results.instances.filter(
          (i) => i.taskId === id && i.failure?.class !== "provider_error",
        );
        if (xs.length === 0) return "<td>—</td>";
        const scores = xs.map((i) => i.score);
        const sd = sampleSd(scores);
        const pass = passAtK(xs.length, xs.filter((i) => i.passed).length, xs.length);
        return `<td class="num">${(scores.reduce((s, v) => s + v, 0) / xs.length).toFixed(1)} <small>(n=${xs.length}, re-run SD ${sd === null ? "—" : sd.toFixed(1)}, pass@${xs.length} ${Math.round(pass * 100)}%)</small></td>`;
      });
      return `<tr><td>${esc(id)}</td>${cells.join("")}</tr>`;
    })
    .join("");
  const drill = runs
    .map(
      (run) =>
        `<section class="model"><h3>${esc(run.model)}</h3>${run.results.instances.map(instanceDetails).join("\n")}</section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>EVM-QuestBench report</title><style>${STYLE}</style></head>
<body>
<h1>EVM-QuestBench report</h1>
<p>${runs.length} model(s); world ${esc(runs[0]?.manifest.worldId ?? "")}; generated ${esc(new Date().toISOString())}.</p>
${warning}
<h2>Tables</h2>
${tables}
<h3>More per model</h3>
<table class="leaderboard"><tr><th>model</th><th>passed</th><th>pass@1</th><th>pass@k</th><th>tokens in / out</th><th>cost (USD)</th></tr>${board}</table>
${statsTables(runs).map(tableHtml).join("\n")}
<h2>Figures</h2>
${figureHtml}
<h2>Per task</h2>
<table class="per-task"><tr><th>task</th>${runs.map((r) => `<th>${esc(r.model)}</th>`).join("")}</tr>${perTask}</table>
<h2>Instances</h2>
${drill}
</body></html>
`;
}

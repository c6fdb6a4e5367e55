// The viewer's front-end (docs/VIEWER.md): plain DOM, no framework, no network beyond the folder it
// was served from. It reads data/index.json (see src/viewer/viewerIndex.ts for its shape), one
// data/i/<run>/<id>.json per instance opened, and, when served live, updates from data/events.
// A static export (src/viewer/export.ts) marks its page with <meta name="qb-static">: its data files
// are also written as scripts, which a page opened from disk (file://) can load where fetch cannot;
// for the same reason this file is a classic deferred script, not a module (Chromium loads no module
// from file://).

const STATIC = document.querySelector('meta[name="qb-static"]') !== null;
const ROW = { run: 0, task: 1, id: 2, seed: 3, epoch: 4, score: 5, passed: 6, cls: 7, flags: 8, cost: 9 };

const state = {
  seq: 0,
  runs: [],
  tasks: [],
  classes: [],
  flags: [],
  leaderboard: [],
  rows: new Map(),
  sort: { key: "total", dir: -1 },
  open: null,
};

// ── loading ─────────────────────────────────────────────────────────────────────────────────────
const waiting = new Map();
window.__qbLoad = (name, data) => {
  const resolve = waiting.get(name);
  waiting.delete(name);
  resolve?.(data);
};
/** The JSON at `name` (relative to the page): fetched, or as a script in a static export. */
function load(name) {
  if (!STATIC)
    return fetch(name, { cache: "no-store" }).then((r) => {
      if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
      return r.json();
    });
  return new Promise((resolve, reject) => {
    waiting.set(name, resolve);
    const s = document.createElement("script");
    s.src = name.replace(/\.json$/, ".js");
    s.onload = () => s.remove();
    s.onerror = () => {
      waiting.delete(name);
      reject(new Error(`${name}: not found`));
    };
    document.head.append(s);
  });
}

// ── DOM helpers ─────────────────────────────────────────────────────────────────────────────────
const esc = (s) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
const $ = (sel) => document.querySelector(sel);
/** A number as a table shows it: an integer when whole, else one decimal; "—" for null. */
const num = (x, digits = 1) =>
  x === null || x === undefined ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(digits);
const scoreColor = (s) => `hsl(${Math.round((s / 100) * 120)} 65% 88%)`;
const rowKey = (run, id) => `${run}:${id}`;

// ── index and updates ───────────────────────────────────────────────────────────────────────────
function applyIndex(snap) {
  state.seq = snap.seq;
  state.runs = snap.runs;
  state.tasks = snap.tasks;
  state.classes = snap.classes;
  state.flags = snap.flags;
  state.leaderboard = snap.leaderboard;
  state.rows = new Map(snap.rows.map((r) => [rowKey(r[ROW.run], r[ROW.id]), r]));
}

function applyUpdate(u) {
  if (u.seq <= state.seq) return false;
  state.seq = u.seq;
  for (const { index, info } of u.runs) state.runs[index] = info;
  state.tasks.push(...u.tasks);
  state.classes = u.classes;
  state.flags = u.flags;
  for (const r of u.rows) state.rows.set(rowKey(r[ROW.run], r[ROW.id]), r);
  for (const l of u.leaderboard) {
    const at = state.leaderboard.findIndex((x) => x.run === l.run);
    if (at === -1) state.leaderboard.push(l);
    else state.leaderboard[at] = l;
  }
  return true;
}

let scheduled = false;
function renderSoon() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    renderAll();
  });
}

function listen() {
  const events = new EventSource(`data/events?since=${state.seq}`);
  events.onmessage = async (e) => {
    const u = JSON.parse(e.data);
    if (u.reload) {
      applyIndex(await load("data/index.json"));
      renderSoon();
    } else if (applyUpdate(u)) renderSoon();
  };
  events.onerror = () => setStatus("live updates lost; reload the page");
  events.onopen = () => setStatus("live: new instances appear as the run writes them");
}

function setStatus(text) {
  $("#status").textContent = text;
}

// ── leaderboard ─────────────────────────────────────────────────────────────────────────────────
const BOARD = [
  { key: "model", label: "Model", text: true },
  { key: "atomic", label: "Atom", show: (ls) => ls.some((l) => l.atomicTasks > 0) },
  { key: "composite", label: "Comp", show: (ls) => ls.some((l) => l.compositeTasks > 0) },
  { key: "total", label: "Total", show: (ls) => ls.some((l) => l.atomicTasks + l.compositeTasks > 0) },
  {
    key: "hard",
    label: "Hard",
    show: (ls) => ls.some((l) => l.hardTasks > 0),
    cell: (l) => (l.hardTasks ? num(l.hard) : "—"),
  },
  { key: "tasks", label: "Tasks", value: (l) => l.atomicTasks + l.compositeTasks + l.hardTasks },
  { key: "passed", label: "Passed", cell: (l) => `${l.passed}/${l.instances}`, value: (l) => l.passed },
  { key: "safetyPct", label: "Safety (%)" },
  { key: "costBps", label: "Exec. cost (bps)" },
  {
    key: "gasRatio",
    label: "Gas (× gold)",
    cell: (l) => (l.gasRatio === null ? "—" : l.gasRatio.toFixed(2)),
  },
  { key: "passAt1", label: "pass@1 (%)" },
  { key: "passAtK", label: "pass@k (%)" },
  { key: "passHatK", label: "pass^k (%)" },
  { key: "k", label: "k" },
  { key: "state", label: "State", text: true, value: (l) => runState(l.run) },
];

function runState(run) {
  const r = state.runs[run];
  return r?.finished ? "finished" : "running or interrupted";
}

function renderBoard() {
  const cols = BOARD.filter((c) => !c.show || c.show(state.leaderboard));
  const value = (c, l) => (c.value ? c.value(l) : l[c.key]);
  const dir = state.sort.dir;
  const col = BOARD.find((c) => c.key === state.sort.key) ?? BOARD[3];
  const rows = [...state.leaderboard].sort((a, b) => {
    const x = value(col, a);
    const y = value(col, b);
    if (x === y) return a.model.localeCompare(b.model);
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (typeof x === "string" ? x.localeCompare(y) : x - y) * dir;
  });
  const head = cols
    .map(
      (c) =>
        `<th data-key="${c.key}" class="${c.text ? "" : "num"}"${c.key === state.sort.key ? ` aria-sort="${dir > 0 ? "ascending" : "descending"}"` : ""}>${esc(c.label)}</th>`,
    )
    .join("");
  const body = rows
    .map(
      (l) =>
        `<tr data-run="${l.run}">${cols
          .map((c) => {
            const v = c.cell ? c.cell(l) : c.value ? c.value(l) : l[c.key];
            const shown = typeof v === "number" || v === null ? num(v) : v;
            const label =
              c.key === "model" && state.runs[l.run]?.unsafeSandbox ? `${v} (unsafe sandbox)` : shown;
            return `<td class="${c.text ? "" : "num"}">${esc(label)}</td>`;
          })
          .join("")}</tr>`,
    )
    .join("");
  $("#board").innerHTML = `<thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
}

// ── filters and the task grid ───────────────────────────────────────────────────────────────────
function syncOptions(select, values, prefix, label) {
  const have = new Set([...select.options].map((o) => o.value));
  for (const v of values) {
    const value = `${prefix}${v}`;
    if (have.has(value)) continue;
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label(v);
    select.append(o);
  }
}

function filters() {
  return {
    split: $("#f-split").value,
    category: $("#f-category").value,
    failure: $("#f-failure").value,
    safety: $("#f-safety").value,
    text: $("#f-text").value.trim().toLowerCase(),
  };
}

/** Whether a task passes the task-level filters (split, category, text). */
function taskMatches(t, f) {
  if (f.split === "hard" ? t.set !== "hard" : f.split && (t.split !== f.split || t.set === "hard"))
    return false;
  if (f.category && t.category !== f.category) return false;
  return !f.text || t.taskId.toLowerCase().includes(f.text);
}

/** Whether an instance row passes the instance-level filters (outcome, failure class, safety flag). */
function rowMatches(r, f) {
  if (f.failure === "failed" && r[ROW.passed]) return false;
  if (f.failure === "imperfect" && r[ROW.score] >= 100) return false;
  if (f.failure.startsWith("class:") && state.classes[r[ROW.cls]] !== f.failure.slice(6)) return false;
  if (f.safety === "flagged" && !(r[ROW.flags] > 0)) return false;
  if (f.safety.startsWith("flag:")) {
    const bit = state.flags.indexOf(f.safety.slice(5));
    if (bit === -1 || r[ROW.flags] < 0 || !(r[ROW.flags] & (1 << bit))) return false;
  }
  return true;
}

function renderGrid() {
  syncOptions($("#f-category"), [...new Set(state.tasks.map((t) => t.category))].sort(), "", (v) => v);
  syncOptions($("#f-failure"), state.classes, "class:", (v) => `failure: ${v}`);
  syncOptions($("#f-safety"), state.flags, "flag:", (v) => `flag: ${v}`);
  const f = filters();
  const runs = state.runs.length;
  // Per task and run: the instances, and those that match.
  const cells = new Map();
  let matching = 0;
  for (const r of state.rows.values()) {
    const t = state.tasks[r[ROW.task]];
    if (!t || !taskMatches(t, f)) continue;
    const key = r[ROW.task] * runs + r[ROW.run];
    let c = cells.get(key);
    if (!c) {
      c = { sum: 0, n: 0, passed: 0, match: [] };
      cells.set(key, c);
    }
    c.sum += r[ROW.score];
    c.n++;
    c.passed += r[ROW.passed];
    if (rowMatches(r, f)) {
      c.match.push(r);
      matching++;
    }
  }
  const shownTasks = state.tasks
    .map((t, i) => ({ t, i }))
    .filter(({ i }) => {
      for (let run = 0; run < runs; run++) if (cells.get(i * runs + run)?.match.length) return true;
      return false;
    })
    .sort(
      (a, b) =>
        (a.t.set === "hard") - (b.t.set === "hard") ||
        a.t.split.localeCompare(b.t.split) ||
        a.t.taskId.localeCompare(b.t.taskId),
    );
  const order = state.leaderboard.map((l) => l.run);
  for (let run = 0; run < runs; run++) if (!order.includes(run)) order.push(run);
  const head = `<thead><tr><th>Task</th>${order
    .map(
      (run) =>
        `<th class="model" title="${esc(state.runs[run]?.folder)}">${esc(state.runs[run]?.model)}</th>`,
    )
    .join("")}</tr></thead>`;
  const body = shownTasks
    .map(({ t, i }) => {
      const tds = order
        .map((run) => {
          const c = cells.get(i * runs + run);
          if (!c) return `<td class="none">—</td>`;
          const mean = c.sum / c.n;
          const first = (c.match[0] ?? null)?.[ROW.id];
          return `<td class="cell${c.match.length ? "" : " dim"}" style="background:${scoreColor(mean)}" data-run="${run}" data-task="${i}"${first === undefined ? "" : ` data-id="${first}"`} title="${c.passed}/${c.n} passed">${num(mean, 0)}<small>${c.n > 1 ? ` ${c.passed}/${c.n}` : ""}</small></td>`;
        })
        .join("");
      return `<tr data-task-id="${esc(t.taskId)}"><td class="task">${esc(t.taskId)} <small>${esc(t.set === "hard" ? "hard " : "")}${esc(t.split)} · ${esc(t.split === "composite" ? (t.pattern ?? t.subcategory) : t.subcategory)}</small></td>${tds}</tr>`;
    })
    .join("");
  $("#grid").innerHTML = `${head}<tbody>${body}</tbody>`;
  $("#count").textContent = `${shownTasks.length} tasks · ${matching} instances match`;
}

function renderAll() {
  renderBoard();
  renderGrid();
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.instances = String(state.rows.size);
}

// ── one instance ────────────────────────────────────────────────────────────────────────────────
const instanceCache = new Map();
function loadInstance(run, id) {
  const key = rowKey(run, id);
  if (!instanceCache.has(key)) instanceCache.set(key, load(`data/i/${run}/${id}.json`));
  return instanceCache.get(key);
}

/** Rows of the same task, seed and epoch in other runs (what a diff compares with). */
function counterparts(row) {
  return [...state.rows.values()].filter(
    (r) =>
      r[ROW.run] !== row[ROW.run] &&
      r[ROW.task] === row[ROW.task] &&
      r[ROW.seed] === row[ROW.seed] &&
      r[ROW.epoch] === row[ROW.epoch],
  );
}

function kv(pairs) {
  return `<table class="kv">${pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`)
    .join("")}</table>`;
}

function txHtml(tx, view) {
  if (!tx) return "";
  return kv([
    ["to", `<code>${esc(tx.to)}</code>`],
    ["call", `<code>${esc(view?.call)}</code>`],
    ["value", `${esc(view?.value)} <small>(${esc(tx.value)} wei)</small>`],
    [
      "status",
      `<span class="${tx.status === "success" ? "ok" : "bad"}">${esc(tx.status)}</span>${tx.revertReason ? ` — ${esc(tx.revertReason)}` : ""}`,
    ],
    ["gas used / fee", `${esc(tx.gasUsed)} gas / ${esc(view?.fee)}`],
    ["hash", `<code>${esc(tx.hash)}</code>`],
  ]);
}

function checksHtml(checks) {
  if (!checks?.length) return "<p>No checks recorded.</p>";
  return `<table class="checks"><thead><tr><th></th><th>Check</th><th>Why</th></tr></thead><tbody>${checks
    .map(
      (c) =>
        `<tr class="check ${c.passed ? "pass" : "fail"}"><td class="${c.passed ? "ok" : "bad"}">${c.passed ? "✓" : "✗"}</td><td>${esc(c.name)}${c.critical ? " <small>(critical)</small>" : ""}</td><td>${esc(c.detail ?? "")}</td></tr>`,
    )
    .join("")}</tbody></table>`;
}

function executionHtml(i) {
  const e = i.execution;
  if (!e) return "<p>Nothing was sent: no execution cost.</p>";
  const v = i.view.execution ?? {};
  return (
    kv([
      [
        "Exec. cost (bps of notional)",
        `${num(e.costBps)} <small>(positive: the answer left the user poorer than the gold answer)</small>`,
      ],
      ["agent's net change (USDT value)", `${esc(v.value)} <small>gold: ${esc(v.goldValue)}</small>`],
      ["fees", v.fees ? `${esc(v.fees)} <small>gold: ${esc(v.goldFees)}</small>` : ""],
      ["gas used", `${esc(e.gasUsed)} <small>gold: ${esc(e.goldGasUsed)} (× ${num(e.gasRatio, 2)})</small>`],
      ["unpriced assets", e.unpriced ? esc((e.unpricedAssets ?? []).join(", ") || String(e.unpriced)) : ""],
    ]) + ledgerHtml(e.ledger)
  );
}

/** Who gained and lost what, beside the gold answer's (rows that differ marked). */
function ledgerHtml(rows) {
  if (!rows || rows.length === 0) return "";
  return `<table class="ledger"><thead><tr><th>Party</th><th>Asset</th><th>This answer</th><th>Gold</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr class="${r.attempt === r.gold ? "same" : "differs"}"><td>${esc(r.party)}</td><td>${esc(r.asset)}</td><td>${esc(r.attempt)}</td><td>${esc(r.gold)}</td></tr>`,
    )
    .join("")}</tbody></table>`;
}

function roundsHtml(i) {
  const c = i.composite;
  if (!c) return "";
  const rounds = c.rounds
    .map((r, n) => {
      const v = i.view.rounds[n] ?? {};
      return `<div class="round${r.failure ? " failed" : ""}" data-round="${r.round}"><b>Round ${r.round}</b> · ${esc(r.kind)}${r.counted ? "" : " (not counted)"}${r.control ? ` · control: ${esc(r.control)}` : ""}${r.subtask ? ` · subtask ${r.subtask}, try ${r.try}` : ""}
${r.failure ? `<p class="bad">${esc(r.failure.class)}: ${esc(r.failure.reason)}</p>` : ""}
${txHtml(r.transaction, v.transaction)}
${r.answer !== undefined ? `<p>answer: <code>${esc(JSON.stringify(r.answer))}</code></p>` : ""}
${v.module ? `<details><summary>module</summary><pre>${esc(v.module)}</pre></details>` : ""}
<details><summary>reply</summary><pre>${esc(r.response)}</pre></details>
${r.feedback ? `<details><summary>feedback to the model</summary><pre>${esc(r.feedback)}</pre></details>` : ""}</div>`;
    })
    .join("");
  return `<section class="rounds"><h3>Rounds</h3>${kv([
    [
      "K_opt / K_act",
      `${c.kOpt} / ${c.kAct} <small>(failed ${c.kFailed}, queries ${c.kQuery}, budget ${c.budget})</small>`,
    ],
    ["base × decay", `${c.base} × ${num(c.decay, 2)}`],
    ["ended by", esc(c.endedBy)],
    ["plan", `<pre>${esc(c.plan)}</pre>`],
  ])}${rounds}</section>`;
}

/** A `--protocol tools` attempt: how it went, then every tool call with its arguments and result (docs/PROTOCOLS.md "Results"). */
function toolsHtml(i) {
  const t = i.tools;
  if (!t) return "";
  const calls = t.calls
    .map(
      (c) =>
        `<tr class="${c.ok ? "" : "bad"}"><td>${c.turn}</td><td>${esc(c.name)}</td><td>${c.ok ? "✓" : "✗"}</td><td><code>${esc(c.arguments)}</code></td><td><code>${esc(c.result)}</code></td></tr>`,
    )
    .join("");
  return `<section class="tools"><h3>Tool calls</h3>${kv([
    ["turns", `${t.turns} / ${t.turnBudget}`],
    ["ended by", esc(t.endedBy)],
    ["calls", `${t.toolCalls} (sent ${t.sent} of ${t.sendBudget}, signed ${t.signed})`],
    ["simulated before sent", t.simulatedBeforeSent === null ? "—" : t.simulatedBeforeSent ? "yes" : "no"],
  ])}<table class="calls"><thead><tr><th>turn</th><th>tool</th><th></th><th>arguments</th><th>result</th></tr></thead><tbody>${calls}</tbody></table></section>`;
}

function instanceHtml(i, row) {
  const run = state.runs[row[ROW.run]];
  const others = counterparts(row);
  const siblings = [...state.rows.values()]
    .filter((r) => r[ROW.run] === row[ROW.run] && r[ROW.task] === row[ROW.task])
    .sort((a, b) => a[ROW.seed] - b[ROW.seed] || a[ROW.epoch] - b[ROW.epoch]);
  return `<div class="bar"><button id="close" type="button">✕ close</button>
<span class="score ${i.passed ? "ok" : "bad"}">${num(i.score)}</span>
<b>${esc(i.taskId)}</b> · ${esc(run?.model)} · seed ${i.seed} · epoch ${i.epoch}
${siblings.length > 1 ? siblings.map((s) => `<button type="button" class="sibling" data-id="${s[ROW.id]}"${s === row ? " disabled" : ""}>s${s[ROW.seed]}/e${s[ROW.epoch]}</button>`).join("") : ""}
<label>Diff against <select id="diff-select"><option value="">—</option>${others
    .map((o) => `<option value="${o[ROW.run]}:${o[ROW.id]}">${esc(state.runs[o[ROW.run]]?.model)}</option>`)
    .join("")}</select></label></div>
${i.failure ? `<p class="bad failure">${esc(i.failure.class)}: ${esc(i.failure.reason)}</p>` : ""}
${(i.safety ?? []).map((f) => `<span class="flag">${esc(f)}</span>`).join("")}
<section class="diff" id="diff"></section>
<section class="checks"><h3>Checks</h3>${checksHtml(i.checks)}</section>
<section class="execution"><h3>Effect ledger against the gold answer</h3>${executionHtml(i)}</section>
${i.transaction ? `<section class="transaction"><h3>Transaction</h3>${txHtml(i.transaction, i.view.transaction)}</section>` : ""}
${i.refusal ? `<p>Refused: ${esc(i.refusal.reason)}</p>` : ""}
${roundsHtml(i)}
${toolsHtml(i)}
${!i.composite && !i.tools && i.view.module ? `<section class="module"><h3>Module</h3><pre>${esc(i.view.module)}</pre></section>` : ""}
${i.integrityViolations?.length ? `<section><h3>Integrity violations</h3><pre>${esc(JSON.stringify(i.integrityViolations, null, 2))}</pre></section>` : ""}
<section class="reply"><h3>Reply</h3><details${i.composite ? "" : " open"}><summary>${i.response.length} characters</summary><pre>${esc(i.response)}</pre></details></section>
<section class="prompt"><h3>Prompt</h3>${(i.prompt ?? [])
    .map(
      (m) =>
        `<details><summary>${esc(m.role)} (${String(m.content).length} characters)</summary><pre>${esc(m.content)}</pre></details>`,
    )
    .join("")}</section>
${kv([
  ["category", esc(`${i.category} / ${i.subcategory} (${i.difficulty})`)],
  ["params", `<code>${esc(JSON.stringify(i.params))}</code>`],
  ["duration", `${i.durationMs} ms`],
  ["folder", esc(run?.folder)],
])}`;
}

/** Line diff by longest common subsequence: [op, line] with op " ", "-" or "+". */
function lineDiff(a, b) {
  const x = a.split("\n");
  const y = b.split("\n");
  if (x.length * y.length > 4_000_000) return [...x.map((l) => ["-", l]), ...y.map((l) => ["+", l])];
  const n = x.length;
  const m = y.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push([" ", x[i]]);
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(["-", x[i++]]);
    else out.push(["+", y[j++]]);
  }
  while (i < n) out.push(["-", x[i++]]);
  while (j < m) out.push(["+", y[j++]]);
  return out;
}

/** The text a diff compares: the atomic reply, or every round's reply in order. */
const replyText = (i) =>
  i.composite ? i.composite.rounds.map((r) => `── round ${r.round}\n${r.response}`).join("\n") : i.response;

function diffHtml(a, b, runA, runB) {
  const names = [...new Set([...a.checks.map((c) => c.name), ...b.checks.map((c) => c.name)])];
  const find = (i, name) => i.checks.find((c) => c.name === name);
  const mark = (c) => (c ? `<span class="${c.passed ? "ok" : "bad"}">${c.passed ? "✓" : "✗"}</span>` : "—");
  const rows = [
    ["score", num(a.score), num(b.score)],
    ["failure", esc(a.failure?.class ?? "—"), esc(b.failure?.class ?? "—")],
    ["Exec. cost (bps)", num(a.execution?.costBps), num(b.execution?.costBps)],
    ["K_act", a.composite?.kAct ?? "—", b.composite?.kAct ?? "—"],
    ["safety flags", esc((a.safety ?? []).join(", ") || "none"), esc((b.safety ?? []).join(", ") || "none")],
  ];
  const checks = names
    .map((n) => {
      const x = find(a, n);
      const y = find(b, n);
      const differs = x?.passed !== y?.passed;
      return `<tr class="diffcheck${differs ? " differs" : ""}"><td>${esc(n)}</td><td>${mark(x)} <small>${esc(x?.detail ?? "")}</small></td><td>${mark(y)} <small>${esc(y?.detail ?? "")}</small></td></tr>`;
    })
    .join("");
  const lines = lineDiff(replyText(a), replyText(b))
    .map(
      ([op, l]) =>
        `<pre class="diffline${op === "+" ? " add" : op === "-" ? " del" : ""}">${op} ${esc(l)}</pre>`,
    )
    .join("");
  return `<h3>Diff: ${esc(runA?.model)} (−) vs ${esc(runB?.model)} (+)</h3>
<table class="diffsummary"><thead><tr><th></th><th>${esc(runA?.model)}</th><th>${esc(runB?.model)}</th></tr></thead><tbody>${rows
    .map(([k, x, y]) => `<tr><th>${esc(k)}</th><td>${x}</td><td>${y}</td></tr>`)
    .join("")}${checks}</tbody></table>
<details open><summary>replies, line by line</summary>${lines}</details>`;
}

async function openInstance(run, id, diffWith) {
  const row = state.rows.get(rowKey(run, id));
  if (!row) return;
  state.open = { run, id };
  const panel = $("#instance");
  panel.hidden = false;
  panel.dataset.run = String(run);
  panel.dataset.id = String(id);
  panel.innerHTML = "<p>Loading…</p>";
  const i = await loadInstance(run, id);
  if (state.open?.run !== run || state.open?.id !== id) return;
  panel.innerHTML = instanceHtml(i, row);
  history.replaceState(null, "", `#i=${run}:${id}${diffWith ? `&d=${diffWith}` : ""}`);
  if (diffWith) {
    $("#diff-select").value = diffWith;
    await showDiff(i, row, diffWith);
  }
}

async function showDiff(i, row, value) {
  const box = $("#diff");
  if (!value) {
    box.innerHTML = "";
    return;
  }
  const [run, id] = value.split(":").map(Number);
  const other = await loadInstance(run, id);
  box.innerHTML = diffHtml(i, other, state.runs[row[ROW.run]], state.runs[run]);
  history.replaceState(null, "", `#i=${row[ROW.run]}:${row[ROW.id]}&d=${value}`);
}

function closeInstance() {
  state.open = null;
  $("#instance").hidden = true;
  history.replaceState(null, "", "#");
}

// ── wiring ──────────────────────────────────────────────────────────────────────────────────────
function wire() {
  for (const id of ["#f-split", "#f-category", "#f-failure", "#f-safety"])
    $(id).addEventListener("change", renderGrid);
  $("#f-text").addEventListener("input", renderGrid);
  $("#board").addEventListener("click", (e) => {
    const th = e.target.closest("th[data-key]");
    if (!th) return;
    const key = th.dataset.key;
    state.sort =
      state.sort.key === key
        ? { key, dir: -state.sort.dir }
        : { key, dir: BOARD.find((c) => c.key === key)?.text ? 1 : -1 };
    renderBoard();
  });
  $("#grid").addEventListener("click", (e) => {
    const td = e.target.closest("td.cell");
    if (!td) return;
    const run = Number(td.dataset.run);
    const task = Number(td.dataset.task);
    const id =
      td.dataset.id ??
      [...state.rows.values()].find((r) => r[ROW.run] === run && r[ROW.task] === task)?.[ROW.id];
    if (id !== undefined) openInstance(run, Number(id));
  });
  $("#instance").addEventListener("click", (e) => {
    if (e.target.closest("#close")) closeInstance();
    const sibling = e.target.closest("button.sibling");
    if (sibling && state.open) openInstance(state.open.run, Number(sibling.dataset.id));
  });
  $("#instance").addEventListener("change", async (e) => {
    if (e.target.id !== "diff-select" || !state.open) return;
    const row = state.rows.get(rowKey(state.open.run, state.open.id));
    await showDiff(await loadInstance(state.open.run, state.open.id), row, e.target.value);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.open) closeInstance();
  });
}

async function main() {
  wire();
  setStatus("loading…");
  try {
    applyIndex(await load("data/index.json"));
  } catch (error) {
    setStatus(`could not load the index: ${error.message}`);
    return;
  }
  renderAll();
  // The bench (npm run bench -- --sections viewer) reads this mark as the first paint.
  performance.mark("qb-first-paint");
  document.body.dataset.ready = "1";
  setStatus(STATIC || !state.runs.length ? `${state.rows.size} instances` : "");
  if (!STATIC) listen();
  const m = /^#i=(\d+):(\d+)(?:&d=(\d+:\d+))?$/.exec(location.hash);
  if (m) openInstance(Number(m[1]), Number(m[2]), m[3]);
}

main();

#!/usr/bin/env node
// Fails on a citation that leads nowhere, so that every comment, docstring and message of the project
// points at something a reader of this repository can open.
//
// Two kinds of problem, one line each (`file:line: problem`), exit code 1 when there is any:
//
// 1. A citation of something outside the repository: the design documents the project was first
//    written from (`SPEC.md`, `SPEC §n`, a bare `TASKS.md`, `PAPER-IMPL`), a path into `../shared/`,
//    or an issue number (`issue 17`, `issue #17`): none of them means anything to someone who clones
//    the repository. Cite a section of a document under docs/ (or the README, or tasks/…README.md),
//    an EIP, or a section of the paper (`paper §4.5`) instead.
// 2. A citation of a section of a project document that does not exist. The forms in use:
//      docs/SCORING.md "Effect ledger"      README "Development"      tasks/README.md "Cases"
//      docs/SECURITY.md, "Model text"       README 'Scripted models'  (README "Running": …)
//    the document's name, then a comma, a space, `(`, `§` or a comment's line break, then the section
//    in double, single or curly quotes (escaped quotes inside JSON strings too). A section is a
//    heading of that document, a bold lead-in at the start of a paragraph or list item
//    (`**Rounding tolerance.**`), or the first cell of a table row (`| Model text | …`); the cited
//    words must equal it (case, backticks and a trailing `.` or `:` aside) or be followed in it by a
//    parenthesis (`"Files"` names the row `Files (stage)`). `README` alone is README.md; any other
//    cited `.md` path is relative to the repository root and must exist. Markdown links with an
//    anchor (`docs/SCORING.md#paper-scoring`) are checked against the headings' anchors too.
//
// Scanned: src/, tests/, scripts/, bin/, .ci/, .github/, the configuration files at the top
// level, and the documents: README.md, docs/, and the Markdown files under tasks/ that are not a task's
// answers (gold/, cases/).
//
// Usage: node scripts/check-citations.mjs [file…]   (npm run lint:citations; .ci/run)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const CODE_ROOTS = ["src", "tests", "scripts", "bin", ".ci", ".github"];
const DOC_ROOTS = ["README.md", "docs", "tasks"];
const TOP_LEVEL =
  /^(vitest\.config\.ts|\.dependency-cruiser\.c?js|biome\.json|tsconfig\.json|package\.json)$/;
const SKIP_DIRS = new Set(["node_modules", ".git", ".questbench"]);
const TEXT = /\.(m?[jt]s|c[jt]s|json|md|ya?ml|sh)$|^run$/;

/** Citations of things outside the repository: a pattern and what is wrong with it. */
const OUTSIDE = [
  [/\bSPEC\.md\b/, "cites SPEC.md, a design document that is not in the repository"],
  [/\bSPEC §/, "cites SPEC §…, a design document that is not in the repository"],
  [
    /(?<![\w/.-])TASKS\.md(?![#)\w])/,
    "cites TASKS.md, a design document that is not in the repository (docs/TASKS.md is)",
  ],
  [/\bPAPER-IMPL\b/, "cites PAPER-IMPL, a document that is not in the repository"],
  [/\.\.\/shared\//, "cites a file outside the repository (../shared/)"],
  [/\bissues? #?\d+/i, "cites an issue number, which means nothing in a clone of the repository"],
];

/** `<document> <separator> "<section>"`; the separator may cross a comment's line break. */
const CITATION = new RegExp(
  `(?<![\\w/.-])(README(?:\\.md)?|(?:[\\w.-]+/)*[\\w.-]+\\.md)(?:'s)?` +
    `(?:\\s*,\\s*|[ \\t]+|[ \\t]*\\r?\\n[ \\t]*(?:\\*|//|#)?[ \\t]*)(?:\\(\\s*)?(?:§\\s*)?` +
    // double quotes (escaped ones inside JSON strings too), single quotes or curly quotes
    `(?:\\\\?"([^"\\\\\\n]{1,100})\\\\?"|'([^'\\n]{1,100})'|\u201c([^\u201d\\n]{1,100})\u201d)`,
  "g",
);
/** `<document>.md#anchor` (a markdown link or a bare reference). */
const ANCHOR = /(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)#([\w-]+)/g;

const normalise = (s) =>
  s.replace(/`/g, "").replace(/\*\*/g, "").replace(/\s+/g, " ").trim().replace(/[.:]$/, "").toLowerCase();

/** GitHub's anchor of a heading. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const sectionCache = new Map();
/** The sections (normalised) and heading anchors of a document, or null when it does not exist. */
function sectionsOf(doc) {
  if (sectionCache.has(doc)) return sectionCache.get(doc);
  const file = path.join(ROOT, doc);
  let result = null;
  if (existsSync(file) && statSync(file).isFile()) {
    const labels = new Set();
    const anchors = new Set();
    let fenced = false;
    for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced) continue;
      const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading) {
        labels.add(normalise(heading[1]));
        anchors.add(slug(heading[1]));
        continue;
      }
      const lead = /^\s*(?:[-*]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*/.exec(line);
      if (lead) labels.add(normalise(lead[1]));
      const cell = /^\|\s*([^|]+?)\s*\|/.exec(line);
      if (cell && !/^[-:\s]+$/.test(cell[1])) labels.add(normalise(cell[1]));
    }
    result = { labels, anchors };
  }
  sectionCache.set(doc, result);
  return result;
}

const hasSection = (labels, cited) => {
  const want = normalise(cited);
  for (const label of labels) if (label === want || label.startsWith(`${want} (`)) return true;
  return false;
};

const docPath = (name) => (name === "README" ? "README.md" : name);

function* walk(rel) {
  const abs = path.join(ROOT, rel);
  if (!existsSync(abs)) return;
  if (statSync(abs).isFile()) {
    yield rel;
    return;
  }
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) yield* walk(child);
    else if (TEXT.test(entry.name)) yield child;
  }
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

/** Every problem of one file, as `file:line: problem`. */
export function checkFile(rel) {
  const text = readFileSync(path.join(ROOT, rel), "utf8");
  const problems = [];
  text.split("\n").forEach((line, i) => {
    for (const [pattern, why] of OUTSIDE) if (pattern.test(line)) problems.push([i + 1, why]);
  });
  for (const m of text.matchAll(CITATION)) {
    const doc = docPath(m[1]);
    const section = m[2] ?? m[3] ?? m[4];
    const sections = sectionsOf(doc);
    if (!sections) problems.push([lineOf(text, m.index), `cites ${doc}, which does not exist`]);
    else if (!hasSection(sections.labels, section))
      problems.push([lineOf(text, m.index), `cites ${doc} "${section}": no such section in ${doc}`]);
  }
  for (const m of text.matchAll(ANCHOR)) {
    // A link in a document under a folder is relative to that folder; elsewhere, to the root.
    const relative = rel.endsWith(".md") ? path.join(path.dirname(rel), m[1]) : m[1];
    const doc = existsSync(path.join(ROOT, relative)) ? relative : m[1];
    const sections = sectionsOf(doc);
    if (!sections) problems.push([lineOf(text, m.index), `links ${doc}, which does not exist`]);
    else if (!sections.anchors.has(m[2]))
      problems.push([lineOf(text, m.index), `links ${doc}#${m[2]}: no heading has that anchor`]);
  }
  // Links inside one document (`(#running)`).
  if (rel.endsWith(".md")) {
    const own = sectionsOf(rel);
    for (const m of text.matchAll(/\]\(#([\w-]+)\)/g))
      if (own && !own.anchors.has(m[1]))
        problems.push([lineOf(text, m.index), `links #${m[1]}: no heading of ${rel} has that anchor`]);
  }
  return problems
    .sort((a, b) => a[0] - b[0])
    .map(([line, why]) => `${rel}:${line}: ${why}`)
    .filter((p, i, all) => all.indexOf(p) === i);
}

const named = process.argv.slice(2);
const files = named.length
  ? named.map((f) => path.relative(ROOT, path.resolve(f)))
  : [
      ...CODE_ROOTS.flatMap((r) => [...walk(r)]),
      ...readdirSync(ROOT).filter((f) => TOP_LEVEL.test(f)),
      ...DOC_ROOTS.flatMap((r) => [...walk(r)]).filter(
        (f) => f.endsWith(".md") && !/\/(cases|gold)\//.test(f),
      ),
    ];
// This script names the forms it refuses; it is not itself a citation of them.
const self = path.relative(ROOT, import.meta.filename);
const problems = files.filter((f) => f !== self).flatMap(checkFile);
for (const p of problems) console.error(p);
console.log(`check-citations: ${problems.length} problem(s) in ${files.length} files`);
process.exitCode = problems.length > 0 ? 1 : 0;

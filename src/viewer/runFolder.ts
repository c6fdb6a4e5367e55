/**
 * One results folder as the viewer reads it (docs/VIEWER.md "What it reads"): `instances.jsonl`
 * indexed by byte offset, a few fields of each line kept in memory and the rest read back on demand,
 * and only the manifest of `results.json` (the part before `"summary"`). A folder without
 * instances.jsonl (one of `questbench report`'s `runs/<model>/`) is read from its results.json whole.
 * The folder's files are written by the results recorder (src/results/folder.ts): lines are appended
 * while a run goes and the file is replaced by a rename when it ends, so {@link RunFolder.refresh}
 * reads only what was appended and starts over when the file was replaced.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { INSTANCES_FILE, RESULTS_FILE } from "../results/folder.ts";
import { instanceKey } from "../results/instanceOrder.ts";
import { runLabel } from "../results/merge.ts";
import type { InstanceResult, RunManifest, RunResults } from "../results/types.ts";

/**
 * What the viewer keeps in memory of one instance: what its tables, filters and leaderboard read.
 * Field names and meanings are those of `InstanceResult` (src/results/types.ts); `id` numbers the
 * folder's instances in the order first seen and stays with the instance (task, seed, epoch) when a
 * later line replaces it.
 */
export type InstanceHead = Pick<
  InstanceResult,
  | "taskId"
  | "split"
  | "set"
  | "category"
  | "subcategory"
  | "pattern"
  | "seed"
  | "epoch"
  | "score"
  | "passed"
  | "safety"
> & {
  id: number;
  failure: { class: string } | null;
  /** `execution.costBps` and `execution.gasRatio` (basis points of notional; gas used / the gold's), when recorded. */
  execution?: { costBps: number | null; gasRatio: number | null } | undefined;
};

/** The manifest fields the viewer shows: model, seed, epochs, start time and whether the sandbox was unsafe. */
export type RunInfo = {
  model: string;
  seed: number | null;
  epochs: number | null;
  startedAt: string | null;
  unsafeSandbox: boolean;
  /** results.json exists and was not written by an interrupted run. */
  finished: boolean;
};

type Location = { offset: number; length: number } | InstanceResult;

// Most of a line's bytes are the prompt, the reply and a composite's transcript, which the index
// never reads: those values are skipped by a scan for their ends (strings skipped by a native search
// for the closing quote) and only the rest is parsed. An unescaped `,"key":` can only be a key, and
// removing a key with its value from an object leaves valid JSON, so whatever the order of the
// fields the text parsed is the instance without them; when it does not parse, the whole line is.
const BULKY = ["prompt", "response", "composite", "checks", "timings", "transaction", "params"].map((k) =>
  Buffer.from(`,"${k}":`),
);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index after the JSON string starting at `pos` (its opening quote), or -1. */
function skipString(buf: Buffer, pos: number): number {
  for (let i = pos + 1; ; ) {
    const q = buf.indexOf(QUOTE, i);
    if (q === -1) return -1;
    let slashes = 0;
    while (buf[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The index after the JSON value starting at `pos` (before `end`), or -1. */
function skipValue(buf: Buffer, pos: number, end: number): number {
  let depth = 0;
  for (let i = pos; i < end; ) {
    const c = buf[i];
    if (c === QUOTE) {
      i = skipString(buf, i);
      if (i === -1 || i > end) return -1;
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || c === 0x7d)) return i;
    i++;
  }
  return -1;
}

// results.json is two-space JSON: the manifest ends where the summary begins.
const SUMMARY = ',\n  "summary": ';
const HEAD_LIMIT = 8 << 20;

function headOf(x: Record<string, unknown>, id: number): InstanceHead | undefined {
  if (typeof x.taskId !== "string" || typeof x.score !== "number" || typeof x.epoch !== "number")
    return undefined;
  const failure = x.failure as { class?: string } | null | undefined;
  const execution = x.execution as InstanceHead["execution"] | undefined;
  return {
    id,
    taskId: x.taskId,
    split: x.split as InstanceHead["split"],
    set: (x.set as InstanceHead["set"]) ?? "paper",
    category: String(x.category ?? ""),
    subcategory: String(x.subcategory ?? ""),
    pattern: x.pattern as string | undefined,
    seed: Number(x.seed),
    epoch: x.epoch,
    score: x.score,
    passed: x.passed === true,
    safety: x.safety as InstanceHead["safety"],
    failure: failure?.class ? { class: failure.class } : null,
    execution: execution
      ? { costBps: execution.costBps ?? null, gasRatio: execution.gasRatio ?? null }
      : undefined,
  };
}

/** The fields of one line but its {@link BULKY} ones, else the whole line; undefined for a line cut short. */
function parseLine(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  const cuts: [number, number][] = [];
  // Searched in the line alone: a key missing from it would otherwise be looked for to the file's end.
  const line = buf.subarray(start, end);
  for (const key of BULKY) {
    const found = line.indexOf(key);
    if (found === -1) continue;
    const at = start + found;
    const after = skipValue(buf, at + key.length, end);
    if (after !== -1) cuts.push([at, after]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let text = "";
  let from = start;
  for (const [a, b] of cuts) {
    if (a < from) continue; // inside a value already cut
    text += buf.toString("utf8", from, a);
    from = b;
  }
  text += buf.toString("utf8", from, end);
  try {
    const x = JSON.parse(text) as Record<string, unknown>;
    if (typeof x.score === "number") return x;
  } catch {
    // parse the whole line
  }
  try {
    return JSON.parse(buf.toString("utf8", start, end));
  } catch {
    return undefined; // a line cut short by a kill
  }
}

/** A results folder, read incrementally. Not thread-safe; one per folder per process. */
export class RunFolder {
  readonly dir: string;
  private readonly heads: InstanceHead[] = [];
  private readonly locations: Location[] = [];
  private readonly ids = new Map<string, number>();
  private offset = 0;
  private inode = -1;
  private resultsMtime = -1;
  private manifest: Partial<RunManifest> | undefined;
  private interrupted = false;
  private firstModel: string | undefined;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** The instances read so far, latest line of each (task, seed, epoch), by id. */
  get instances(): readonly InstanceHead[] {
    return this.heads;
  }

  /** Model, seed, epochs and start time from results.json's manifest, else the first instance's model. */
  get info(): RunInfo {
    const m = this.manifest;
    return {
      model: m?.model
        ? runLabel({ model: m.model, modes: m.modes })
        : (this.firstModel ?? path.basename(this.dir)),
      seed: m?.seed ?? null,
      epochs: m?.epochs ?? null,
      startedAt: m?.startedAt ?? null,
      unsafeSandbox: m?.sandbox?.unsafe !== undefined,
      finished: m !== undefined && !this.interrupted,
    };
  }

  /**
   * Reads what changed since the last call: lines appended to instances.jsonl (a last line without
   * its newline waits for the next call), the whole file again when it was replaced, and the
   * manifest when results.json changed.
   * @returns the heads added or replaced, and whether the run's manifest changed.
   */
  refresh(): { changed: InstanceHead[]; manifestChanged: boolean } {
    const manifestChanged = this.readManifest();
    const jsonl = path.join(this.dir, INSTANCES_FILE);
    let changed: InstanceHead[] = [];
    if (existsSync(jsonl)) changed = this.readLines(jsonl);
    else if (manifestChanged && this.locations.every((l) => !("offset" in l))) changed = this.readWhole();
    return { changed, manifestChanged };
  }

  /**
   * One instance as recorded (src/results/types.ts `InstanceResult`), read from its line.
   * @throws {RangeError} for an id this folder does not have.
   */
  instance(id: number): InstanceResult {
    const at = this.locations[id];
    if (at === undefined) throw new RangeError(`no instance ${id} in ${this.dir}`);
    if (!("offset" in at)) return at;
    const fd = openSync(path.join(this.dir, INSTANCES_FILE), "r");
    try {
      const buf = Buffer.alloc(at.length);
      readSync(fd, buf, 0, at.length, at.offset);
      return JSON.parse(buf.toString("utf8")) as InstanceResult;
    } finally {
      closeSync(fd);
    }
  }

  private put(x: Record<string, unknown>, at: Location): InstanceHead | undefined {
    const key = instanceKey(x as Pick<InstanceResult, "taskId" | "seed" | "epoch">);
    const id = this.ids.get(key) ?? this.heads.length;
    const head = headOf(x, id);
    if (!head) return undefined;
    this.firstModel ??= typeof x.model === "string" ? x.model : undefined;
    this.ids.set(key, id);
    this.heads[id] = head;
    this.locations[id] = at;
    return head;
  }

  private readLines(file: string): InstanceHead[] {
    const st = statSync(file);
    if (st.ino !== this.inode || st.size < this.offset) {
      this.inode = st.ino;
      this.offset = 0;
    }
    if (st.size === this.offset) return [];
    const fd = openSync(file, "r");
    let buf: Buffer;
    try {
      buf = Buffer.alloc(st.size - this.offset);
      readSync(fd, buf, 0, buf.length, this.offset);
    } finally {
      closeSync(fd);
    }
    const changed = new Map<number, InstanceHead>();
    let start = 0;
    for (let nl = buf.indexOf(10); nl !== -1; start = nl + 1, nl = buf.indexOf(10, start)) {
      if (nl === start) continue;
      const x = parseLine(buf, start, nl);
      const head = x && this.put(x, { offset: this.offset + start, length: nl - start });
      if (head) changed.set(head.id, head);
    }
    this.offset += start;
    return [...changed.values()];
  }

  private readWhole(): InstanceHead[] {
    let results: RunResults;
    try {
      results = JSON.parse(readFileSync(path.join(this.dir, RESULTS_FILE), "utf8")) as RunResults;
    } catch {
      return [];
    }
    return (results.instances ?? []).flatMap((i) => {
      const head = this.put(i as unknown as Record<string, unknown>, i);
      return head ? [head] : [];
    });
  }

  /** Reads results.json's manifest when the file changed; true when it did. */
  private readManifest(): boolean {
    const file = path.join(this.dir, RESULTS_FILE);
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      return false;
    }
    if (mtime === this.resultsMtime) return false;
    this.resultsMtime = mtime;
    const head = readHead(file);
    if (head) {
      this.manifest = head.manifest;
      this.interrupted = head.interrupted === true;
    }
    return true;
  }
}

/** results.json's fields before `summary` (schema version, interrupted, manifest), read in chunks. */
function readHead(file: string): Pick<RunResults, "manifest" | "interrupted"> | undefined {
  const fd = openSync(file, "r");
  try {
    let text = "";
    const chunk = Buffer.alloc(1 << 16);
    for (let pos = 0; pos < HEAD_LIMIT; ) {
      const n = readSync(fd, chunk, 0, chunk.length, pos);
      if (n === 0) break;
      pos += n;
      text += chunk.toString("latin1", 0, n);
      const cut = text.indexOf(SUMMARY);
      if (cut !== -1)
        return JSON.parse(Buffer.from(`${text.slice(0, cut)}}`, "latin1").toString("utf8")) as RunResults;
    }
  } catch {
    // not two-space JSON, or not JSON at all: read whole below
  } finally {
    closeSync(fd);
  }
  try {
    return JSON.parse(readFileSync(file, "utf8")) as RunResults;
  } catch {
    return undefined;
  }
}

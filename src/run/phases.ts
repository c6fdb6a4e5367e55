import { appendFileSync, readFileSync } from "node:fs";

/**
 * Where a run's wall time goes, across the processes of one run (the CLI, Vitest's worker, the
 * sandbox children's parent): with `QUESTBENCH_PHASES=<file>` set, each {@link phase} appends
 * `<name>\t<epoch ms>` to the file; {@link renderPhases} turns the file into a breakdown. Off (a
 * no-op) without the variable. Used by `npm run bench` and to find the author's-loop fixed cost.
 */
export function phase(name: string, atEpochMs = performance.timeOrigin + performance.now()): void {
  const file = process.env.QUESTBENCH_PHASES;
  if (!file) return;
  appendFileSync(file, `${name}\t${atEpochMs.toFixed(1)}\n`);
}

/** The marks of a phases file, in time order: each with the ms since the first mark and since the previous one. */
export function readPhases(file: string): { name: string; atMs: number; deltaMs: number }[] {
  const marks = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name, at] = line.split("\t");
      return { name: name!, at: Number(at) };
    })
    .sort((a, b) => a.at - b.at);
  return marks.map((m, i) => ({
    name: m.name,
    atMs: Math.round(m.at - marks[0]!.at),
    deltaMs: Math.round(m.at - (marks[i - 1]?.at ?? m.at)),
  }));
}

/** One line per mark: time since start, time since the previous mark, name. */
export function renderPhases(marks: ReturnType<typeof readPhases>): string {
  return marks
    .map((m) => `${String(m.atMs).padStart(7)} ms  +${String(m.deltaMs).padStart(6)} ms  ${m.name}`)
    .join("\n");
}

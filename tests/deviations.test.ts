import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseRunFlags } from "../src/runOptions.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";

/**
 * docs/DEVIATIONS.md, row by row: each row's last column names the code it describes, and this file
 * checks every name against the code, so a changed constant, flag or default fails here until the
 * row is made true again.
 */

const page = readFileSync(path.join(PROJECT_ROOT, "docs/DEVIATIONS.md"), "utf8");
const HEADER = "| area | the paper (§) / its implementation | here | why | restores the paper's | code |";

/** The table's rows as [area, code cell]; an escaped \| inside a cell is not a column break. */
function rows(): { area: string; code: string }[] {
  const lines = page.split("\n");
  const start = lines.indexOf(HEADER);
  if (start === -1) throw new Error("docs/DEVIATIONS.md has no deviations table");
  const body = lines.slice(start + 2).filter((l) => l.startsWith("| "));
  return body.map((line) => {
    const cells = line
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((c) => c.trim());
    return { area: cells[0]!, code: cells.at(-1)! };
  });
}

/** How a value is written in the table: JSON, bigints as `123n`, sets as their JSON list. */
function written(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Set) return JSON.stringify([...v]);
  if (v instanceof RegExp) return String(v);
  return JSON.stringify(v);
}

const at = (o: unknown, dotted: string) =>
  dotted.split(".").reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o);

const CONSTANT = /`([\w.]+)` = `([^`]*)` \(`(src\/[\w/.]+\.ts)`\)/g;
const FLAG = /`(--[\w-]+(?: [^`]+)?|\(no flag\))` → `([\w.]+)` = `([^`]*)`/g;
const EXPORT = /`(\w+)` \(`(src\/[\w/.]+\.ts)`\)/g;

describe("docs/DEVIATIONS.md: every row names code that holds what it says", () => {
  const table = rows();

  test("the table has its rows, each naming a constant, a flag or an export", () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
    for (const { area, code } of table)
      expect(
        [...code.matchAll(CONSTANT), ...code.matchAll(FLAG), ...code.replace(CONSTANT, "").matchAll(EXPORT)]
          .length,
        area,
      ).toBeGreaterThan(0);
  });

  test.each(table.map((r) => [r.area, r.code]))("%s", async (area, code) => {
    for (const [, name, value, file] of code.matchAll(CONSTANT)) {
      const module = await import(path.join(PROJECT_ROOT, file!));
      expect(written(at(module, name!)), `${area}: ${name} in ${file}`).toBe(value);
    }
    for (const [, flag, field, value] of code.matchAll(FLAG)) {
      const argv = flag === "(no flag)" ? [] : flag!.split(" ");
      expect(written(at(parseRunFlags(argv), field!)), `${area}: ${flag} → ${field}`).toBe(value);
    }
    // Names without a value: what is left once the constants are taken out.
    for (const [, name, file] of code.replace(CONSTANT, "").matchAll(EXPORT)) {
      const module = await import(path.join(PROJECT_ROOT, file!));
      expect(module[name!], `${area}: ${name} exported by ${file}`).toBeDefined();
    }
  });
});

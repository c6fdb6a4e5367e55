import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Split, TaskSpec } from "./types.ts";

/**
 * A task folder's gold answer as the model would have written it (docs/TASKS.md "Task folders"), plus the files read.
 * Atomic: `gold.ts` → one fenced `ts` response. Composite: `gold/plan.md` (the plan response as is),
 * then per round `gold/round-N.ts` (the module) and/or `gold/round-N.json` (the control JSON), joined
 * as a reply carrying a `ts` block, then a `json` block. `{{param}}` placeholders sit inside string
 * literals or comments so tsc and Biome check the modules; they are filled per instance.
 */
export function readGold(dir: string, split: Split): { reference?: TaskSpec["reference"]; files: string[] } {
  const files: string[] = [];
  const read = (name: string) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) return undefined;
    files.push(file);
    return readFileSync(file, "utf8");
  };
  if (split === "atomic") {
    const code = read("gold.ts");
    return { reference: code === undefined ? undefined : { response: fence("ts", code) }, files };
  }
  const plan = read(path.join("gold", "plan.md"));
  const rounds: string[] = [];
  for (let n = 1; ; n++) {
    const code = read(path.join("gold", `round-${n}.ts`));
    const control = read(path.join("gold", `round-${n}.json`));
    if (code === undefined && control === undefined) break;
    rounds.push(
      [code === undefined ? [] : [fence("ts", code)], control === undefined ? [] : [fence("json", control)]]
        .flat()
        .join("\n\n"),
    );
  }
  if (plan === undefined && rounds.length === 0) return { files };
  return { reference: { plan: plan?.replace(/\n$/, ""), rounds }, files };
}

function fence(lang: string, body: string): string {
  return `\`\`\`${lang}\n${body.endsWith("\n") ? body : `${body}\n`}\`\`\``;
}

import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { taskById, useAttempts } from "./helpers/attempts.ts";

// Right answers written in different valid styles (tests/styles/<style>/<task-id>.md, run through
// `scripted:`): viem instead of ethers, value as hex / decimal string / number / bigint, gas limit
// given or not, EIP-1559 or legacy fee fields, Contract.interface and populateTransaction, extra
// from/nonce/chainId fields. Each must score exactly 100: the checks judge the effect, not the style.
const attempt = useAttempts(2);
const root = path.join(import.meta.dirname, "styles");
const styles = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(path.join(root, d.name))
      .filter((f) => f.endsWith(".md"))
      .map((f) => ({ style: d.name, taskId: f.replace(/\.md$/, "") })),
  );

describe.concurrent("correct answers in any valid style score 100", () => {
  test("every style file names a known task", () => {
    const unknown = styles.filter((s) => !taskById.has(s.taskId));
    expect(unknown).toEqual([]);
  });
  for (const s of styles) {
    for (const seed of [1, 2]) {
      test(`${s.taskId} · ${s.style} · seed ${seed}`, async () => {
        const result = await attempt(s.taskId, `scripted:${path.join(root, s.style)}`, seed);
        expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
        expect(result.score).toBe(100);
      });
    }
  }
});

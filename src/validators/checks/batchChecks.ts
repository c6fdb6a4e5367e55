import { decodeFunctionData } from "viem";
import { MULTICALL3_ABI } from "../abi.ts";
import { defineCheck } from "../types.ts";
import { callFrames } from "./traces.ts";

/**
 * An all-or-nothing batch (a request that says "either every payment happens or none"): every
 * Multicall3 batch the attempt sent, at any depth, lets no call fail — no `allowFailure = true` in
 * aggregate3 / aggregate3Value, no `requireSuccess = false` in tryAggregate / tryBlockAndAggregate.
 * A batch that happened to succeed with failures allowed is still the wrong request: its effect is
 * right only when nothing fails.
 */
export const batchAllOrNothing = defineCheck({
  description:
    "Every Multicall3 batch of the attempt (at any depth) lets no call fail: no allowFailure = true, no requireSuccess = false.",
  args: {},
  example: {},
  build: () => ({
    async evaluate(ctx) {
      const multicall3 = ctx.world.contracts.multicall3.toLowerCase();
      const loose: string[] = [];
      let batches = 0;
      for (const tx of ctx.txs) {
        if (tx.receipt.status !== "success") continue;
        for (const frame of await callFrames(ctx, tx)) {
          if (frame.to.toLowerCase() !== multicall3 || frame.type === "STATICCALL") continue;
          let decoded: { functionName: string; args: readonly unknown[] };
          try {
            decoded = decodeFunctionData({ abi: MULTICALL3_ABI, data: frame.input }) as never;
          } catch {
            continue; // a read helper (getEthBalance, …): no batch
          }
          batches++;
          const { functionName: fn, args } = decoded;
          if (fn === "aggregate3" || fn === "aggregate3Value") {
            const allowed = (args[0] as { allowFailure: boolean }[]).filter((c) => c.allowFailure).length;
            if (allowed > 0) loose.push(`${fn} with allowFailure = true on ${allowed} call(s)`);
          } else if ((fn === "tryAggregate" || fn === "tryBlockAndAggregate") && args[0] === false)
            loose.push(`${fn} with requireSuccess = false`);
        }
      }
      if (batches === 0) return { passed: false, detail: "no Multicall3 batch was sent" };
      return loose.length
        ? { passed: false, detail: `a batch lets calls fail: ${loose.join("; ")}` }
        : { passed: true, detail: `${batches} batch(es), none lets a call fail` };
    },
  }),
});

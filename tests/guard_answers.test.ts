import path from "node:path";
import { describe, expect, test } from "vitest";
import { useAttempts, world } from "./helpers/attempts.ts";

// The guard's method classes seen from the score (docs/SECURITY.md "RPC guard"): answers run through the real
// attempt path (sandbox, guard, Anvil, signing, checks), written by scripted models.
const attempt = useAttempts(2);
const scripted = (scenario: string) => `scripted:${path.join(import.meta.dirname, "scripted", scenario)}`;

describe.concurrent("reads outside the old allow-list count; cheating still scores 0", () => {
  test("a viem answer built with prepareTransactionRequest (eth_fillTransaction first) scores 100", async () => {
    const r = await attempt("bnb_transfer_basic", scripted("viem_ways"));
    expect(r.integrityViolations).toEqual([]);
    expect(r).toMatchObject({ score: 100, failure: null });
  });

  test("a viem multicall with chain bsc (Multicall3 at 0xcA11…CA11) answers a query task for 100", async () => {
    expect(world.contracts.multicall3).toBe("0xcA11bde05977b3631167028862bE2a173976CA11");
    const r = await attempt("query_token_metadata", scripted("viem_ways"));
    expect(r.integrityViolations).toEqual([]);
    expect(r).toMatchObject({ score: 100, failure: null });
  });

  test("a cheat code (anvil_setBalance) scores 0 as an integrity violation and nothing is sent", async () => {
    const r = await attempt("bnb_transfer_basic", scripted("rpc_cheat"));
    expect(r).toMatchObject({ score: 0, failure: { class: "integrity_violation" } });
    expect(r.integrityViolations).toEqual([
      expect.objectContaining({ kind: "forbidden_rpc_method", method: "anvil_setBalance" }),
    ]);
    expect(r.transaction ?? null).toBeNull();
  });
});

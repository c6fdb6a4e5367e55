/**
 * One instance as the viewer's detail panel shows it (docs/VIEWER.md "An instance"): the recorded
 * result unchanged, plus what a reader would otherwise work out by hand — the module of each reply,
 * each transaction's calldata decoded with the world's ABIs (src/reporting/html.ts `decodeCalldata`),
 * and wei amounts in token units.
 */
import { extractModule } from "../protocol/parse.ts";
import { decodeCalldata, tokenAmount } from "../reporting/html.ts";
import type { InstanceResult, TransactionRecord } from "../results/types.ts";

/** A transaction's readable parts: the decoded call, its value and fee in BNB. */
export type TransactionView = { call: string; value: string; fee: string };

/**
 * `InstanceResult` (src/results/types.ts) with `view`: the module (the reply's TypeScript block, null
 * when it has none), the transaction decoded, the same per composite round, and the execution
 * cost's values in USDT (the ledgers' net change of the agent, priced at the world's pools,
 * docs/SCORING.md "Execution cost").
 */
export type ViewerInstance = InstanceResult & {
  view: {
    module: string | null;
    transaction?: TransactionView | undefined;
    rounds: { module: string | null; transaction?: TransactionView | undefined }[];
    execution?: { value: string; goldValue: string; fees?: string; goldFees?: string } | undefined;
  };
};

const moduleOf = (response: string): string | null => {
  const m = extractModule(response);
  return m.ok ? m.code : null;
};

const txView = (tx: TransactionRecord | undefined): TransactionView | undefined =>
  tx && {
    call: decodeCalldata(tx.input, tx.to),
    value: tokenAmount(tx.value, "BNB"),
    fee: tokenAmount(tx.fee, "BNB"),
  };

const amount = (wei: string | undefined, symbol: string) => {
  if (wei === undefined) return undefined;
  try {
    return tokenAmount(wei, symbol);
  } catch {
    return wei;
  }
};

/** The instance with its `view` added (pure; the instance is not changed). */
export function viewerInstance(instance: InstanceResult): ViewerInstance {
  const e = instance.execution;
  return {
    ...instance,
    view: {
      module: moduleOf(instance.response ?? ""),
      transaction: txView(instance.transaction),
      rounds: (instance.composite?.rounds ?? []).map((r) => ({
        module: moduleOf(r.response ?? ""),
        transaction: txView(r.transaction),
      })),
      execution: e && {
        value: amount(e.value, "USDT")!,
        goldValue: amount(e.goldValue, "USDT")!,
        ...(e.fees ? { fees: amount(e.fees, "BNB")! } : {}),
        ...(e.goldFees ? { goldFees: amount(e.goldFees, "BNB")! } : {}),
      },
    },
  };
}

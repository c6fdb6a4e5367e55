import type { SamplingSettings } from "../models/types.ts";
import type { RunModes } from "../runOptions.ts";

/**
 * results.json `manifest`: what a reader needs to reproduce or compare a run (docs/RUNNING.md "The
 * output folder"): versions, seed, world, task files and their sha256, the sandbox, the provider and
 * what the last invocation selected.
 */
export type RunManifest = {
  packageVersion: string;
  gitCommit: string | null;
  seed: number;
  epochs: number;
  model: string;
  split: "atomic" | "composite" | "paper" | "hard" | "all";
  taskFiles: Record<string, string>;
  anvilVersion: string;
  worldId: string;
  chainId: number;
  nodeVersion: string;
  startedAt: string;
  /** Fork mode (README "Fork mode"): what was forked and how it was provisioned; absent on the local world. */
  fork?: ForkRecord | null;
  /**
   * The OS barriers around sandboxed model code on the machine that ran (docs/SECURITY.md): without
   * them a run of an untrusted model is not trustworthy.
   */
  sandbox?: {
    /** `node-permission` / `iptables-owner`: sandboxed code reaches only its RPC guard; `none`: no network barrier. */
    network: { kind: string; detail: string };
    /** `cgroup-v1`/`cgroup-v2`: a whole-process memory cap per child; `none`: V8's heap cap only. */
    memory: { kind: string; detail: string };
    /** Present when the run was started with `--unsafe-sandbox`: the barriers it ran without (may be empty). */
    unsafe?: string[];
  };
  /**
   * Prompt and selection modes of the paper's implementation (README "Comparing with the paper");
   * absent or all-default for the default protocol. Runs of different modes are not merged by
   * `questbench report` without `--force`.
   */
  modes?: RunModes | undefined;
  /**
   * The task packs the run added (`--tasks-dir`, absolute folders; README "Write your own task"):
   * their tasks' files and hashes are in `taskFiles` under their absolute paths.
   */
  taskPacks?: string[] | undefined;
  /** Provider models: where the model was called and at what price (null for reference and scripted). */
  provider?: {
    name: string;
    api: "openai" | "anthropic";
    modelId: string;
    baseURL: string;
    /** USD per million tokens, from src/models/registry.json; null when the registry has no price. */
    price: { input: number; output: number } | null;
    pricesAsOf: string | null;
  } | null;
  /** Provider models: the sampling settings sent (null = not sent, the provider's default applied). */
  sampling?: SamplingSettings | null;
  /**
   * What the invocation that last wrote this results.json selected and did. results.json describes
   * every instance in its folder (README "Running": a run adds to the folder's results); `split` and
   * `epochs` above cover all of them.
   */
  selection?: RunSelection | undefined;
  /** Provider models: response cache mode and directory, SDK retries, per-try timeout. */
  modelCalls?: {
    cache: string;
    cacheDir: string;
    maxRetries: number;
    timeoutMs: number;
    budgetUsd: number | null;
    /** Requests in flight to the provider at once; null: no cap beyond `--concurrency`. */
    providerConcurrency?: number | null;
  } | null;
};

/** results.json `manifest.selection`: one invocation's selection and what became of it. */
export type RunSelection = {
  /** `--split` as resolved (the paper's split by default; every split with `--tasks`). */
  split: "atomic" | "composite" | "paper" | "hard" | "all";
  /** `--tasks` (empty: every task of the split). */
  tasks: string[];
  epochs: number;
  shard?: { index: number; count: number } | undefined;
  /** Instances this invocation planned (tasks × epochs, after `--sample` and `--shard`). */
  planned: number;
  /** Of them: attempted now (scored, or left unscored by a provider or chain failure). */
  ran: number;
  /** Of them: kept from an earlier invocation with the same resume key, not run again. */
  resumed: number;
  /** Instances of earlier invocations in the folder that this one did not select, kept as they were. */
  kept: number;
  /**
   * USD this invocation paid the provider: calls answered from the cache and resumed instances cost
   * it nothing. Null for a model without a price; 0 for reference and scripted models.
   */
  paidUsd: number | null;
};

/** results.json `manifest.fork`: the pinned block of a fork run and what provisioning found. */
export type ForkRecord = {
  chainId: number;
  /** The block forked (`--fork-block latest` resolved once at the start of the run). */
  blockNumber: number;
  blockHash: string;
  /** `--fork-url` with credentials redacted (userinfo, query values, key-like path segments → ***). */
  url: string;
  /** Storage slots of the canonical tokens found by probing (null: not found). */
  slots: Record<
    string,
    {
      balance: { slot: number; layout: "solidity" | "vyper"; offset: number } | null;
      allowance: { slot: number; layout: "solidity" | "vyper" } | null;
    }
  >;
  /** Requirements of the world catalogue (docs/TASKS.md "Fork provisioning") that could not be provisioned (empty when every one was). */
  unprovisioned: { id: string; detail: string }[];
  /** Milliseconds spent probing slots and provisioning in all (first instance). */
  timings: { probeMs: number; provisionMs: number };
};

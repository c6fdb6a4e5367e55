// Reading and merging runs is the results recorder's (src/results/load.ts, src/results/merge.ts;
// docs/ARCHITECTURE.md "Results"); re-exported for the report and the run's folder check.
export { loadRuns } from "../results/load.ts";
export { describeModes, type LoadedRun, type MergedRun, MergeError, mergeRuns } from "../results/merge.ts";

import type { InstanceResult } from "./types.ts";

/**
 * One instance of a folder's results: task, seed and epoch (docs/RUNNING.md "The output folder": a
 * run adds instances to its folder by this key; a later result of the same key replaces an earlier).
 */
export const instanceKey = (i: Pick<InstanceResult, "taskId" | "seed" | "epoch">): string =>
  `${i.taskId}\u0000${i.seed}\u0000${i.epoch}`;

/**
 * results.json's instance order: the paper's tasks, then the hard split; atomic, composite; task id,
 * seed, epoch. A comparator for `Array.prototype.sort` (negative, 0, positive).
 */
export function byInstanceOrder(a: InstanceResult, b: InstanceResult): number {
  const order = (i: InstanceResult) =>
    `${i.set === "hard" ? 1 : 0}/${i.split === "atomic" ? 0 : 1}/${i.taskId}/${String(i.seed).padStart(6, "0")}/${String(i.epoch).padStart(4, "0")}`;
  return order(a).localeCompare(order(b));
}

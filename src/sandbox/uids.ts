import { SandboxError } from "../errors.ts";
import { SANDBOX_UIDS } from "./networkBarrier.ts";

/** uids of this process's live children; a new child never shares one with a live child. */
const uidsInUse = new Set<number>();
let nextUid = SANDBOX_UIDS.first + Math.floor(Math.random() * SANDBOX_UIDS.count);

/** True when the harness runs as root: only then does each child get a uid of its own. */
export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * A uid of {@link SANDBOX_UIDS} no live child of this process holds. The walk starts at a random
 * point, so harness processes running side by side (Vitest workers, parallel runs) are unlikely to
 * meet; within one process uids are never shared while a child lives (docs/SECURITY.md, "User").
 */
export function allocateSandboxUid(): number {
  for (let tries = 0; tries < SANDBOX_UIDS.count; tries++) {
    const uid = nextUid;
    nextUid = SANDBOX_UIDS.first + ((nextUid - SANDBOX_UIDS.first + 1) % SANDBOX_UIDS.count);
    if (!uidsInUse.has(uid)) {
      uidsInUse.add(uid);
      return uid;
    }
  }
  throw new SandboxError("Every sandbox uid is in use.");
}

/** Returns a uid from {@link allocateSandboxUid} once its process is gone. */
export function releaseSandboxUid(uid: number): void {
  uidsInUse.delete(uid);
}

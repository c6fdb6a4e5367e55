import { disposeAllChildren, type SandboxChild, spawnChild } from "./childProcess.ts";
import { type SandboxStage, sandboxStage } from "./stage.ts";

/** V8 heap cap in MiB of an execution that names none; warm children are booted with it. */
export const DEFAULT_MEMORY_MB = 256;

let warmSize = 2;
const warm: SandboxChild[] = [];
let exitHookInstalled = false;

/**
 * How many sandbox children this process keeps booted ahead of need (default 2; 0 turns the warm
 * pool off). A warm child has started Node under the permission model and preloaded the ethers
 * bundle, and waits for its one module: an execution then skips ~100–250 ms of boot on its critical
 * path. Every child still runs exactly one module and is killed afterwards; nothing is reused.
 */
export function setWarmSandboxChildren(count: number): void {
  warmSize = Math.max(0, Math.floor(count));
  while (warm.length > warmSize) warm.pop()?.dispose();
}

/**
 * Boots the warm pool now instead of at the first execution, so that execution finds a child ready
 * (a boot is ~120 ms of Node start and ethers preload; it then overlaps the chain lease and the
 * pre-state reads). Returns at once; a boot failure is reported by the execution that needs the child.
 */
export function fillWarmSandboxChildren(): void {
  if (warmSize === 0) return;
  sandboxStage().then(refillWarm, () => {});
}

/** Boots children until the warm pool holds `warmSize` (each booting in the background). */
function refillWarm(stage: SandboxStage): void {
  installExitHook();
  while (warm.length < warmSize) warm.push(spawnChild(DEFAULT_MEMORY_MB, stage));
}

/**
 * A ready child for one execution: a warm one when the execution asks for the default heap cap,
 * else a fresh one; the warm pool is refilled behind it.
 * @throws {SandboxError} when the child cannot be spawned or died before it was ready.
 */
export async function takeChild(memoryMb: number, stage: SandboxStage): Promise<SandboxChild> {
  installExitHook();
  let child: SandboxChild | undefined;
  if (memoryMb === DEFAULT_MEMORY_MB) {
    // Skip children that died while idle (killed from outside): they are replaced, not used.
    while (warm.length > 0 && !child) {
      const candidate = warm.shift()!;
      if (candidate.alive()) child = candidate;
      else candidate.dispose();
    }
  }
  child ??= spawnChild(memoryMb, stage);
  if (memoryMb === DEFAULT_MEMORY_MB) refillWarm(stage);
  child.claim();
  try {
    await child.ready;
  } catch (error) {
    child.dispose();
    throw error;
  }
  return child;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Idle children would see stdin close and leave on their own; their folders would not. A child
  // still running a module would run on unwatched: every child goes.
  process.on("exit", () => {
    warm.splice(0);
    disposeAllChildren();
  });
}

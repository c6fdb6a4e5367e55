// The descriptor barrier of the sandboxed child (docs/SECURITY.md, "Descriptors"). Node's permission
// model checks paths, never descriptors: a descriptor the harness's own launcher left open (a shell's
// `exec 7<secret`, a parent's pipe) would be inherited by `spawn`, and model code can wrap any open
// descriptor (`new (process.stdin.constructor)({ fd })`). The harness dup2s /dev/null over each of
// them at spawn (src/sandbox/inheritedFds.ts) and names them in the runner's config; they are closed
// here, before the preload and the module, so the child holds only fds 0–3 and Node's own.
import { closeSync } from "node:fs";

/** The descriptors the harness gives every child: stdin, stdout, stderr, the result channel. */
const STDIO_COUNT = 4;

/**
 * Closes each descriptor of `fds` (numbers ≥ 4; anything else is skipped, so fds 0–3 always stay).
 * A descriptor already closed is skipped (EBADF).
 * @param {unknown} fds the runner config's `closeFds`: descriptor numbers from the harness.
 */
export function closeInheritedFds(fds) {
  if (!Array.isArray(fds)) return;
  for (const fd of fds) {
    if (!Number.isSafeInteger(fd) || fd < STDIO_COUNT) continue;
    try {
      closeSync(fd);
    } catch {
      // EBADF: not open.
    }
  }
}

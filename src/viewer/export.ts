/**
 * The viewer as a static folder (docs/VIEWER.md "Sharing a static copy"): the front-end, the index
 * and one file per instance under the paths the server answers (src/viewer/server.ts), each JSON
 * document wrapped in a one-line script (`data/index.js`, `data/i/<run>/<id>.js`: `__qbLoad(path,
 * json)`), so the page works opened from disk, where a browser fetches no file, as well as from any
 * static file server. `data/index.json` is also written plain, for scripts. Nothing is live: the copy
 * shows the folders as they were when it was written.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { viewerInstance } from "./instanceView.ts";
import { STATIC_FILES, staticFile } from "./server.ts";
import { ViewerIndex } from "./viewerIndex.ts";

export type ExportViewerParameters = {
  /** Results folders, or folders holding some below them. */
  folders: readonly string[];
  /** The folder to write (created; files of the same names are replaced). */
  out: string;
};

/** What was written: runs, instances and files. */
export type ExportViewerReturnType = { runs: number; instances: number; files: number };

/** Writes the static viewer of `folders` into `out`. */
export function exportViewer(p: ExportViewerParameters): ExportViewerReturnType {
  const index = new ViewerIndex(p.folders);
  index.poll();
  const snapshot = index.snapshot(false);
  mkdirSync(path.join(p.out, "data"), { recursive: true });
  let files = 0;
  for (const { file } of Object.values(STATIC_FILES)) {
    const bytes = staticFile(file);
    writeFileSync(
      path.join(p.out, file),
      file === "index.html"
        ? bytes.toString("utf8").replace("<head>", '<head>\n<meta name="qb-static" content="1">')
        : bytes,
    );
    files++;
  }
  const script = (name: string, value: unknown) => {
    writeFileSync(
      path.join(p.out, name.replace(/\.json$/, ".js")),
      `__qbLoad(${JSON.stringify(name)},${JSON.stringify(value)});\n`,
    );
    files++;
  };
  writeFileSync(path.join(p.out, "data", "index.json"), JSON.stringify(snapshot));
  script("data/index.json", snapshot);
  files++;
  snapshot.runs.forEach((_, run) => {
    const folder = index.run(run)!;
    const dir = path.join(p.out, "data", "i", String(run));
    mkdirSync(dir, { recursive: true });
    for (const head of folder.instances) {
      script(`data/i/${run}/${head.id}.json`, viewerInstance(folder.instance(head.id)));
    }
  });
  return { runs: snapshot.runs.length, instances: snapshot.rows.length, files };
}

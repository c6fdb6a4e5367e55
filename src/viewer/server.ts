/**
 * The viewer's HTTP server (docs/VIEWER.md "Serving"): node:http on 127.0.0.1, the static front-end
 * of src/viewer/static, the index at `data/index.json`, one instance at `data/i/<run>/<id>.json`
 * and, while a run writes, updates as server-sent events at `data/events`. The same paths as the
 * static export (src/viewer/export.ts), so one front-end serves both.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { viewerInstance } from "./instanceView.ts";
import { type IndexUpdate, ViewerIndex } from "./viewerIndex.ts";

/** The front-end's files (src/viewer/static), by URL path, with their content types. */
export const STATIC_FILES: Record<string, { file: string; type: string }> = {
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
};

/** The bytes of one front-end file (`index.html`, `app.js` or `app.css`). */
export function staticFile(name: string): Buffer {
  return readFileSync(new URL(`./static/${name}`, import.meta.url));
}

export type StartViewerParameters = {
  /** Results folders, or folders holding some below them. */
  folders: readonly string[];
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** How often the folders are read for new instances while a browser listens, milliseconds (default 500). */
  pollMs?: number | undefined;
};

export type ViewerServer = {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** Stops polling, ends every event stream and closes the server. */
  close: () => Promise<void>;
};

const RECENT = 100;
const ROUTE = /^\/data\/i\/(\d+)\/(\d+)\.json$/;

/**
 * Starts the viewer on 127.0.0.1. The folders are read before it listens, again when a page asks for
 * the index, and every `pollMs` while some page listens to `data/events`: only appended bytes are read.
 * @throws the listen error (e.g. EADDRINUSE for a `port` in use).
 */
export async function startViewer(p: StartViewerParameters): Promise<ViewerServer> {
  const index = new ViewerIndex(p.folders);
  // Read the folders before listening, so the first page is not kept waiting for it.
  index.poll();
  const listeners = new Set<ServerResponse>();
  // The last updates, so a page that connects after its snapshot gets what it missed meanwhile.
  const recent: { seq: number; text: string }[] = [];
  const send = (update: IndexUpdate) => {
    const text = `data: ${JSON.stringify(update)}\n\n`;
    recent.push({ seq: update.seq, text });
    if (recent.length > RECENT) recent.shift();
    for (const res of listeners) res.write(text);
  };
  const poll = () => {
    const update = index.poll();
    if (update) send(update);
  };
  const timer = setInterval(() => {
    if (listeners.size > 0) poll();
  }, p.pollMs ?? 500);
  timer.unref();

  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const pathname = url.pathname === "/" ? "/index.html" : url.pathname;
    if (req.method !== "GET") {
      res.writeHead(405).end();
      return;
    }
    const file = STATIC_FILES[pathname];
    if (file) {
      res.writeHead(200, { "content-type": file.type, "cache-control": "no-cache" });
      res.end(staticFile(file.file));
      return;
    }
    if (pathname === "/data/index.json") {
      poll();
      json(res, index.snapshot(true));
      return;
    }
    if (pathname === "/data/events") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(": listening\n\n");
      // `since`: the seq of the page's snapshot. Updates after it are replayed, or, when some are no
      // longer kept, the page is told to load the index again.
      const since = Number(url.searchParams.get("since") ?? index.seq);
      if (since < index.seq) {
        const missed = recent.filter((u) => u.seq > since);
        if (missed[0]?.seq === since + 1) for (const u of missed) res.write(u.text);
        else res.write(`data: ${JSON.stringify({ reload: true })}\n\n`);
      }
      listeners.add(res);
      req.on("close", () => listeners.delete(res));
      return;
    }
    const m = ROUTE.exec(pathname);
    const run = m ? index.run(Number(m[1])) : undefined;
    if (m && run) {
      try {
        json(res, viewerInstance(run.instance(Number(m[2]))));
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(p.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      clearInterval(timer);
      for (const res of listeners) res.end();
      listeners.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// The RPC bridge, the child's side (docs/SECURITY.md, "RPC bridge"; the harness's side is
// src/sandbox/rpcBridge.ts). On a Node whose permission model denies the network every socket is
// refused, so `fetch` to providerUrl's origin is carried over the child's pipes instead:
// `{"type":"rpc",id,method,path,body}` on fd 3, answered by a `{"type":"rpc",id,status,headers,body}`
// line on stdin. The ethers and viem bundles use fetch (see libraryBundle.ts).
import {
  indexOf,
  mapDelete,
  mapGet,
  mapSet,
  mapSize,
  parseJson,
  SafeMap,
  SafePromise,
  stringify,
  stringSlice,
} from "./primordials.mjs";
import { send } from "./resultChannel.mjs";

const MAX_RPC_BODY_CHARS = 1024 * 1024;
/** providerUrl's origin once the input arrived; requests to it travel over the pipe. */
let bridgedOrigin;
const pendingRpc = new SafeMap();
let nextRpcId = 1;
let stdin;
let stdinRef;
let stdinUnref;
let SafeURL = URL;
let maxInFlight = 1;
let inFlight = 0;
/** Requests waiting for a slot: a queue over a Map (no Array method a module could replace). */
const waiting = new SafeMap();
let waitingHead = 0;
let waitingTail = 0;

// stdin keeps the event loop alive only while an answer is awaited (see the runner's beforeExit).
function refStdin() {
  if (mapSize(pendingRpc) > 0) stdinRef();
  else stdinUnref();
}

// At most maxInFlight requests are out at once (the harness refuses more, rpcBridge.ts); the others
// wait here, in the child's memory, in the order they were made.
function takeSlot(entry) {
  if (inFlight < maxInFlight) {
    inFlight++;
    entry.start();
  } else mapSet(waiting, waitingTail++, entry);
}

function releaseSlot() {
  inFlight--;
  while (waitingHead < waitingTail) {
    const entry = mapGet(waiting, waitingHead);
    mapDelete(waiting, waitingHead++);
    if (entry.cancelled) continue;
    inFlight++;
    entry.start();
    return;
  }
}

/** Sends one request to the harness; resolves with `{status, headers, body}`. */
function rpcOverPipe(method, path, body, signal) {
  return new SafePromise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const id = nextRpcId++;
    const entry = { cancelled: false, sent: false, start: undefined };
    const onAbort = () => {
      if (entry.sent)
        // Its slot stays taken until the harness answers: the harness still counts it in flight.
        mapSet(pendingRpc, id, releaseSlot);
      else entry.cancelled = true;
      reject(signal.reason);
    };
    entry.start = () => {
      entry.sent = true;
      mapSet(pendingRpc, id, (answer) => {
        signal?.removeEventListener("abort", onAbort);
        releaseSlot();
        resolve(answer);
      });
      refStdin();
      send(
        `{"type":"rpc","id":${id},"method":${stringify(String(method))},"path":${stringify(String(path))},"body":${stringify(String(body))}}`,
      );
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    takeSlot(entry);
  });
}

function onRpcAnswer(message) {
  const settle = mapGet(pendingRpc, message.id);
  if (!settle) return;
  mapDelete(pendingRpc, message.id);
  refStdin();
  settle(message);
}

function tooLargeAnswer() {
  return { status: 413, headers: {}, body: "" };
}

/**
 * Replaces `globalThis.fetch`: a request to the origin set by {@link bridgeTo} travels over the
 * pipes, at most `maxRpcInFlight` at once (the rest queue, in order; an aborted queued request
 * leaves the queue); a body over 1 MiB characters is answered 413 without asking; anything else
 * goes to Node's fetch, which the permission model refuses.
 * @param {unknown} maxRpcInFlight the runner config's cap, from rpcBridge.ts; 1 when not a positive integer.
 */
export function installRpcChannel(maxRpcInFlight) {
  maxInFlight = Number.isSafeInteger(maxRpcInFlight) && maxRpcInFlight > 0 ? maxRpcInFlight : 1;
  const realFetch = globalThis.fetch;
  const RealRequest = globalThis.Request;
  const RealResponse = globalThis.Response;
  SafeURL = URL;
  stdin = process.stdin;
  stdinRef = stdin.ref.bind(stdin);
  stdinUnref = stdin.unref.bind(stdin);
  globalThis.fetch = async function fetch(resource, init) {
    const request = new RealRequest(resource, init);
    const url = new SafeURL(request.url);
    // Anything else goes to Node's fetch, which the permission model refuses.
    if (bridgedOrigin === undefined || url.origin !== bridgedOrigin) return realFetch(resource, init);
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    const answer =
      body.length > MAX_RPC_BODY_CHARS
        ? tooLargeAnswer()
        : await rpcOverPipe(request.method, url.pathname + url.search, body, request.signal);
    const empty = answer.status === 204 || answer.status === 304 || answer.body === "";
    return new RealResponse(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  };
}

/** Bridges requests to `providerUrl`'s origin from now on; nothing when it is not a URL. */
export function bridgeTo(providerUrl) {
  try {
    bridgedOrigin = new SafeURL(providerUrl).origin;
  } catch {
    // Not a URL: nothing to bridge.
  }
}

/**
 * Reads the lines the harness writes on stdin: first the input, then the answers to bridged
 * requests. stdin ending (the harness is gone, whose timeout was this module's only clock and who
 * alone could read a result) ends the process, idle or running.
 * @returns {Promise<unknown>} the input line, parsed.
 */
export function readInput() {
  return new SafePromise((resolve) => {
    let text = "";
    let gotInput = false;
    stdin.setEncoding("utf8");
    stdin.on("data", (chunk) => {
      text += chunk;
      for (let newline = indexOf(text, "\n"); newline !== -1; newline = indexOf(text, "\n")) {
        const line = stringSlice(text, 0, newline);
        text = stringSlice(text, newline + 1);
        const message = parseJson(line);
        if (!gotInput) {
          gotInput = true;
          // Only pending bridged requests keep the loop alive (never-settling promises are
          // detected by the loop emptying, see the runner's beforeExit).
          refStdin();
          resolve(message);
        } else if (message.type === "rpc") onRpcAnswer(message);
      }
    });
    stdin.on("end", () => process.exit(0));
  });
}

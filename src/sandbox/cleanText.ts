/** Longest text {@link cleanText} keeps by default, in UTF-16 code units. */
export const CLEAN_TEXT_MAX_CHARS = 2_000;

// Terminal escape sequences whole, so no "[2J" remnant is left behind: CSI (ESC [ or C1 0x9b),
// OSC / DCS / APC / PM / SOS strings up to their terminator (BEL, ESC \ or C1 0x9c) or the end, and
// any other two-character ESC sequence.
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]P^_X]|[\u0090\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g;
// Line and paragraph breaks, one or more: the text stays on one line, so it cannot begin a line of
// its own (a forged "✓ task 100" progress line).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const LINE_BREAKS = /(?:\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029])+/g;
// What is left of C0, DEL and C1 controls; the bidirectional overrides, embeddings, isolates and
// marks that reorder what a reader sees (Trojan Source, CVE-2021-42574); the byte-order mark.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Model text made safe for every sink it reaches — terminal progress lines, the end-of-run failure
 * list, CI logs, markdown, LaTeX, JUnit and HTML (docs/SECURITY.md, "Model text"): terminal escape
 * sequences (CSI, OSC — clipboard writes, hyperlinks —, DCS, C1) and every other control character
 * removed, line breaks turned into " ⏎ " so the text stays on one line, tabs into spaces, bidi
 * controls removed, and the result cut to `maxChars` with "…". Sinks still escape their own syntax
 * (HTML, LaTeX, markdown pipes); this removes what no escaping of theirs would.
 *
 * @param text anything the model or its code produced: a failure reason, a revert string, a quote.
 * @param maxChars longest result in UTF-16 code units, "…" included (default 2,000).
 * @returns one line of printable text.
 * @example
 * cleanText("\u001b]52;c;cHduZWQ=\u0007ok\n✓ task 100"); // "ok ⏎ ✓ task 100"
 */
export function cleanText(text: string, maxChars = CLEAN_TEXT_MAX_CHARS): string {
  // Bounded first, so the regular expressions below see at most a few times maxChars.
  const bounded = text.length > maxChars * 4 ? text.slice(0, maxChars * 4) : text;
  const clean = bounded
    .replace(ESCAPE_SEQUENCE, "")
    .replace(LINE_BREAKS, " ⏎ ")
    .replace(/\t/g, " ")
    .replace(INVISIBLE, "");
  if (clean.length <= maxChars) return clean;
  // Never cut a surrogate pair in two.
  let end = maxChars - 1;
  if (end > 0 && /[\ud800-\udbff]/.test(clean[end - 1]!)) end--;
  return `${clean.slice(0, end)}…`;
}

// Transcript text keeps its lines and tabs; everything else invisible goes.
const INVISIBLE_IN_TRANSCRIPT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const ANY_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

/**
 * Keys whose strings are a transcript: the conversation's messages (`content`), the model's replies
 * (`response`) and plan (`plan`), and a composite round's feedback (`feedback`). Their line breaks
 * and tabs stay; every other string of a result is one line.
 */
const TRANSCRIPT_KEYS = new Set(["content", "response", "plan", "feedback"]);

/**
 * Multi-line model text made safe to store and show: terminal escape sequences and every control
 * character but line feed and tab removed, CR LF, CR and the Unicode line and paragraph separators
 * turned into LF, bidi controls removed. Not cut.
 */
export function cleanTranscript(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, "")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(INVISIBLE_IN_TRANSCRIPT, "");
}

/**
 * The one rule for text that reaches an attempt's result (docs/SECURITY.md "Model text"): a copy of
 * `value` in which every string, object key included, is cleaned. Strings under a transcript key
 * (`content`, `response`, `plan`, `feedback`) keep their lines ({@link cleanTranscript}); every other string, a failure
 * reason, a check's detail quoting an answer field, an answer field itself, becomes one line
 * ({@link cleanText}, not cut). Applied where an attempt's result is made, so every printer and file
 * after it (progress lines, Vitest's output, results.json, reports) gets clean text.
 */
export function cleanResultText<T>(value: T): T {
  const walk = (v: unknown, transcript: boolean): unknown => {
    if (typeof v === "string")
      return !ANY_CONTROL.test(v) ? v : transcript ? cleanTranscript(v) : cleanText(v, v.length + 1);
    if (Array.isArray(v)) return v.map((x) => walk(x, transcript));
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const key = ANY_CONTROL.test(k) ? cleanText(k, k.length + 1) : k;
      out[key] = walk(x, TRANSCRIPT_KEYS.has(key) || (transcript && Array.isArray(v)));
    }
    return out;
  };
  return walk(value, false) as T;
}

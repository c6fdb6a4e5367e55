/**
 * Credential redaction for fork URLs (docs/RUNNING.md "Fork mode: credentials and the RPC cache"). Provider URLs often embed API keys,
 * and the fork URL reaches results.json's manifest and error messages, so every place that shows it
 * shows {@link redactUrl}'s form instead.
 *
 * The rule (docs/RUNNING.md "Fork mode: credentials and the RPC cache"):
 * - userinfo (`user:password@`) becomes `***@`;
 * - every query parameter keeps its name, its value becomes `***` (`?apikey=***`);
 * - every path segment of 16 or more characters from `[A-Za-z0-9_-]` that contains a digit (the
 *   shape of Infura, Alchemy, NodeReal, Ankr, QuickNode and GetBlock keys) becomes `***`;
 * - a fragment is dropped.
 * Scheme, host, port and short or digit-free path segments (`/v1/`, `/bsc/`, `/mainnet-archive/`) stay.
 */

/** Path segments redacted as keys: ≥ 16 URL-safe characters with at least one digit. */
const KEY_SEGMENT = /^(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{16,}$/;

/** Text of a URL part as typed (the URL parser percent-encodes; secrets are compared both ways). */
const both = (text: string): string[] => {
  const out = new Set([text]);
  try {
    out.add(decodeURIComponent(text));
  } catch {
    // not valid percent-encoding: the raw text is enough
  }
  return [...out].filter((s) => s.length > 0);
};

/**
 * The URL with its credentials replaced by `***` (rule in the module doc).
 *
 * @param url a JSON-RPC URL, e.g. `https://user:pw@bsc.example/v1/0123456789abcdef0123?apikey=K`.
 * @returns e.g. `https://***@bsc.example/v1/***?apikey=***`; a string that is not a URL becomes
 *   `<unparseable URL>` (it could be anything, so nothing of it is shown).
 * @example
 * redactUrl("http://u:p@127.0.0.1:8545/?apikey=SECRET") // "http://***@127.0.0.1:8545/?apikey=***"
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<unparseable URL>";
  }
  const userinfo = parsed.username || parsed.password ? "***@" : "";
  const pathname = parsed.pathname
    .split("/")
    .map((segment) => (KEY_SEGMENT.test(segment) ? "***" : segment))
    .join("/");
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join("&");
  return `${parsed.protocol}//${userinfo}${parsed.host}${pathname}${query ? `?${query}` : ""}`;
}

/**
 * The secret parts of `url` that {@link redactUrl} hides: username, password, query values, key-like
 * path segments (raw and percent-decoded). Used to scrub texts that may quote the URL (an Anvil error
 * message) and by tests that grep output files for leaks.
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url ? [url] : [];
  }
  const secrets = [
    ...both(parsed.username),
    ...both(parsed.password),
    ...[...parsed.searchParams.values()].flatMap(both),
    ...parsed.pathname.split("/").filter((segment) => KEY_SEGMENT.test(segment)),
    ...both(parsed.hash.slice(1)),
  ];
  // Longest first, so a secret that contains another is replaced whole.
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

/** Shortest secret {@link scrubUrl} replaces where it stands alone (outside the URL). */
const MIN_SCRUBBED_LENGTH = 6;

/**
 * Replaces the URL (raw and as the URL parser prints it) and each of its secrets in `text` with the
 * redacted form, and each secret of 6 or more characters standing alone with `***`.
 *
 * @param text any message (an Anvil log line, an error's details).
 * @param url the fork URL whose credentials must not appear.
 */
export function scrubUrl(text: string, url: string): string {
  let out = text;
  const forms = new Set([url]);
  try {
    forms.add(new URL(url).href);
  } catch {
    // unparseable: only the raw form can occur
  }
  for (const form of forms) out = out.split(form).join(redactUrl(url));
  // Alone, a secret is replaced only from 6 characters on: a user name like "u" would mangle the text.
  for (const secret of urlSecrets(url))
    if (secret.length >= MIN_SCRUBBED_LENGTH) out = out.split(secret).join("***");
  return out;
}

/**
 * `fetch` needs credentials out of the URL (undici refuses `user:pw@` URLs): the URL without its
 * userinfo, and a Basic `authorization` header carrying it, as Anvil's own HTTP client sends it.
 */
export function splitCredentials(url: string): { url: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { url, headers: {} };
  const basic = Buffer.from(
    `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`,
  ).toString("base64");
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.href, headers: { authorization: `Basic ${basic}` } };
}

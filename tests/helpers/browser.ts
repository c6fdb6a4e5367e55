import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, which .ci/run installs where missing (tests that need it skip without it). */
export const CHROMIUM = "/usr/bin/chromium";

/** Headless Chromium as the browser tests and `npm run bench` drive it: no sandbox, GPU or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

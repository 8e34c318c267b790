/**
 * Debian's Chromium driven by playwright-core (no browser download: the system one). Flags keep it
 * off the network: this machine's network is closed, and background fetches only fail slowly.
 *
 * Debian's `chromium-headless-shell` when it is installed, else `chromium`: the same Blink and V8
 * without the browser's own interface (what Playwright itself runs for headless tests). The
 * dashboard's file took 65 s of CPU under `chromium` and 34 s under the shell, measured in
 * docs/tests.md § What a process costs.
 *
 * `sharedBrowser()` is one Chromium for every browser test file of a test process (a worker of
 * `bun test --parallel --no-isolate`), launched on first use: each test works in contexts of its
 * own (cookies and storage are per context) and closes them; the browser itself ends with the
 * process.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const INSTALLED = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
export const CHROMIUM = process.env.GRAPH_STATS_CHROMIUM ?? INSTALLED.find((path) => existsSync(path)) ?? INSTALLED[1]!;

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

let shared: Promise<Browser> | undefined;

/** The process's one Chromium (see the header); a test closes its own contexts and pages, never the browser. */
export function sharedBrowser(): Promise<Browser> {
  shared ??= launchBrowser().then((browser) => {
    browser.on("disconnected", () => {
      shared = undefined;
    });
    return browser;
  });
  return shared;
}

/**
 * Debian's Chromium driven by playwright-core (no browser download: the system one). Flags keep it
 * off the network: this machine's network is closed, and background fetches only fail slowly.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.GRAPH_STATS_CHROMIUM ?? "/usr/bin/chromium";

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

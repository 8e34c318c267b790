/**
 * Preloaded by `bun test` (bunfig.toml): after the whole run, says once why tests were skipped,
 * so a bare clone's green run does not hide that the real-data comparisons did not happen.
 */
import { afterAll } from "bun:test";
import { NIFTY_MISSING, niftySkips } from "./nifty.ts";

afterAll(() => {
  if (niftySkips.groups > 0) process.stderr.write(`\n${NIFTY_MISSING}; ${niftySkips.groups} groups of tests skipped.\n`);
});

/**
 * Preloaded by `bun test` (bunfig.toml): says why tests were skipped, so a bare clone's green run
 * does not hide that the real-data comparisons did not happen. In one process (`bun test`) this
 * afterAll runs once, after the whole run, and counts the skipped groups. Under `--parallel`
 * (npm test) it runs after each file of a worker, and a worker's output at its exit is not shown:
 * each worker says it once, at its first file with a skip, without a count (each skipped test is
 * listed as skipped anyway), so a run says it at most once per worker.
 */
import { afterAll } from "bun:test";
import { NIFTY_MISSING, niftySkips } from "./nifty.ts";

const inWorker = process.env.BUN_TEST_WORKER_ID !== undefined;
let said = false;

afterAll(() => {
  if (niftySkips.groups === 0 || said) return;
  if (inWorker) {
    said = true;
    process.stderr.write(`\n${NIFTY_MISSING}; the tests that need it are skipped (each is listed as skipped).\n`);
  } else {
    process.stderr.write(`\n${NIFTY_MISSING}; ${niftySkips.groups} groups of tests skipped.\n`);
  }
});

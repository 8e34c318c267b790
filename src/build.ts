/**
 * `npm run build`: the single executables. `dist/graph-stats` embeds the migrations (imported as
 * text), the sample generator (code) and the dashboard's assets, so a copy alone in an empty
 * directory serves, imports and mints tokens. `dist/graph-stats-conformance` is the conformance kit.
 */
import { compile, TARGETS } from "./build-targets.ts";

let failed = false;
for (const t of TARGETS) {
  try {
    await compile(t);
    console.log(`built ${t.out}`);
  } catch (err) {
    console.error((err as Error).message);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

import { test } from "bun:test";
import { loadGolden, loadNifty, runGoldenCase } from "/work/main/src/engine/fixtures/pipeline.ts";
test("lv", () => {
  const data = loadNifty();
  const diffs: number[] = [];
  for (const c of loadGolden("nifty-golden.json")) {
    const r = runGoldenCase(c, () => data);
    diffs.push(r.communities.modularity - c.expected.modularity_networkx!);
  }
  diffs.sort((a, b) => a - b);
  console.log(process.env.LV, "min", diffs[0].toFixed(4), diffs[1].toFixed(4), diffs[2].toFixed(4), "mean", (diffs.reduce((a, b) => a + b) / diffs.length).toFixed(4));
});

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NIFTY_ENV, resolveNiftyDir } from "./nifty.ts";

/** A folder holding a fake clone `repo/` and, when asked, `shared/data/nifty50-daily/` beside it. */
function layout(withShared: boolean): { repo: string; beside: string } {
  const root = mkdtempSync(join(tmpdir(), "gs-nifty-"));
  const repo = join(root, "repo");
  const beside = join(root, "shared/data/nifty50-daily");
  mkdirSync(repo);
  if (withShared) mkdirSync(beside, { recursive: true });
  return { repo, beside };
}

describe("where the NIFTY-50 data is found", () => {
  test("GRAPH_STATS_NIFTY_DIR wins over the folder beside the repo", () => {
    const { repo } = layout(true);
    const elsewhere = mkdtempSync(join(tmpdir(), "gs-nifty-env-"));
    expect(resolveNiftyDir({ [NIFTY_ENV]: elsewhere }, repo)).toBe(elsewhere);
  });

  test("without the variable: shared/data/nifty50-daily beside the repo", () => {
    const { repo, beside } = layout(true);
    expect(resolveNiftyDir({}, repo)).toBe(beside);
    expect(resolveNiftyDir({ [NIFTY_ENV]: "" }, repo)).toBe(beside);
  });

  test("neither: null, so the tests that need it are skipped", () => {
    expect(resolveNiftyDir({}, layout(false).repo)).toBeNull();
  });

  test("a variable naming no folder is an error, not a silent skip", () => {
    const { repo } = layout(true);
    const file = join(mkdtempSync(join(tmpdir(), "gs-nifty-f-")), "x.csv");
    writeFileSync(file, "");
    for (const bad of ["/no/such/folder", file]) {
      expect(() => resolveNiftyDir({ [NIFTY_ENV]: bad }, repo)).toThrow(`${NIFTY_ENV}=${bad} is not a folder`);
    }
  });
});

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PARAM_DOCS } from "../params/params.ts";
import { parameterTable, TABLE_END, TABLE_START, tableCells } from "./parameter-table.ts";
import { TABLE_PATHS } from "./write.ts";

test("README.md and docs/api.md carry the parameter table of the schema, every parameter, as npm run openapi writes it", () => {
  const want = tableCells(`${TABLE_START}\n${parameterTable()}\n${TABLE_END}`);
  expect(want.slice(1).map((r) => r[0])).toEqual(PARAM_DOCS.map((d) => `\`${d.name}\``));
  for (const path of TABLE_PATHS) {
    const got = tableCells(readFileSync(path, "utf8"));
    expect({ path, rows: got }).toEqual({ path, rows: want });
  }
});

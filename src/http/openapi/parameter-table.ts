/**
 * The live endpoint's parameter table in Markdown, from PARAM_DOCS (params-fields.ts), the words
 * the OpenAPI document uses too: `npm run openapi` writes it into README.md and docs/api.md between
 * the markers below, and parameter-table.test.ts checks that both still hold it. A hand-kept table
 * had fallen behind (no tmfg, ewma, halflife, shrinkage, market_mode, include_graph=all, format, start/end).
 */
import { PARAM_DOCS } from "../params/params.ts";

export const TABLE_START = "<!-- parameters: written by `npm run openapi` from src/http/params/params-fields.ts; do not edit -->";
export const TABLE_END = "<!-- /parameters -->";

const cell = (s: string) => s.replace(/\|/g, "\\|");

export function parameterTable(): string {
  const rows = PARAM_DOCS.map((d) => `| \`${d.name}\` | ${cell(d.type)} | ${cell(d.default)} | ${cell(d.allowed)} |`);
  return ["| parameter | type | default | allowed |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** `text` with the table between its markers replaced by the current one; throws when the markers are missing. */
export function withParameterTable(text: string, file: string): string {
  const a = text.indexOf(TABLE_START);
  const b = text.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error(`${file}: the parameter table markers are missing`);
  return `${text.slice(0, a + TABLE_START.length)}\n\n${parameterTable()}\n\n${text.slice(b)}`;
}

/** The table's rows as cell lists, whitespace and column padding ignored (Markdown formatters pad tables). */
export function tableCells(text: string): string[][] {
  const a = text.indexOf(TABLE_START);
  const b = text.indexOf(TABLE_END);
  if (a < 0 || b < a) return [];
  return text
    .slice(a + TABLE_START.length, b)
    .split("\n")
    .filter((l) => l.trim().startsWith("|") && !/^\|[\s|:-]+\|$/.test(l.trim()))
    .map((l) =>
      l
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

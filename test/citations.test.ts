/**
 * The product, its kit and its messages cite the repository's own documentation, in the form
 * `docs/api.md § Metering` (the heading as written, backticks dropped), never a document a user
 * does not have. Each `<file>.md § <heading>` anywhere in the repo must name a heading of that
 * file, and the kit's `cites` must name docs/api.md headings exactly: the kit checks the HTTP
 * interface only.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ALL_CHECKS } from "../conformance/checks/index.ts";

const ROOT = resolve(import.meta.dir, "..");
const SECTION = "\u00a7";

/** Names of documents users do not have, spelled so that this file does not contain them. */
const FOREIGN: RegExp[] = [
  new RegExp(["DECI", "SIONS"].join("")),
  new RegExp(["interface", "spec"].join("-")),
  new RegExp(`\\bspec ${SECTION}`, "i"),
];

/** Tracked files, and new ones not ignored, outside node_modules. */
function repoFiles(root: string): string[] {
  const git = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root });
  if (git.exitCode !== 0) throw new Error(`git ls-files failed in ${root}: ${git.stderr.toString()}`);
  return git.stdout
    .toString()
    .split("\0")
    .filter((f) => f && !f.split("/").includes("node_modules") && existsSync(join(root, f)));
}

/** The file's text, or null for a binary file (a NUL byte). */
function textOf(root: string, file: string): string | null {
  const bytes = readFileSync(join(root, file));
  return bytes.includes(0) ? null : bytes.toString("utf8");
}

/** `file:line: text` for every mention of a foreign document, in file names or contents. */
function foreignMentions(root: string, files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (FOREIGN.some((re) => re.test(file))) found.push(`${file}: the file name`);
    const text = textOf(root, file);
    if (text === null) continue;
    text.split("\n").forEach((line, i) => {
      if (FOREIGN.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

/**
 * The headings of a Markdown file as a citation names them: backticks dropped, and also without a
 * trailing parenthesis (docs/engine.md's "Louvain (`louvain.ts`, …)" is cited as "Louvain").
 * Lines inside fenced code blocks are not headings.
 */
function headingsOf(markdown: string): Set<string> {
  const names = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const name = m[1].replaceAll("`", "").trim();
    names.add(name);
    names.add(name.replace(/\s*\([^()]*\)$/, ""));
  }
  return names;
}

/**
 * The heading `rest` starts with, ending at a word boundary; undefined when none does. A heading
 * cited without its trailing parenthesis matches only where the citation does not go on with one:
 * "CPU cut (#21 point 3, sixth round)" must be a heading whole, not "CPU cut" and some words.
 */
function leadingHeading(rest: string, headings: Set<string>): string | undefined {
  let best: string | undefined;
  for (const h of headings) {
    if (!rest.startsWith(h) || (best && best.length >= h.length)) continue;
    const next = rest.charAt(h.length);
    if (!(next === "" || /[\s.,;:)"'`|]/.test(next))) continue;
    if (rest.startsWith(" (", h.length) && [...headings].some((full) => full.startsWith(`${h} (`))) continue;
    best = h;
  }
  return best;
}

/**
 * `file:line: citation` for every `<path>.md § <heading>` (and each `, § <heading>` after it)
 * whose file does not exist or has no such heading. Paths are from the repository root.
 */
function brokenCitations(root: string, files: string[]): string[] {
  const broken: string[] = [];
  const cache = new Map<string, Set<string> | null>();
  const headings = (doc: string) => {
    if (!cache.has(doc)) cache.set(doc, existsSync(join(root, doc)) ? headingsOf(readFileSync(join(root, doc), "utf8")) : null);
    return cache.get(doc) ?? null;
  };
  const cite = new RegExp(`([\\w./-]+\\.md) ${SECTION} `, "g");
  for (const file of files) {
    const text = textOf(root, file);
    if (text === null) continue;
    for (const m of text.matchAll(cite)) {
      const line = text.slice(0, m.index).split("\n").length;
      const where = `${file}:${line}: ${text.slice(m.index, m.index + 80).split("\n")[0]}`;
      const doc = headings(m[1]);
      if (!doc) {
        broken.push(`${where} (no file ${m[1]})`);
        continue;
      }
      // Headings are named without backticks (headingsOf); a citation may keep them.
      let rest = text.slice(m.index + m[0].length).replaceAll("`", "");
      for (;;) {
        const h = leadingHeading(rest, doc);
        if (!h) {
          broken.push(`${where} (no such heading in ${m[1]})`);
          break;
        }
        const more = new RegExp(`^, ${SECTION} `).exec(rest.slice(h.length));
        if (!more) break;
        rest = rest.slice(h.length + more[0].length);
      }
    }
  }
  return broken;
}

/** Problems with a kit check's `cites`: docs/api.md, then one or more of its headings exactly (the form above). */
function kitCiteProblems(cites: string, apiHeadings: Set<string>): string[] {
  const prefix = `docs/api.md ${SECTION} `;
  if (!cites.startsWith(prefix)) return [`"${cites}" does not start with "${prefix}"`];
  return cites
    .slice(prefix.length)
    .split(`, ${SECTION} `)
    .filter((name) => !apiHeadings.has(name))
    .map((name) => `"${name}" is not a heading of docs/api.md`);
}

describe("citations", () => {
  const files = repoFiles(ROOT);

  test("no file names or cites a document users do not have", () => {
    expect(foreignMentions(ROOT, files)).toEqual([]);
  });

  test("every kit check cites docs/api.md headings that exist", () => {
    const api = headingsOf(readFileSync(join(ROOT, "docs/api.md"), "utf8"));
    const problems = ALL_CHECKS.flatMap((c) => kitCiteProblems(c.cites, api).map((p) => `${c.id}: ${p}`));
    expect(problems).toEqual([]);
  });

  test("every `<file>.md § <heading>` in the repo names a heading of that file", () => {
    expect(brokenCitations(ROOT, files)).toEqual([]);
  });

  test("the checks find a foreign name, a missing heading and a malformed kit citation, and pass good ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-citations-"));
    try {
      mkdirSync(join(dir, "docs"));
      writeFileSync(join(dir, "docs/api.md"), "# API\n\n## `GET /health`\n\n## Metering\n\n```sh\n# not a heading\n```\n");
      writeFileSync(join(dir, "docs/engine.md"), "## Louvain (`louvain.ts`)\n");
      const good = `// docs/api.md ${SECTION} Metering, ${SECTION} GET /health; docs/engine.md ${SECTION} Louvain, docs/engine.md ${SECTION} Louvain (louvain.ts).\n`;
      const bad = `// see docs/api.md ${SECTION} Metering, ${SECTION} Nowhere\n// docs/api.md ${SECTION} not a heading\n// docs/gone.md ${SECTION} Metering\n// docs/engine.md ${SECTION} Louvain (\`hierarchy.ts\`)\n`;
      const foreign = `// ${["DECI", "SIONS"].join("")} 6\n`;
      writeFileSync(join(dir, "good.ts"), good);
      writeFileSync(join(dir, "bad.ts"), bad + foreign);
      const all = ["docs/api.md", "docs/engine.md", "good.ts", "bad.ts"];
      expect(foreignMentions(dir, all)).toEqual([`bad.ts:5: ${foreign.trim()}`]);
      expect(brokenCitations(dir, all).map((s) => s.replace(/: .*\(/, " ("))).toEqual([
        "bad.ts:1 (no such heading in docs/api.md)",
        "bad.ts:2 (no such heading in docs/api.md)",
        "bad.ts:3 (no file docs/gone.md)",
        "bad.ts:4 (no such heading in docs/engine.md)",
      ]);
      const api = headingsOf(readFileSync(join(dir, "docs/api.md"), "utf8"));
      expect(api.has("not a heading")).toBe(false);
      expect(kitCiteProblems(`docs/api.md ${SECTION} Metering, ${SECTION} GET /health`, api)).toEqual([]);
      expect(kitCiteProblems(`docs/api.md ${SECTION} Limits`, api)).toEqual(['"Limits" is not a heading of docs/api.md']);
      expect(kitCiteProblems(`README.md ${SECTION} Metering`, api)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

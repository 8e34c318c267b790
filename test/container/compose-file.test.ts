/**
 * compose.yaml as written, without running it: each image is built by one service only (a
 * `build:` on both instances built the graph-stats image twice per `up --build` and left the first
 * untagged), and a service running another's image never tries to pull it (there is no registry).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const services = (
  Bun.YAML.parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
    services: Record<string, { image: string; build?: unknown; pull_policy?: string }>;
  }
).services;

test("every image is built by exactly one service; the others running it never pull it", () => {
  const builders = new Map<string, string[]>();
  for (const [name, s] of Object.entries(services)) if (s.build) builders.set(s.image, [...(builders.get(s.image) ?? []), name]);
  expect([...builders.values()].filter((names) => names.length !== 1)).toEqual([]);
  const borrowers = Object.entries(services).filter(([, s]) => !s.build && builders.has(s.image));
  expect(borrowers.map(([name]) => name)).toEqual(["graph-stats-2"]);
  for (const [name, s] of borrowers) expect({ name, pull: s.pull_policy }).toEqual({ name, pull: "never" });
});

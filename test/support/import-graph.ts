/**
 * The repo's relative-import graph and its cycles, read from the source text (no dependency).
 * Type-only imports count: two files whose types need each other still cannot be read apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// `import … from "./x"`, `export … from "./x"`, `import "./x"` and `import("./x")`, across lines.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function sourceFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** File → the files it imports, for every .ts/.tsx under the given folders (relative to root). */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    const dir = resolve(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of sourceFiles(dir, [])) {
      const deps: string[] = [];
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const target = resolveImport(file, (m[1] ?? m[2]) as string);
        if (target) deps.push(target);
      }
      graph.set(file, deps);
    }
  }
  return graph;
}

/** Every group of files that import each other (strongly connected, size > 1), as sorted paths relative to root. */
export function importCycles(root: string, folders: string[]): string[][] {
  const graph = importGraph(root, folders);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  // Tarjan's algorithm; the graph has a few hundred files, so recursion depth is no concern.
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(relative(root, w));
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

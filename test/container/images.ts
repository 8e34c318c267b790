/**
 * The stack's images, built only when what goes into them changed. Each image built here carries a
 * label with a hash of its inputs; an image whose label matches is reused as it is, so an unchanged
 * tree costs one `podman image inspect` per image instead of a build (podman's own layer cache
 * still hashed the whole build context, node_modules included, and any edited file in it, a test
 * or a document, rebuilt the binary). The inputs hashed:
 * - every image: its Dockerfile, its build arguments and the base image's id (a rebuilt base
 *   rebuilds all three);
 * - graph-stats: what the binary is compiled from, as test/support/binary.ts hashes it (src/ but
 *   its tests, db/, package.json, package-lock.json, the Bun version), with tsconfig.json,
 *   bunfig.toml and .dockerignore;
 * - postgres and nginx: every file of their build context (deploy/postgres, deploy/nginx).
 * The builds are the ones podman-compose would run (`podman build -t IMAGE -f Dockerfile
 * --build-arg … CONTEXT`, through the same wrapper), plus the label; `up` then finds the images.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { sourceHash } from "../support/binary.ts";

export const INPUTS_LABEL = "graph-stats.test-inputs";

export interface ServiceImage {
  service: string;
  image: string;
  /** Absolute build context. */
  context: string;
  dockerfile: string;
  args: Record<string, string>;
}

/** The services of compose.yaml that have a build section. */
export function composeImages(root: string): ServiceImage[] {
  const doc = Bun.YAML.parse(readFileSync(join(root, "compose.yaml"), "utf8")) as {
    services: Record<string, { image: string; build?: string | { context?: string; dockerfile?: string; args?: Record<string, unknown> } }>;
  };
  const seen = new Set<string>();
  const images: ServiceImage[] = [];
  for (const [service, def] of Object.entries(doc.services)) {
    if (!def.build || seen.has(def.image)) continue; // graph-stats-2 runs graph-stats-1's image, built once
    seen.add(def.image);
    const build = typeof def.build === "string" ? { context: def.build } : def.build;
    const context = resolve(root, build.context ?? ".");
    const args = Object.fromEntries(Object.entries(build.args ?? {}).map(([k, v]) => [k, String(v)]));
    images.push({ service, image: def.image, context, dockerfile: join(context, build.dockerfile ?? "Dockerfile"), args });
  }
  return images;
}

function hashTree(hash: ReturnType<typeof createHash>, path: string, base: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), base);
  } else {
    hash.update(path.slice(base.length)).update("\0").update(readFileSync(path));
  }
}

/** The hash of everything the image is built from (see the header). */
export function inputsHash(root: string, img: ServiceImage, baseImageId: string): string {
  const hash = createHash("sha256").update(img.image).update(baseImageId).update(JSON.stringify(img.args));
  hashTree(hash, img.dockerfile, root);
  if (img.context === root) {
    hash.update(sourceHash());
    for (const f of ["tsconfig.json", "bunfig.toml", ".dockerignore"]) hashTree(hash, join(root, f), root);
  } else {
    hashTree(hash, img.context, root);
  }
  return hash.digest("hex").slice(0, 24);
}

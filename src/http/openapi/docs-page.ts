/**
 * GET /docs: the OpenAPI document rendered as one HTML page on the server. Not Scalar's API
 * reference: its bundle is a Vue application of several MB with ~30 dependencies that needs
 * inline scripts and styles, for a document of five routes. This page has no script at all, its
 * one stylesheet is inline and allowed by hash, so the CSP is strict and it works offline.
 */
type Json = Record<string, any>;

const CSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1,h2,h3{line-height:1.2}h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de}code,pre{font:13px ui-monospace,monospace;background:#f3f4f6}
pre{padding:.75rem;overflow:auto}table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}td:first-child,th:first-child{white-space:nowrap}
.m{font-weight:700;color:#0a5}.s{font-family:ui-monospace,monospace}nav a{margin-right:1rem}`;

export const DOCS_STYLE_HASH = new Bun.CryptoHasher("sha256").update(CSS).digest("base64");

const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Paragraphs, with indented blocks as code. */
function prose(text: string | undefined): string {
  if (!text) return "";
  return text
    .split("\n\n")
    .map((p) =>
      p.startsWith("    ") ? `<pre>${esc(p.replace(/^ {4}/gm, ""))}</pre>` : `<p>${esc(p).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`,
    )
    .join("");
}

/** A schema in one line: a reference's name, a type with its bounds, enum or default. */
function typeOf(s: Json | undefined): string {
  if (!s) return "";
  if (s.$ref) {
    const name = s.$ref.split("/").pop();
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  for (const k of ["anyOf", "oneOf"]) if (s[k]) return s[k].map(typeOf).join(" | ");
  if (s.const !== undefined) return `<code>${esc(JSON.stringify(s.const))}</code>`;
  if (s.enum) return s.enum.map((v: unknown) => `<code>${esc(v)}</code>`).join(" ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  let out = esc(t);
  // A tuple (the hierarchy's merge rows) lists its positions.
  if (s.type === "array") out = s.prefixItems ? `[${s.prefixItems.map(typeOf).join(", ")}]` : `array of ${typeOf(s.items)}`;
  if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object")
    out = `object of ${typeOf(s.additionalProperties)}`;
  // zod writes the safe-integer range into every int and a long pattern beside each format: noise here.
  const bound = (v: unknown) => v !== undefined && Math.abs(v as number) !== Number.MAX_SAFE_INTEGER;
  const bounds = [
    bound(s.minimum) && `≥ ${s.minimum}`,
    bound(s.maximum) && `≤ ${s.maximum}`,
    s.format,
    !s.format && s.pattern && `pattern ${s.pattern}`,
  ].filter(Boolean);
  if (bounds.length) out += ` (${esc(bounds.join(", "))})`;
  return out;
}

function properties(s: Json): string {
  if (!s.properties) return `<p>${typeOf(s)}</p>`;
  const required = new Set<string>(s.required ?? []);
  const rows = Object.entries(s.properties as Record<string, Json>).map(
    ([name, p]) =>
      `<tr><td class="s">${esc(name)}${required.has(name) ? "" : "?"}</td><td>${p.properties ? properties(p) : typeOf(p)}</td><td>${esc(p.description ?? "")}</td></tr>`,
  );
  return `<table><tr><th>field</th><th>type</th><th></th></tr>${rows.join("")}</table>`;
}

function operation(path: string, method: string, op: Json): string {
  const params = (op.parameters ?? []) as Json[];
  const paramTable = params.length
    ? `<h4>Query parameters</h4><table><tr><th>name</th><th>schema</th><th>meaning</th></tr>${params
        .map(
          (p) =>
            `<tr><td class="s">${esc(p.name)}</td><td>${typeOf(p.schema)}${p.schema.default !== undefined ? `, default <code>${esc(p.schema.default)}</code>` : ""}</td><td>${esc(p.description ?? "")}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const responses = Object.entries(op.responses as Record<string, Json>)
    .map(([status, r]) => {
      const types = Object.entries((r.content ?? {}) as Record<string, Json>).map(([type, c]) => `${esc(type)}: ${typeOf(c.schema)}`);
      const hdrs = Object.keys(r.headers ?? {}).join(", ");
      return `<tr><td>${esc(status)}</td><td>${esc(r.description)}</td><td>${types.join("<br>")}</td><td class="s">${esc(hdrs)}</td></tr>`;
    })
    .join("");
  const auth = op.security?.length ? "<p>Needs <code>Authorization: Bearer &lt;token&gt;</code> (HS256 JWT).</p>" : "<p>Public.</p>";
  return `<section id="${esc(op.operationId)}"><h3><span class="m">${method.toUpperCase()}</span> <code>${esc(path)}</code> — ${esc(op.summary)}</h3>${auth}${prose(op.description)}${paramTable}<h4>Responses</h4><table><tr><th>status</th><th>meaning</th><th>body</th><th>headers</th></tr>${responses}</table></section>`;
}

export function renderDocsPage(doc: Json): string {
  const ops: string[] = [];
  const nav: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      ops.push(operation(path, method, op));
      nav.push(`<a href="#${esc(op.operationId)}">${esc(path)}</a>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas as Record<string, Json>)
    .map(
      ([name, s]) =>
        `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${s.description ? `<p>${esc(s.description)}</p>` : ""}${properties(s)}</section>`,
    )
    .join("");
  const headerRows = Object.entries(doc.components.headers as Record<string, Json>)
    .map(([name, h]) => `<tr><td class="s">${esc(name)}</td><td>${esc(h.description)}</td></tr>`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(doc.info.title)} API ${esc(doc.info.version)}</title><style>${CSS}</style></head><body>
<h1>${esc(doc.info.title)} API <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.summary)}</p>${prose(doc.info.description)}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p><nav>${nav.join("")}</nav>
<h2>Routes</h2>${ops.join("")}<h2>Headers</h2><table>${headerRows}</table><h2>Schemas</h2>${schemas}</body></html>`;
}

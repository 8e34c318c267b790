/**
 * Escaping for the two places server data meets markup: HTML text/attributes and the JSON state
 * embedded in a <script type="application/json"> element. Shared by the page renderer and the
 * browser script, so both render fragments the same way.
 */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Escapes a string for HTML text and for quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON safe inside a <script> element: `<`, `>` and `&` become \u escapes (so `</script>` and
 * `<!--` cannot end or alter the element) and U+2028/2029 are escaped for older JS parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

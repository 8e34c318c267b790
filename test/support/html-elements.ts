/** A page's elements as a browser would parse them, for tests of server-rendered HTML (src/dashboard/pages.ts, admin-page.ts). */
export interface El {
  tag: string;
  attrs: Record<string, string>;
  text: string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" };
/** HTMLRewriter hands over raw source text: decode the entities escapeHtml writes, as a browser would. */
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (m) => ENTITIES[m]);

/** Every element of the document with its (decoded) attributes and text, parsed by Bun's HTMLRewriter. */
export async function elements(html: string): Promise<El[]> {
  const out: El[] = [];
  const open: El[] = [];
  await new HTMLRewriter()
    .on("*", {
      element(el) {
        const attrs = Object.fromEntries([...el.attributes].map(([k, v]) => [k, decode(v)]));
        const e: El = { tag: el.tagName, attrs, text: "" };
        out.push(e);
        open.push(e);
        if (el.canHaveContent && !el.selfClosing) el.onEndTag(() => void open.splice(open.lastIndexOf(e), 1));
        else open.pop();
      },
      text(t) {
        for (const e of open) e.text += decode(t.text);
      },
    })
    .transform(new Response(html))
    .text();
  return out;
}

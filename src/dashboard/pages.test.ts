import { describe, expect, test } from "bun:test";
import { renderDashboard } from "./pages.ts";
import type { DashboardView, SignedInView } from "./view-model.ts";
import { escapeHtml, jsonForScript } from "./web/html.ts";

const ASSETS = { js: "/dashboard/assets/app.js?v=abc", css: "/dashboard/assets/app.css?v=abc" };
const EVIL = `"><script>alert(1)</script><img src=x onerror=alert(2)>'\`&`;

function signedIn(over: Partial<SignedInView> = {}): SignedInView {
  return {
    user: { id: "user-1", email: "ada@example.com", name: "Ada Lovelace", disabled: false },
    csrf: "csrf-token-123",
    admin: false,
    baseUrl: "http://127.0.0.1:8080",
    usage: {
      today: 1,
      perDay: 30,
      minute: { used: 1, limit: 1, resetAt: Date.UTC(2026, 10, 22, 21, 50, 12) / 1000 },
      days: Array.from({ length: 30 }, (_, i) => ({ date: `2026-10-${String(i + 1).padStart(2, "0")}`, admitted: i % 3 })),
    },
    tokens: [{ jti: "3f2a9c1e-1111-2222-3333-444455556666", issuedAt: "2026-11-22T20:00:00.000Z", expiresAt: "2026-11-23T20:00:00.000Z" }],
    tokensLeftThisHour: 10,
    ...over,
  };
}

function page(view: Partial<DashboardView>): string {
  return renderDashboard({ dev: false, signedIn: null, notice: null, ...view }, ASSETS);
}

interface El {
  tag: string;
  attrs: Record<string, string>;
  text: string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" };
/** HTMLRewriter hands over raw source text: decode the entities escapeHtml writes, as a browser would. */
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (m) => ENTITIES[m]);

/** Every element of the document with its (decoded) attributes and text, parsed by Bun's HTMLRewriter. */
async function elements(html: string): Promise<El[]> {
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

/** The state embedded in the page, read back as the browser script reads it. */
function embeddedState(html: string): unknown {
  const m = html.match(/<script type="application\/json" id="gs-state">([^<]*)<\/script>/);
  if (!m) throw new Error("no #gs-state");
  return JSON.parse(m[1]);
}

describe("escapeHtml and jsonForScript", () => {
  test("escapeHtml leaves no character that can open a tag or end an attribute", () => {
    expect(escapeHtml(EVIL)).toBe("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&#96;&amp;");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });

  test("jsonForScript cannot close the script element and round-trips exactly", () => {
    const value = { s: `</script><!-- ${EVIL} \u2028\u2029 &amp;` };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("renderDashboard", () => {
  test("signed out: a heading, an explanation and a link named exactly 'Sign in' to /auth/login", async () => {
    const html = page({});
    const els = await elements(html);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(els.some((e) => e.tag === "h1" && e.text.includes("Sign in to graph-stats"))).toBe(true);
    const links = els.filter((e) => e.tag === "a" && e.text.trim() === "Sign in");
    expect(links.map((l) => l.attrs.href)).toEqual(["/auth/login"]);
    expect(els.some((e) => e.tag === "button" && e.text.includes("Sign out"))).toBe(false);
    expect(els.some((e) => e.attrs.id === "generate-token")).toBe(false);
    expect(els.some((e) => e.attrs.id === "query-form")).toBe(false);
    expect(html).not.toContain("development sign-in");
  });

  test("the development sign-in is labelled on the signed-out and the signed-in page", async () => {
    for (const view of [page({ dev: true }), page({ dev: true, signedIn: signedIn() })]) {
      const badge = (await elements(view)).filter((e) => e.attrs.class === "dev-badge");
      expect(badge.map((b) => b.text)).toEqual(["development sign-in"]);
    }
    expect(page({ dev: false, signedIn: signedIn() })).not.toContain("development sign-in");
  });

  test("signed in: the accessible names the browser tests rely on", async () => {
    const html = page({ signedIn: signedIn() });
    const els = await elements(html);
    const button = (name: string) => els.filter((e) => e.tag === "button" && (e.attrs["aria-label"] ?? e.text.trim()) === name);

    const signOut = button("Sign out");
    expect(signOut).toHaveLength(1);
    const form = els.find((e) => e.tag === "form" && e.attrs.action === "/auth/logout");
    expect(form?.attrs.method).toBe("post");
    expect(els.find((e) => e.tag === "input" && e.attrs.name === "csrf")?.attrs).toMatchObject({ type: "hidden", value: "csrf-token-123" });

    expect(button("Generate token")).toHaveLength(1);
    expect(button("Generate token")[0].attrs.disabled).toBeUndefined();
    const label = els.find((e) => e.tag === "label" && e.text === "New token");
    const box = els.find((e) => e.attrs.id === label?.attrs.for);
    expect(box?.tag).toBe("input");
    expect(box?.attrs.readonly).toBeDefined();
    expect(els.find((e) => e.attrs.id === "new-token")?.attrs.hidden).toBeDefined();
    expect(button("Copy")).toHaveLength(1);
    expect(button("Copy curl command")).toHaveLength(1);
    expect(button("Revoke token 3f2a9c1e…")).toHaveLength(1);

    const text = els.find((e) => e.tag === "body")?.text ?? "";
    expect(text).toContain("1 of 30 requests used today");
    expect(text).toContain("1 of 1 requests in the last minute; the next slot frees at 21:50:12 UTC.");
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("ada@example.com");

    expect(els.find((e) => e.tag === "label" && e.attrs.for === "size-by")?.text).toBe("Size by");
    expect(els.find((e) => e.attrs.id === "size-by")?.tag).toBe("select");
    expect(els.find((e) => e.attrs.id === "usage-table")?.tag).toBe("table");
    expect(els.filter((e) => e.tag === "td").length).toBeGreaterThanOrEqual(30);
    expect(button("Run my query (uses 1 of your requests)")).toHaveLength(1);
  });

  test("Generate token is disabled, with the reason, for a disabled user and after 10 in an hour", async () => {
    for (const [view, reason] of [
      [signedIn({ user: { id: "u", email: null, name: "B", disabled: true } }), "Your account is disabled"],
      [signedIn({ tokensLeftThisHour: 0 }), "the most tokens allowed in an hour (10)"],
    ] as const) {
      const els = await elements(page({ signedIn: view }));
      const gen = els.find((e) => e.attrs.id === "generate-token");
      expect(gen?.attrs.disabled).toBeDefined();
      expect(els.find((e) => e.attrs.id === gen?.attrs["aria-describedby"])?.text).toContain(reason);
    }
  });

  test("only an admin's page links the admin console", async () => {
    const link = async (admin: boolean) =>
      (await elements(page({ signedIn: signedIn({ admin }) }))).filter((el) => el.tag === "a" && el.text === "Admin console");
    expect((await link(true)).map((a) => a.attrs.href)).toEqual(["/dashboard/admin"]);
    expect(await link(false)).toEqual([]);
  });

  test("no token yet: the list says so", () => {
    expect(page({ signedIn: signedIn({ tokens: [] }) })).toContain("No live tokens.");
  });

  test("no inline script, inline style or event-handler attribute (the CSP forbids them)", async () => {
    for (const html of [page({ dev: true }), page({ dev: true, signedIn: signedIn(), notice: { kind: "error", text: "x" } })]) {
      const els = await elements(html);
      const scripts = els.filter((e) => e.tag === "script");
      expect(scripts.map((s) => s.attrs.type)).toEqual(["module", "application/json"]);
      expect(scripts[0].attrs.src).toBe(ASSETS.js);
      expect(scripts[0].text).toBe("");
      expect(els.some((e) => e.tag === "style")).toBe(false);
      for (const e of els) {
        expect(Object.keys(e.attrs).filter((a) => a === "style" || a.startsWith("on"))).toEqual([]);
        if (e.attrs.href) expect(e.attrs.href).not.toMatch(/^javascript:/i);
      }
      expect(els.find((e) => e.tag === "link" && e.attrs.rel === "stylesheet")?.attrs.href).toBe(ASSETS.css);
    }
  });

  test("every string from the server is escaped, in the markup and in the embedded state", async () => {
    const view: DashboardView = {
      dev: true,
      notice: { kind: "error", text: EVIL },
      signedIn: signedIn({
        user: { id: EVIL, email: `${EVIL}@example.com`, name: EVIL, disabled: false },
        csrf: EVIL,
        tokens: [{ jti: EVIL, issuedAt: EVIL, expiresAt: EVIL }],
      }),
    };
    const html = renderDashboard(view, { js: `/a.js?${EVIL}`, css: `/a.css?${EVIL}` });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    const els = await elements(html);
    expect(els.filter((e) => e.tag === "script")).toHaveLength(2);
    expect(els.find((e) => e.tag === "input" && e.attrs.name === "csrf")?.attrs.value).toBe(EVIL);
    expect(els.find((e) => e.attrs["data-revoke"])?.attrs["data-revoke"]).toBe(EVIL);
    expect(els.find((e) => e.attrs.role === "alert" && e.attrs.class?.includes("notice"))?.text).toBe(EVIL);
    expect(embeddedState(html)).toEqual(view);
  });
});

import { describe, expect, test } from "bun:test";
import { CORR_METHODS, DENOISES, GRAPH_METHODS, HIERARCHIES, MARKET_MODES, SHRINKAGES, WEIGHTS } from "../engine/types.ts";
import { PARAM_NAMES, parseChartParams } from "../http/params/params.ts";
import { FIELDS } from "../http/params/params-fields.ts";
import { QUERY_GROUPS, queryFormHtml } from "./query-form-html.ts";

interface Control {
  tag: string;
  attrs: Record<string, string>;
  options: string[];
}

/** The form's inputs and selects with their attributes and option values, as a browser parses them. */
async function controls(html: string): Promise<Control[]> {
  const out: Control[] = [];
  await new HTMLRewriter()
    .on("input, select", {
      element(el) {
        out.push({ tag: el.tagName, attrs: Object.fromEntries(el.attributes), options: [] });
      },
    })
    .on("option", {
      element(el) {
        out.at(-1)!.options.push(el.getAttribute("value") ?? "");
      },
    })
    .transform(new Response(html))
    .text();
  return out;
}

/** Whether the live endpoint accepts these parameters (hierarchy where clusters needs one). */
const accepted = (params: Record<string, string>) => parseChartParams(new URLSearchParams(params), { defaultUniverse: "sample" }).ok;

describe("the query form asks for the API's own parameters (#42 item 7)", () => {
  test("every field is a parameter of the live endpoint, the five research ones among them", async () => {
    const names = (await controls(queryFormHtml())).map((c) => c.attrs.name);
    for (const name of names) expect(PARAM_NAMES as string[]).toContain(name);
    expect(names).toEqual(QUERY_GROUPS.flatMap((g) => g.fields.map((f) => f.name)));
    for (const name of ["corr_method", "asof", "knn_k", "market_mode", "shrinkage"]) expect(names).toContain(name);
    for (const name of ["denoise", "detone", "spectrum", "bootstrap", "seed"]) expect(names).toContain(name);
  });

  test("each select offers every value the API allows, and starts at the API's default", async () => {
    const allowed: Record<string, readonly string[]> = {
      graph_method: GRAPH_METHODS,
      corr_method: CORR_METHODS,
      shrinkage: SHRINKAGES,
      market_mode: MARKET_MODES,
      hierarchy: HIERARCHIES,
      weights: WEIGHTS,
      denoise: DENOISES,
      spectrum: ["false", "true"],
      // include_graph=false is not offered: the network needs a graph.
      include_graph: ["true", "all"],
    };
    const selects = (await controls(queryFormHtml())).filter((c) => c.tag === "select");
    expect(selects.map((c) => c.attrs.name).toSorted()).toEqual(Object.keys(allowed).toSorted());
    for (const c of selects) {
      const name = c.attrs.name as keyof typeof FIELDS;
      // "" is "not sent": the API's default applies (hierarchy=none beside weights=hrp is refused).
      const values = c.options.map((v) => (v === "" ? String(FIELDS[name].default) : v));
      expect(values.toSorted(), name).toEqual([...allowed[name]].toSorted());
      expect(values[0], name).toBe(String(FIELDS[name].default));
      for (const v of c.options.filter(Boolean)) expect(accepted({ [name]: v }), `${name}=${v}`).toBe(true);
    }
  });

  test("each number field's min and max are the API's bounds: both accepted, one past either refused", async () => {
    for (const c of (await controls(queryFormHtml())).filter((c) => c.attrs.type === "number")) {
      const { name, min, max } = c.attrs;
      const extra: Record<string, string> = name === "clusters" ? { hierarchy: "average" } : name === "seed" ? { bootstrap: "1" } : {};
      expect(c.attrs.step).toBe("1");
      for (const v of [min, max]) expect(accepted({ [name]: v, ...extra }), `${name}=${v}`).toBe(true);
      for (const v of [Number(min) - 1, Number(max) + 1]) expect(accepted({ [name]: String(v), ...extra }), `${name}=${v}`).toBe(false);
      if (c.attrs.value) expect(accepted({ [name]: c.attrs.value, ...extra })).toBe(true);
    }
  });

  test("the universe's pattern and the date's range are the API's", async () => {
    const all = await controls(queryFormHtml());
    const universe = all.find((c) => c.attrs.name === "universe")!;
    const pattern = new RegExp(`^(?:${universe.attrs.pattern})$`, "v");
    for (const v of ["sample", "nifty50", "a.b_c-d", "x".repeat(64)]) expect(pattern.test(v) && accepted({ universe: v }), v).toBe(true);
    for (const v of ["x".repeat(65), "a b", "a/b"]) expect(pattern.test(v) || accepted({ universe: v }), v).toBe(false);
    const asof = all.find((c) => c.attrs.name === "asof")!;
    expect(asof.attrs.type).toBe("date");
    for (const v of [asof.attrs.min, asof.attrs.max]) expect(accepted({ asof: v }), v).toBe(true);
    expect(accepted({ asof: "0099-12-31" })).toBe(false);
  });

  test("knn_k starts disabled: it is sent only with graph_method=knn", async () => {
    const k = (await controls(queryFormHtml())).find((c) => c.attrs.name === "knn_k")!;
    expect(k.attrs.disabled).toBeDefined();
    expect(k.attrs["data-enabled-with"]).toBe("graph_method=knn");
  });

  test("seed starts disabled: it is sent only beside a bootstrap B", async () => {
    const seed = (await controls(queryFormHtml())).find((c) => c.attrs.name === "seed")!;
    expect(seed.attrs.disabled).toBeDefined();
    expect(seed.attrs["data-enabled-with"]).toBe("bootstrap");
    expect(accepted({ seed: "3" })).toBe(false);
    expect(accepted({ seed: "3", bootstrap: "10" })).toBe(true);
  });
});

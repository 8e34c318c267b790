/// <reference lib="dom" />
/**
 * The "Run my query" form: collects the parameters the user filled in, checks them as the server
 * would (each field's own bounds, then the rules between fields: query-rules.ts), and hands them
 * on only when the server would accept them; otherwise each field says what to change.
 */
import { announce, byId } from "./dom.ts";
import { type Problem, queryProblems } from "./query-rules.ts";

type Control = HTMLInputElement | HTMLSelectElement;

function controls(form: HTMLFormElement): Control[] {
  return [...form.elements].filter((el): el is Control => (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && !!el.name);
}

/** The form's parameters as strings, as they would appear in the live endpoint's query string. */
export function formParams(form: HTMLFormElement): Record<string, string> {
  const params: Record<string, string> = {};
  for (const c of controls(form)) {
    if (c.disabled) continue;
    const value = c.value.trim();
    // A number as the server reads it: `1e2` is 100 to the browser, and not an integer to the API.
    if (value)
      params[c.name] =
        c instanceof HTMLInputElement && c.type === "number" && !Number.isNaN(c.valueAsNumber) ? String(c.valueAsNumber) : value;
  }
  // `symbols` replaces the universe (docs/api.md § GET /v1/graph-stats/chart): sending both would only confuse the reader of the audit log.
  if (params.symbols) {
    params.symbols = params.symbols
      .split(/[\s,]+/)
      .filter(Boolean)
      .join(",");
    delete params.universe;
  }
  return params;
}

/**
 * A field that applies only beside another's value (`data-enabled-with="graph_method=knn"`), or
 * beside any value of it (`data-enabled-with="bootstrap"`), is disabled, and not sent, otherwise.
 */
function syncEnabled(form: HTMLFormElement): void {
  for (const c of controls(form)) {
    const rule = c.dataset.enabledWith;
    if (!rule) continue;
    const [name, value] = rule.split("=");
    const other = (form.elements.namedItem(name) as Control | null)?.value.trim() ?? "";
    c.disabled = value === undefined ? other === "" : other !== value;
  }
}

/** Every reason the server would refuse the form as it stands. */
function formProblems(form: HTMLFormElement, params: Record<string, string>): Problem[] {
  const own: Problem[] = [];
  for (const c of controls(form)) {
    if (c.disabled || c.validity.valid || (c.name === "universe" && params.symbols)) continue;
    own.push({ field: c.name, message: c.dataset.error ?? `${c.name}: ${c.validationMessage}` });
  }
  const symbols = form.elements.namedItem("symbols") as HTMLInputElement | null;
  const rules = queryProblems(params, {
    symbols: {
      min: Number(symbols?.dataset.minCount ?? 2),
      max: Number(symbols?.dataset.maxCount ?? 500),
      entry: new RegExp(symbols?.dataset.entryPattern ?? "^.+$"),
    },
    maxPoints: Number(form.dataset.maxPoints ?? Infinity),
  });
  return [...own, ...rules.filter((r) => !own.some((o) => o.field === r.field))];
}

/** Marks each field with its problem (or clears it) and says how many there are. */
function showProblems(form: HTMLFormElement, problems: Problem[], summary: boolean): void {
  for (const c of controls(form)) {
    const error = byId(`${c.id}-error`);
    const problem = problems.find((p) => p.field === c.name);
    const described = (c.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== error?.id);
    if (problem && error) described.push(error.id);
    if (described.length) c.setAttribute("aria-describedby", described.join(" "));
    else c.removeAttribute("aria-describedby");
    if (problem) c.setAttribute("aria-invalid", "true");
    else c.removeAttribute("aria-invalid");
    if (error) {
      error.textContent = problem?.message ?? "";
      error.hidden = !problem;
    }
  }
  if (summary) {
    const n = problems.length;
    announce(
      byId("query-error"),
      n ? `The server would refuse this query: ${n === 1 ? "one field needs" : `${n} fields need`} a change.` : "",
    );
  }
}

/** `run` returns whether the query succeeded; the button is disabled while it runs. */
export function initQueryForm(run: (params: Record<string, string>) => Promise<boolean>): void {
  const form = byId<HTMLFormElement>("query-form");
  const button = byId<HTMLButtonElement>("run-query");
  if (!form || !button) return;
  let checked = false;
  syncEnabled(form);
  const recheck = () => {
    syncEnabled(form);
    if (!checked) return;
    const problems = formProblems(form, formParams(form));
    showProblems(form, problems, false);
    if (!problems.length) announce(byId("query-error"), "");
  };
  form.addEventListener("input", recheck);
  form.addEventListener("change", recheck);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    syncEnabled(form);
    const params = formParams(form);
    const problems = formProblems(form, params);
    checked = true;
    showProblems(form, problems, true);
    if (problems.length) {
      const first = controls(form).find((c) => c.name === problems[0].field);
      first?.focus();
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await run(params);
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  });
}

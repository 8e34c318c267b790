/// <reference lib="dom" />
/** The "Run my query" form: collects the parameters the user filled in and hands them on. */
import { byId } from "./dom.ts";

/** The form's parameters as strings, as they would appear in the live endpoint's query string. */
export function formParams(form: HTMLFormElement): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, raw] of new FormData(form).entries()) {
    const value = String(raw).trim();
    if (value) params[name] = value;
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

/** `run` returns whether the query succeeded; the button is disabled while it runs. */
export function initQueryForm(run: (params: Record<string, string>) => Promise<boolean>): void {
  const form = byId<HTMLFormElement>("query-form");
  const button = byId<HTMLButtonElement>("run-query");
  if (!form || !button) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await run(formParams(form));
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  });
}

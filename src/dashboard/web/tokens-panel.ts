/// <reference lib="dom" />
/** The API access section: generate a token (shown once), copy it, list and revoke live tokens. */
import type { GeneratedToken, SignedInView } from "../view-model.ts";
import { callApi } from "./api.ts";
import { announce, byId } from "./dom.ts";
import { shortJti } from "./format.ts";
import { generateState, tokenListHtml } from "./fragments.ts";

/** Re-renders the token list and the Generate button from a fresh state. */
export function renderTokens(view: SignedInView): void {
  const list = byId("token-list");
  if (list) list.innerHTML = tokenListHtml(view.tokens);
  const button = byId<HTMLButtonElement>("generate-token");
  const hint = byId("generate-hint");
  const gen = generateState(view);
  if (button) button.disabled = !gen.allowed;
  if (hint) hint.textContent = gen.hint;
}

/** Wires the buttons; `refresh` re-fetches the state after every change. */
export function initTokens(refresh: () => Promise<void>): void {
  const error = byId("token-error");
  const status = byId("token-status");
  const generate = byId<HTMLButtonElement>("generate-token");

  generate?.addEventListener("click", async () => {
    announce(error, "");
    generate.disabled = true;
    generate.setAttribute("aria-busy", "true");
    const res = await callApi<GeneratedToken>("POST", "/dashboard/api/tokens");
    generate.removeAttribute("aria-busy");
    generate.disabled = false;
    if (!res.ok) {
      announce(error, res.message);
      await refresh();
      return;
    }
    showNewToken(res.data);
    prependRow(res.data);
    announce(status, "Token generated. Copy it now: it is shown once.");
    await refresh();
  });

  byId("token-list")?.addEventListener("click", async (ev) => {
    const button = (ev.target as HTMLElement).closest<HTMLButtonElement>("button[data-revoke]");
    if (!button) return;
    const jti = button.dataset.revoke ?? "";
    announce(error, "");
    button.disabled = true;
    const res = await callApi<unknown>("POST", `/dashboard/api/tokens/${encodeURIComponent(jti)}/revoke`);
    if (!res.ok) {
      button.disabled = false;
      announce(error, res.message);
      return;
    }
    button.closest("li")?.remove();
    announce(status, `Token ${shortJti(jti)} revoked.`);
    await refresh();
  });

  for (const b of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    b.addEventListener("click", () => copyFrom(b, status));
  }
}

function showNewToken(t: GeneratedToken): void {
  const box = byId("new-token");
  const value = byId<HTMLInputElement>("new-token-value");
  const curl = byId<HTMLTextAreaElement>("new-token-curl");
  if (value) value.value = t.token;
  if (curl) curl.value = t.curl;
  if (box) box.hidden = false;
  value?.focus();
  value?.select();
}

/** Shows the new token in the list at once, before the refreshed state arrives. */
function prependRow(t: GeneratedToken): void {
  const list = byId("token-list");
  if (!list || list.querySelector(`[data-jti="${CSS.escape(t.jti)}"]`)) return;
  list.querySelector(".token-empty")?.remove();
  list.insertAdjacentHTML("afterbegin", tokenListHtml([{ jti: t.jti, issuedAt: t.issuedAt, expiresAt: t.expiresAt }]));
}

/** Copies a read-only field: the Clipboard API where allowed, else select() and execCommand. */
async function copyFrom(button: HTMLButtonElement, status: HTMLElement | null): Promise<void> {
  const field = byId<HTMLInputElement | HTMLTextAreaElement>(button.dataset.copy ?? "");
  if (!field) return;
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch {
    field.focus();
    field.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  button.textContent = copied ? "Copied" : "Copy";
  window.setTimeout(() => (button.textContent = "Copy"), 1500);
  announce(status, copied ? "Copied to the clipboard." : "Selected: press Ctrl+C (or ⌘C) to copy.");
}

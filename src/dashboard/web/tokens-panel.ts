/// <reference lib="dom" />
/** The API access section: generate a token (shown once), copy it, list and revoke live tokens. */
import type { GeneratedToken, SignedInView } from "../view-model.ts";
import { callApi } from "./api.ts";
import { announce, byId } from "./dom.ts";
import { shortJti } from "./format.ts";
import { generateState, revokeActionsHtml, tokenListHtml } from "./fragments.ts";

/** The token whose Revoke was clicked and awaits Confirm revoke or Cancel. */
let confirming: string | null = null;

/** Re-renders the token list and the Generate button from a fresh state. */
export function renderTokens(view: SignedInView): void {
  const list = byId("token-list");
  if (confirming && !view.tokens.some((t) => t.jti === confirming)) confirming = null;
  if (list) list.innerHTML = tokenListHtml(view.tokens, confirming);
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

  const list = byId("token-list");
  list?.addEventListener("click", async (ev) => {
    const target = ev.target as HTMLElement;
    const ask = target.closest<HTMLButtonElement>("button[data-revoke]");
    const cancel = target.closest<HTMLButtonElement>("button[data-revoke-cancel]");
    const confirm = target.closest<HTMLButtonElement>("button[data-revoke-confirm]");
    if (ask) askToRevoke(ask.dataset.revoke ?? "");
    else if (cancel) stopAsking(true);
    else if (confirm) await revoke(confirm, error, status, refresh);
  });
  list?.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && confirming) stopAsking(true);
  });

  for (const b of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    b.addEventListener("click", () => copyFrom(b, status));
  }
}

function rowActions(jti: string): HTMLElement | null {
  return byId("token-list")?.querySelector<HTMLElement>(`[data-jti="${CSS.escape(jti)}"] .token-actions`) ?? null;
}

/** First click: the row's Revoke becomes Confirm revoke and Cancel, with the focus on Confirm. */
function askToRevoke(jti: string): void {
  stopAsking(false);
  const actions = rowActions(jti);
  if (!actions) return;
  confirming = jti;
  actions.innerHTML = revokeActionsHtml(jti, true);
  actions.querySelector<HTMLButtonElement>("button[data-revoke-confirm]")?.focus();
}

/** Back to the Revoke button; `refocus` when the user cancelled, so the keyboard stays in the row. */
function stopAsking(refocus: boolean): void {
  const jti = confirming;
  confirming = null;
  const actions = jti ? rowActions(jti) : null;
  if (!jti || !actions) return;
  actions.innerHTML = revokeActionsHtml(jti, false);
  if (refocus) actions.querySelector<HTMLButtonElement>("button[data-revoke]")?.focus();
}

/** Second click: the POST (with the CSRF header, as every change), then the row goes. */
async function revoke(button: HTMLButtonElement, error: HTMLElement | null, status: HTMLElement | null, refresh: () => Promise<void>) {
  const jti = button.dataset.revokeConfirm ?? "";
  const buttons = button.parentElement?.querySelectorAll<HTMLButtonElement>("button") ?? [];
  announce(error, "");
  for (const b of buttons) b.disabled = true;
  const res = await callApi<unknown>("POST", `/dashboard/api/tokens/${encodeURIComponent(jti)}/revoke`);
  if (!res.ok) {
    for (const b of buttons) b.disabled = false;
    announce(error, res.message);
    return;
  }
  confirming = null;
  button.closest("li")?.remove();
  announce(status, `Token ${shortJti(jti)} revoked.`);
  await refresh();
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

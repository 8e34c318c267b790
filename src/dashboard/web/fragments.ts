/**
 * The parts of the signed-in page that change after generating or revoking a token: rendered as
 * HTML strings by the server on load and by the browser after each refresh of the state, so the
 * two can never disagree about the markup or the accessible names.
 */
import type { SignedInView, TokenView, UsageView } from "../view-model.ts";
import { dailyUsageText, minuteUsageText, shortJti, utcMinute } from "./format.ts";
import { escapeHtml as e } from "./html.ts";

/**
 * One list item per live token, each with a Revoke button named after the token; the token whose
 * revocation awaits confirmation (`confirming`) shows Confirm revoke and Cancel instead.
 */
export function tokenListHtml(tokens: TokenView[], confirming: string | null = null): string {
  if (tokens.length === 0) return `<li class="token-empty">No live tokens.</li>`;
  return tokens
    .map(
      (t) => `<li class="token-row" data-jti="${e(t.jti)}">
<code class="token-id" title="${e(t.jti)}">${e(shortJti(t.jti))}</code>
<span class="token-dates"><span>issued ${e(utcMinute(t.issuedAt))}</span><span>expires ${e(utcMinute(t.expiresAt))}</span></span>
<span class="token-actions">${revokeActionsHtml(t.jti, t.jti === confirming)}</span>
</li>`,
    )
    .join("\n");
}

/**
 * A token's Revoke button, or, once clicked, the second step: revoking cannot be undone and stops
 * every program using the token, so one click only asks (docs/dashboard.md).
 */
export function revokeActionsHtml(jti: string, confirming: boolean): string {
  const short = e(shortJti(jti));
  if (!confirming) {
    return `<button type="button" class="button danger" data-revoke="${e(jti)}" aria-label="Revoke token ${short}">Revoke</button>`;
  }
  return `<button type="button" class="button danger confirm" data-revoke-confirm="${e(jti)}" aria-label="Confirm revoke token ${short}">Confirm revoke</button>
<button type="button" class="button secondary" data-revoke-cancel="${e(jti)}" aria-label="Cancel revoking token ${short}">Cancel</button>`;
}

/** Whether the user may generate a token now, and the sentence that says why (not). */
export function generateState(view: SignedInView): { allowed: boolean; hint: string } {
  if (view.user.disabled) {
    return { allowed: false, hint: "Your account is disabled, so you cannot generate tokens. Ask the operator to enable it." };
  }
  if (view.tokensLeftThisHour <= 0) {
    return { allowed: false, hint: "You have generated the most tokens allowed in an hour (10). Try again later." };
  }
  const n = view.tokensLeftThisHour;
  return { allowed: true, hint: `You can generate ${n} more token${n === 1 ? "" : "s"} this hour.` };
}

/** Today's count against the quota, the minute window, and a progress bar (no inline styles). */
export function usageFiguresHtml(usage: UsageView): string {
  const used = Math.min(usage.today, usage.perDay);
  return `<p class="usage-today"><strong>${e(dailyUsageText(usage.today, usage.perDay))}</strong> <span class="muted">(the UTC day; resets at 00:00 UTC)</span></p>
<progress class="usage-bar" max="${usage.perDay}" value="${used}" aria-label="Share of today's quota used">${used} of ${usage.perDay}</progress>
<p class="usage-minute">${e(minuteUsageText(usage.minute))}</p>`;
}

/** The 30-day figures as a table: the text alternative of the bar chart. */
export function usageTableHtml(usage: UsageView): string {
  const rows = usage.days.map((d) => `<tr><th scope="row">${e(d.date)}</th><td>${d.admitted}</td></tr>`).join("");
  return `<caption>Requests admitted per UTC day, last 30 days</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Requests</th></tr></thead>
<tbody>${rows}</tbody>`;
}

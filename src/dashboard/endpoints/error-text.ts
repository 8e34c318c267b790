/** For logs: class and message, plus the provider's OAuth error code and description when it sent one. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err).slice(0, 300);
  const oauth = err as Error & { error?: unknown; error_description?: unknown };
  const detail =
    typeof oauth.error === "string"
      ? ` (${oauth.error}${typeof oauth.error_description === "string" ? `: ${oauth.error_description}` : ""})`
      : "";
  return `${err.name}: ${err.message}${detail}`.slice(0, 300);
}

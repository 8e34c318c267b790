/**
 * The mutants the load scripts must kill in the core profile: each breaks the second implementation (or
 * any target) in one way the interface forbids. Four come from the conformance kit's catalogue; three
 * more break what only load shows at once. They run in the kit's proxy (conformance/mutants/proxy.ts).
 */
import { LIVE_PATH, MUTANTS, type Mutant, type Relayed } from "../../conformance/mutants/catalog.ts";

const RATE_LIMIT = /^x-ratelimit-/i;

function fromKit(name: string): Mutant {
  const m = MUTANTS.find((x) => x.name === name);
  if (!m) throw new Error(`the kit has no mutant '${name}'`);
  return m;
}

/** Rewrites a JSON object body in place; other bodies are left alone. */
function editBody(r: Relayed, edit: (body: Record<string, unknown>) => void): void {
  const body = r.json;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  edit(body as Record<string, unknown>);
  r.body = JSON.stringify(body);
}

const SWAP: Record<string, string> = { RATE_LIMITED: "DAILY_QUOTA_EXCEEDED", DAILY_QUOTA_EXCEEDED: "RATE_LIMITED" };

export const LOAD_MUTANTS: Mutant[] = [
  fromKit("over-admission"),
  fromKit("drop-retry-after"),
  {
    name: "429-codes-swapped",
    description: "each 429 names the other window: RATE_LIMITED says DAILY_QUOTA_EXCEEDED and the reverse",
    after: (r) =>
      editBody(r, (b) => {
        const e = Array.isArray(b.errors) ? (b.errors[0] as { code?: string } | undefined) : undefined;
        if (r.status === 429 && e?.code && SWAP[e.code]) e.code = SWAP[e.code];
      }),
  },
  {
    name: "success-as-string",
    description: 'every envelope carries success as a string ("true", "false")',
    after: (r) => editBody(r, (b) => void (typeof b.success === "boolean" && (b.success = String(b.success)))),
  },
  {
    name: "drop-ratelimit-on-429",
    description: "a live 429 carries none of the five X-RateLimit-* headers (Retry-After stays)",
    after(r) {
      if (r.url.pathname !== LIVE_PATH || r.status !== 429) return;
      for (const h of [...r.headers.keys()]) if (RATE_LIMIT.test(h)) r.headers.delete(h);
    },
  },
  fromKit("expired-accepted"),
  fromKit("demo-demands-token"),
];

export function loadMutant(name: string): Mutant {
  const m = LOAD_MUTANTS.find((x) => x.name === name);
  if (!m) throw new Error(`unknown load mutant '${name}'; known: ${LOAD_MUTANTS.map((x) => x.name).join(", ")}`);
  return m;
}

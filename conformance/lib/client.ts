/** HTTP client that records every exchange (for evidence and envelope sweeps) and enforces the metered-call budget. */
import { describeToken } from "./jwt.ts";
import { type Exchange, type KitClock, REAL_TIME, Skip, UsageError } from "./types.ts";

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  /** Counts against --budget: a live-endpoint call with a token the server may accept. */
  metered?: boolean;
  /** Keep the exchange in `log` (default). The fuzzer's thousands of exchanges stay out of the envelope sweeps. */
  record?: boolean;
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== "authorization") out[k] = v;
    else {
      const m = /^(\S+)\s+(.*)$/.exec(v);
      out[k] = m && m[2]!.split(".").length === 3 ? `${m[1]} ${describeToken(m[2]!)}` : `<${v.length} chars>`;
    }
  }
  return out;
}

/** Records exchanges; `spent` counts metered calls. */
export class Client {
  readonly log: Exchange[] = [];
  spent = 0;

  constructor(
    readonly baseUrl: string,
    readonly budget: number,
    readonly timeoutMs: number,
    readonly clock: KitClock = REAL_TIME,
  ) {}

  /** Metered calls still allowed. */
  get remainingBudget(): number {
    return this.budget - this.spent;
  }

  /** Send one request to `path` (with query) on the target. */
  async request(path: string, init: RequestInit = {}): Promise<Exchange> {
    if (init.metered) {
      if (this.spent >= this.budget) {
        throw new Skip(`metered-call budget of ${this.budget} spent; raise --budget (or pass --secret on a test deployment)`);
      }
      this.spent++;
    }
    const url = this.baseUrl + path;
    const method = init.method ?? "GET";
    const headers = init.headers ?? {};
    const sentAt = this.clock.now();
    let res: Response;
    try {
      res = await fetch(url, { method, headers, redirect: "manual", signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new UsageError(`cannot reach ${url}: ${(err as Error).message}`);
    }
    const body = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const ex: Exchange = {
      method,
      url,
      path,
      requestHeaders: redact(headers),
      status: res.status,
      headers: res.headers,
      body,
      json,
      sentAt,
      receivedAt: this.clock.now(),
    };
    if (init.record !== false) this.log.push(ex);
    return ex;
  }
}

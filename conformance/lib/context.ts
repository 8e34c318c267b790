/** Per-run state shared by checks: identities (given or minted), learned limits, memoised scenarios. */
import type { LoadedDocument } from "../fuzz/document.ts";
import { Client } from "./client.ts";
import { decodeJwt, signJwt, userClaims, type JwtClaims } from "./jwt.ts";
import { NO_QUERY, optionQuery, type PlainQuery, plainDocument, queryFromDocument, withParam } from "./plain-query.ts";
import { intHeader } from "./spec-forms.ts";
import { type Exchange, type FuzzSummary, type KitOptions, Skip } from "./types.ts";

export const LIVE_PATH = "/v1/graph-stats/chart";
export const DEMO_PATH = "/v1/demo/chart";
export const HEALTH_PATH = "/health";
export const UNIVERSES_PATH = "/v1/universes";
/** The default limits, docs/api.md § Metering. */
export const SPEC_LIMITS = { perMinute: 1, perDay: 30 } as const;

export interface Limits {
  perMinute: number;
  perDay: number;
}

export class Context {
  readonly client: Client;
  /** Distinguishes the users this run mints from any other run's. */
  readonly runId = Math.random().toString(36).slice(2, 8);
  private readonly memo = new Map<string, Promise<unknown>>();
  private userSeq = 0;
  private learned?: Limits;
  /** Filled by the fuzz checks (seed, cases per operation, what each operation got); the runner reports it. */
  fuzzSummary?: FuzzSummary;

  constructor(readonly options: KitOptions) {
    this.client = new Client(options.baseUrl, options.budget, options.timeoutMs, options.clock);
  }

  /** Run `fn` once per run; later callers share the result (or the Skip). */
  once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, fn());
    return this.memo.get(key) as Promise<T>;
  }

  get hasSecret(): boolean {
    return this.options.secret !== undefined;
  }

  /** A token of a user nobody has used yet; needs --secret. */
  async freshToken(why: string): Promise<string> {
    if (!this.options.secret) throw new Skip(`${why} needs a fresh user: pass --secret`);
    return signJwt(userClaims(`conformance-${this.runId}-${++this.userSeq}`), this.options.secret);
  }

  /** User A: a fresh user with --secret, else --token. */
  tokenA(): Promise<string> {
    return this.once("token-a", async () => {
      if (this.options.secret) return this.freshToken("user A");
      if (this.options.token) return this.options.token;
      throw new Skip("needs a valid token: pass --token or --secret");
    });
  }

  /** User B: a second fresh user with --secret, else --token-b. */
  tokenB(): Promise<string> {
    return this.once("token-b", async () => {
      if (this.options.secret) return this.freshToken("user B");
      if (this.options.tokenB) return this.options.tokenB;
      throw new Skip("needs a second user's token: pass --token-b or --secret");
    });
  }

  /** An expired token: --expired-token, else minted with --secret. */
  async expiredToken(): Promise<string> {
    if (this.options.expiredToken) return this.options.expiredToken;
    if (this.options.secret) {
      const claims = userClaims(`conformance-${this.runId}-expired`, { iatOffsetS: -2 * 86400 });
      return signJwt(claims, this.options.secret);
    }
    throw new Skip("needs an expired token: pass --expired-token or --secret");
  }

  /**
   * Claims for invalid-token probes: a throwaway subject (so a server that wrongly accepts the probe
   * meters a user nobody owns), otherwise shaped like a real token of this deployment.
   */
  async probeClaims(): Promise<JwtClaims> {
    const base = this.options.token ? (decodeJwt(this.options.token)?.payload ?? {}) : {};
    const iss = typeof base.iss === "string" ? base.iss : "graph-stats";
    return userClaims(`conformance-${this.runId}-probe-${++this.userSeq}`, { iss });
  }

  /**
   * The query of a plain request to `path` (the live endpoint or the demo): `--query`, else built from
   * the required parameters of the deployment's OpenAPI document, else none (see plain-query.ts).
   */
  plainQuery(path: string): Promise<PlainQuery> {
    return this.once(`plain-query ${path}`, async () => {
      if (this.options.query !== undefined) return optionQuery(this.options.query);
      const doc = await this.document();
      return doc ? queryFromDocument(doc, path) : NO_QUERY;
    });
  }

  /** The deployment's OpenAPI document (`--openapi FILE`, else GET /openapi.json), once per run; undefined when there is none usable. */
  document(): Promise<LoadedDocument | undefined> {
    return this.once("plain-document", () => plainDocument(this.client, this.options.openapi));
  }

  /** The plain query with `periods=3`: the rolling request of docs/api.md § The answer. */
  async rollingQuery(): Promise<string> {
    return withParam((await this.plainQuery(LIVE_PATH)).query, "periods", "3");
  }

  /**
   * GET the live endpoint with `query`, the plain query when not given. A call with `token` counts
   * against the budget unless `unmetered` (known-invalid tokens).
   */
  async live(
    token: string | undefined,
    query?: string,
    opts: { unmetered?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Exchange> {
    const q = query ?? (await this.plainQuery(LIVE_PATH)).query;
    const headers: Record<string, string> = { ...opts.headers };
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    const ex = await this.client.request(LIVE_PATH + (q ? `?${q}` : ""), { headers, metered: token !== undefined && !opts.unmetered });
    this.learn(ex);
    return ex;
  }

  /** GET the demo with its plain query (public: no token, never metered). */
  async demo(headers: Record<string, string> = {}): Promise<Exchange> {
    const q = (await this.plainQuery(DEMO_PATH)).query;
    return this.client.request(DEMO_PATH + (q ? `?${q}` : ""), { headers });
  }

  /** User A's first live call; shared so that learning the limits spends nothing extra. */
  firstLiveA(): Promise<Exchange> {
    return this.once("first-live-a", async () => this.live(await this.tokenA()));
  }

  private learn(ex: Exchange): void {
    if (this.learned) return;
    const perMinute = intHeader(ex.headers, "X-RateLimit-Limit");
    const perDay = intHeader(ex.headers, "X-RateLimit-Daily-Limit");
    if (perMinute !== undefined && perDay !== undefined && perMinute > 0 && perDay > 0) this.learned = { perMinute, perDay };
  }

  /** The limits checks assert: the defaults, or with --limits-from-headers those the target announced. */
  async limits(): Promise<Limits> {
    if (!this.options.limitsFromHeaders) return SPEC_LIMITS;
    if (!this.learned) await this.firstLiveA();
    if (!this.learned) throw new Skip("--limits-from-headers: the target sent no usable X-RateLimit-Limit / X-RateLimit-Daily-Limit");
    return this.learned;
  }
}

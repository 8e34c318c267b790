/**
 * Fault-injecting reverse proxy: forwards to any graph-stats deployment and breaks exactly one behaviour,
 * chosen by mutant name. Listens on 127.0.0.1 only. Run alone: `bun conformance/mutants/proxy.ts --upstream URL --mutant NAME [--port N]`.
 */
import { MUTANTS, type Mutant, type MutantState, type Relayed } from "./catalog.ts";

import { LIVE_PATH } from "./catalog.ts";

/** Hop-by-hop and body-framing headers that must not be copied once the body was re-encoded. */
const DROP = ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"];

export interface MutantProxy {
  url: string;
  port: number;
  mutant: Mutant;
  stop(): Promise<void>;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Start a proxy in front of `upstream` applying mutant `name` of the catalogue, or a mutant of the caller's own. */
export function startMutantProxy(upstream: string, name: string | Mutant, port = 0): MutantProxy {
  const mutant = typeof name === "string" ? MUTANTS.find((m) => m.name === name) : name;
  if (!mutant) throw new Error(`unknown mutant '${name}'; known: ${MUTANTS.map((m) => m.name).join(", ")}`);
  const state: MutantState = {};
  const base = upstream.replace(/\/+$/, "");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    // A loaded upstream may take longer than Bun's default 10 s idle limit; the kit has its own timeout.
    idleTimeout: 120,
    async fetch(req) {
      const url = new URL(req.url);
      const early = mutant.before?.(req, url, state);
      if (early instanceof Response) return early;
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.set("accept-encoding", "identity");
      if (early && "authorization" in early) {
        if (early.authorization === undefined) headers.delete("authorization");
        else headers.set("authorization", early.authorization);
      }
      const target = base + (early && "pathAndQuery" in early && early.pathAndQuery ? early.pathAndQuery : url.pathname + url.search);
      const res = await fetch(target, { method: req.method, headers, redirect: "manual" });
      const body = await res.text();
      const outHeaders = new Headers(res.headers);
      for (const h of DROP) outHeaders.delete(h);
      // The upstream's body parsed only when the mutant reads it: most mutants never do, and parsing
      // every chart answer was ~a tenth of a kill test's CPU.
      let json: { value: unknown } | undefined;
      const relayed: Relayed = {
        req,
        url,
        status: res.status,
        headers: outHeaders,
        body,
        get json() {
          json ??= { value: parseJson(body) };
          return json.value;
        },
        set json(value: unknown) {
          json = { value };
        },
      };
      if (url.pathname === LIVE_PATH && res.status === 200) state.lastOk = { status: 200, headers: new Headers(outHeaders), body };
      mutant.after?.(relayed, state);
      return new Response(relayed.body, { status: relayed.status, headers: relayed.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    mutant,
    stop: () => server.stop(true),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const get = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const upstream = get("--upstream");
  const name = get("--mutant");
  if (!upstream || !name) {
    process.stderr.write(
      `usage: proxy.ts --upstream URL --mutant NAME [--port N]\nmutants:\n${MUTANTS.map((m) => `  ${m.name}  ${m.description}`).join("\n")}\n`,
    );
    process.exit(2);
  }
  const p = startMutantProxy(upstream, name, Number(get("--port") ?? 0));
  process.stdout.write(`${JSON.stringify({ msg: "listening", port: p.port, mutant: name, upstream })}\n`);
}

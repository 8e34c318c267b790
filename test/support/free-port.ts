/**
 * A loopback port for a process that must be told its port before it starts (PostgreSQL, the
 * container stack, Prometheus, a provider that must know the redirect URI). Chosen below the
 * system's ephemeral range: a port the system assigned once can be assigned again to any process
 * binding port 0 or connecting out, and in a whole test run hundreds do, so a port probed free
 * there was sometimes taken before its process bound it. Below the range only an explicit choice
 * can take it; the port is checked free when chosen.
 */
import { readFileSync } from "node:fs";

/** The first port of the ephemeral range (Linux's file), else the IANA range's 49152. */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 49_152;
  } catch {
    return 49_152;
  }
}

const FIRST = 10_000;
const LAST = ephemeralStart() - 1;
const given = new Set<number>();

function isFree(port: number): boolean {
  try {
    Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}

/** A port free on 127.0.0.1 now, outside the ephemeral range, not given before by this process. */
export function freePort(): number {
  for (let tries = 0; tries < 1000; tries++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (given.has(port) || !isFree(port)) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free loopback port found between ${FIRST} and ${LAST}`);
}

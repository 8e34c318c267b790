/**
 * Whose request this is, for per-client limits and allow lists: the socket's peer, unless the peer
 * is a proxy named in --trusted-proxies, in which case the nearest address in X-Forwarded-For
 * that is not such a proxy. Behind nginx every socket is nginx's, so a limit per socket address
 * was one limit shared by every user (issue #41 item 6); and a header written by the client
 * itself is believed only as far as trusted proxies vouch for it, so it cannot escape a limit.
 */
import type { Server } from "bun";
import { isIP } from "node:net";
import { addressList } from "../address-list.ts";

/** The client's address, or null when there is no socket (app.handle in tests). */
export type ClientAddress = (request: Request, server: Server<unknown> | null) => string | null;

/** The socket's peer alone: what --trusted-proxies' default (none) gives. */
export const peerAddress: ClientAddress = (request, server) => plainAddress(server?.requestIP(request)?.address ?? null);

export function clientAddressFrom(trustedProxies: readonly string[]): ClientAddress {
  if (trustedProxies.length === 0) return peerAddress;
  const trusted = addressList(trustedProxies, "trusted proxies");
  return (request, server) => clientFrom(server?.requestIP(request)?.address ?? null, request.headers.get("x-forwarded-for"), trusted);
}

/**
 * Walks X-Forwarded-For from the right (each proxy appends the address it was reached from) while
 * the hop so far is trusted; the first untrusted or unreadable entry ends the walk.
 */
export function clientFrom(peer: string | null, forwarded: string | null, trusted: (ip: string) => boolean): string | null {
  let client = plainAddress(peer);
  if (client === null || !forwarded) return client;
  const hops = forwarded.split(",");
  for (let i = hops.length - 1; i >= 0 && trusted(client); i--) {
    const hop = plainAddress(withoutPort(hops[i]!.trim()));
    if (hop === null) break;
    client = hop;
  }
  return client;
}

/** An IP address as the lists compare it (IPv4-mapped IPv6 as IPv4), or null for anything else. */
function plainAddress(address: string | null): string | null {
  if (address === null) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1]! : address;
  return isIP(plain) ? plain : null;
}

/** `1.2.3.4:5678` → `1.2.3.4`, `[::1]:80` → `::1`; a bare address as it is. */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return v4 ? v4[1]! : hop;
}

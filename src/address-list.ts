/**
 * A list of IP addresses and CIDR blocks (`127.0.0.1,10.0.0.0/8,::1`) as one matcher, for the
 * settings that name machines: who may read /metrics, which proxies' X-Forwarded-For is believed.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

/** Why `entry` is not an address or a CIDR block, or null when it is one. */
export function addressEntryProblem(entry: string): string | null {
  const [addr, bits, extra] = entry.split("/");
  const v4 = isIPv4(addr!);
  if (extra !== undefined || !(v4 || isIPv6(addr!))) return `'${entry}' is not an IP address or CIDR block`;
  if (bits === undefined) return null;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (v4 ? 32 : 128) ? null : `bad prefix length in '${entry}'`;
}

/** The matcher for `entries`; throws naming the list (`what`) and the first bad entry. */
export function addressList(entries: readonly string[], what: string): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const problem = addressEntryProblem(entry);
    if (problem) throw new Error(`${what}: ${problem}`);
    const [addr, bits] = entry.split("/");
    const type = isIPv4(addr!) ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, Number(bits), type);
  }
  return (ip) => (isIPv4(ip) ? list.check(ip, "ipv4") : isIPv6(ip) && list.check(ip, "ipv6"));
}

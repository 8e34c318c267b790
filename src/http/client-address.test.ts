import { describe, expect, test } from "bun:test";
import { addressList } from "../address-list.ts";
import { clientFrom } from "./client-address.ts";

const nginx = addressList(["127.0.0.1", "10.0.0.0/8"], "trusted proxies");
const nobody = addressList([], "trusted proxies");

describe("clientFrom", () => {
  test.each([
    ["no proxy trusted: the socket's peer, whatever the header says", "203.0.113.9", "198.51.100.1", nobody, "203.0.113.9"],
    ["from a trusted proxy: the address it appended", "127.0.0.1", "198.51.100.7", nginx, "198.51.100.7"],
    ["a client's own entries left of the proxy's are not believed", "127.0.0.1", "1.1.1.1, 198.51.100.7", nginx, "198.51.100.7"],
    ["two trusted proxies in a row: the first untrusted hop", "10.0.0.2", "198.51.100.7, 10.0.0.5", nginx, "198.51.100.7"],
    ["a peer that is not a trusted proxy: its header is ignored", "203.0.113.9", "198.51.100.7", nginx, "203.0.113.9"],
    ["a trusted proxy without the header: the proxy", "127.0.0.1", null, nginx, "127.0.0.1"],
    ["an unreadable entry ends the walk at the proxy", "127.0.0.1", "198.51.100.7, garbage", nginx, "127.0.0.1"],
    ["ports and brackets are dropped", "127.0.0.1", "[2001:db8::1]:443", nginx, "2001:db8::1"],
    ["an IPv4 hop with a port", "127.0.0.1", "198.51.100.7:5000", nginx, "198.51.100.7"],
    ["an IPv4-mapped peer is matched as IPv4", "::ffff:127.0.0.1", "198.51.100.7", nginx, "198.51.100.7"],
    ["every hop trusted: the leftmost", "127.0.0.1", "10.0.0.9, 10.0.0.5", nginx, "10.0.0.9"],
    ["no socket (in-process): no address", null, "198.51.100.7", nginx, null],
  ] as const)("%s", (_name, peer, forwarded, trusted, client) => {
    expect(clientFrom(peer, forwarded, trusted)).toBe(client);
  });
});

test("a bad entry in the list names the list and the entry", () => {
  expect(() => addressList(["10.0.0.0/33"], "trusted proxies")).toThrow("trusted proxies: bad prefix length in '10.0.0.0/33'");
  expect(() => addressList(["nginx.internal"], "trusted proxies")).toThrow("'nginx.internal' is not an IP address or CIDR block");
});

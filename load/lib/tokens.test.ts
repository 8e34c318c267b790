import { describe, expect, test } from "bun:test";
import { isAbsolutePath, isTokenList, parseTokenList, requireTokens, subjectOf } from "./tokens.js";

const T = "aaa.bbb.ccc";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

describe("parseTokenList", () => {
  test("keeps user and token of each entry of `token create --json`", () => {
    const text = JSON.stringify([{ user: "load-1", token: T, jti: "j", expires_at: "2026-11-23T00:00:00.000Z" }]);
    expect(parseTokenList(text, "t.json")).toEqual([{ user: "load-1", token: T }]);
  });
  test("takes tokens one per line or separated by commas, each user its sub (else its place)", () => {
    const alice = `${b64({ alg: "HS256" })}.${b64({ sub: "alice", exp: 1 })}.sig`;
    const bob = `${b64({ alg: "HS256" })}.${b64({ sub: "bøb" })}.sig`;
    expect(parseTokenList(`${alice}\n${bob}\n`, "t.txt")).toEqual([
      { user: "alice", token: alice },
      { user: "bøb", token: bob },
    ]);
    expect(parseTokenList(`${alice}, ${T}`, "TOKENS")).toEqual([
      { user: "alice", token: alice },
      { user: "token-2", token: T },
    ]);
    expect(() => parseTokenList(`${alice},${alice}`, "TOKENS")).toThrow("TOKENS: user 'alice' appears twice");
    expect(subjectOf(T)).toBeNull();
  });
  test("tells the tokens themselves from a path", () => {
    expect(isTokenList(`${T},${T}`)).toBe(true);
    expect(isTokenList("/tmp/tokens.json")).toBe(false);
    expect(isTokenList("tokens.json")).toBe(false);
    expect(isTokenList("")).toBe(false);
  });
  const bad: [string, string, string][] = [
    ["text that is neither JSON nor tokens", "hello world\n", "t.json: expected the JSON of 'graph-stats token create"],
    ["a broken JSON array", "[{", "t.json: not JSON; create it with 'graph-stats token create --users N --json > t.json'"],
    ["an empty array", "[]", "t.json: expected a non-empty JSON array"],
    ["an entry without a JWT", JSON.stringify([{ user: "a", token: "x" }]), 't.json: entry 0 needs a string "user" and a JWT "token"'],
    [
      "a user twice",
      JSON.stringify([
        { user: "a", token: T },
        { user: "a", token: T },
      ]),
      "user 'a' appears twice",
    ],
  ];
  for (const [name, text, message] of bad) test(`refuses ${name}`, () => expect(() => parseTokenList(text, "t.json")).toThrow(message));
});

describe("requireTokens / isAbsolutePath", () => {
  test("fewer tokens than VUs is refused with the fix", () => {
    expect(() => requireTokens(3, 20, "limits.js: one user per VU (VUS=20)")).toThrow(
      "limits.js: one user per VU (VUS=20): needs 20 users but TOKENS gives 3; pass 20 tokens (e.g. 'graph-stats token create --users 20 --json')",
    );
    expect(() => requireTokens(20, 20)).not.toThrow();
  });
  test("absolute paths", () => {
    expect(isAbsolutePath("/tmp/t.json")).toBe(true);
    expect(isAbsolutePath("C:\\t.json")).toBe(true);
    expect(isAbsolutePath("file:///tmp/t.json")).toBe(true);
    expect(isAbsolutePath("t.json")).toBe(false);
    expect(isAbsolutePath("./t.json")).toBe(false);
  });
});

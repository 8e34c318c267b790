import { describe, expect, test } from "bun:test";
import { isAbsolutePath, parseTokenList, requireTokens } from "./tokens.js";

const T = "aaa.bbb.ccc";

describe("parseTokenList", () => {
  test("keeps user and token of each entry of `token create --json`", () => {
    const text = JSON.stringify([{ user: "load-1", token: T, jti: "j", expires_at: "2026-11-23T00:00:00.000Z" }]);
    expect(parseTokenList(text, "t.json")).toEqual([{ user: "load-1", token: T }]);
  });
  const bad: [string, string, string][] = [
    [
      "plain text (the non --json output)",
      `${T}\n`,
      "t.json: not JSON; create it with 'graph-stats token create --users N --json > t.json'",
    ],
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
    expect(() => requireTokens(3, 20)).toThrow(
      "need 20 tokens (one per VU) but TOKENS has 3; create more with 'graph-stats token create --users 20 --json'",
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

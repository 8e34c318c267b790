import { expect, test } from "bun:test";
import { loginForm } from "./dev-idp.ts";
import { communityName } from "./web/palette.ts";

test("the development sign-in's name pattern compiles as browsers compile `pattern` (the v flag), so the browser checks it", () => {
  const pattern = /pattern="([^"]+)"/.exec(loginForm("uid", ""))![1]!;
  const re = new RegExp(`^(?:${pattern})$`, "v");
  expect(re.test("alice.smith-1_x")).toBe(true);
  expect(re.test("alice smith")).toBe(false);
});

test("the page names communities by the API's own numbers (0, 1, …)", () => {
  expect(communityName(0)).toBe("Community 0");
  expect(communityName(3)).toBe("Community 3");
  expect(communityName(null)).toBe("no community");
});

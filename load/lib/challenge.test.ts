import { describe, expect, test } from "bun:test";
import { challengeParams, checkChallenge, describable } from "./challenge.js";

const REALM = 'Bearer realm="graph-stats"';
const withError = (description: string) => `${REALM}, error="invalid_token", error_description="${description}"`;

describe("checkChallenge", () => {
  test("no token sent (no header, another scheme, bare Bearer): the realm alone passes", () => {
    expect(checkChallenge(REALM, { tokenSent: false, message: "missing bearer token" })).toEqual([]);
  });
  test("no token sent: an error code is a problem (RFC 6750 §3.1)", () => {
    const problems = checkChallenge(withError("malformed authorization header: expected 'Bearer <token>'"), {
      tokenSent: false,
      message: "malformed authorization header: expected 'Bearer <token>'",
    });
    expect(problems).toEqual([expect.stringContaining("carries an error though no bearer token was sent")]);
  });
  test("token sent: error and the message as description pass; the em dash may be folded to '-'", () => {
    expect(checkChallenge(withError("malformed token"), { tokenSent: true, message: "malformed token" })).toEqual([]);
    expect(
      checkChallenge(withError("token expired - generate a new token"), {
        tokenSent: true,
        message: "token expired — generate a new token",
      }),
    ).toEqual([]);
  });
  test("token sent: a missing error, wrong error or wrong description is a problem", () => {
    expect(checkChallenge(REALM, { tokenSent: true, message: "malformed token" })).toEqual([
      "bad-header: WWW-Authenticate error is 'undefined', expected 'invalid_token'",
      "bad-header: WWW-Authenticate lacks error_description",
    ]);
    expect(
      checkChallenge(`${REALM}, error="invalid_request", error_description="malformed token"`, {
        tokenSent: true,
        message: "malformed token",
      }),
    ).toEqual(["bad-header: WWW-Authenticate error is 'invalid_request', expected 'invalid_token'"]);
    expect(checkChallenge(withError("invalid token signature"), { tokenSent: true, message: "malformed token" })).toEqual([
      "bad-header: error_description 'invalid token signature' is not the 401 message 'malformed token'",
    ]);
    expect(
      checkChallenge(withError("token expired — generate a new token"), {
        tokenSent: true,
        message: "token expired — generate a new token",
      }),
    ).toEqual(["bad-header: error_description has characters RFC 6750 forbids: 'token expired — generate a new token'"]);
  });
  test("a missing header, another realm or another scheme is a problem", () => {
    expect(checkChallenge(null, { tokenSent: false, message: "x" })).toEqual(["missing-header: WWW-Authenticate"]);
    expect(checkChallenge('Bearer realm="other"', { tokenSent: false, message: "x" })[0]).toStartWith(
      "bad-header: WWW-Authenticate is not",
    );
    expect(checkChallenge('Basic realm="graph-stats"', { tokenSent: false, message: "x" })[0]).toStartWith(
      "bad-header: WWW-Authenticate is not",
    );
  });
});

describe("challengeParams / describable", () => {
  test("parses quoted auth-params, refuses junk", () => {
    expect(challengeParams(withError("a b"))).toEqual({ realm: "graph-stats", error: "invalid_token", error_description: "a b" });
    expect(challengeParams("Bearer realm=graph-stats")).toBeNull();
    expect(challengeParams('Bearer realm="a" junk')).toBeNull();
  });
  test("folds dashes and drops what error_description cannot carry", () => {
    expect(describable('token expired — generate a new "token" \\ é')).toBe("token expired - generate a new token  ");
  });
});

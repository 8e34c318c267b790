import { describe as group, expect, test } from "bun:test";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { AccountError } from "../dashboard/account.ts";
import { ChartError, type ChartErrorKind } from "../engine/types.ts";
import { DatabaseBusyError, DatabaseStorageError, DatabaseUnavailableError } from "../../db/errors.ts";
import { MarketUnavailableError } from "../market/store-errors.ts";
import { StatusError } from "../status-error.ts";
import { describe, HttpError, toHttpError } from "./http-error.ts";

const sqliteError = (code: string) => Object.assign(new Error(code), { code });
const pgError = (errno: string) => Object.assign(new Error(errno), { errno });

const answer = (err: unknown) => {
  const e = toHttpError(err, "req-1");
  return { status: e.status, code: e.errors[0]?.code as string | undefined, message: e.message, headers: e.headers };
};

group("toHttpError: the one mapping from what was thrown to the answer", () => {
  const chartCases: [ChartErrorKind, number, string][] = [
    ["no-data", 404, "NOT_FOUND"],
    ["no-usable-symbols", 404, "NOT_FOUND"],
    ["interval-unavailable", 400, "BAD_REQUEST"],
    ["insufficient-history", 400, "BAD_REQUEST"],
    ["out-of-range", 400, "BAD_REQUEST"],
    ["too-large", 400, "BAD_REQUEST"],
    ["over-budget", 400, "BAD_REQUEST"],
    ["invalid-parameter", 400, "BAD_REQUEST"],
    ["unknown-universe", 404, "NOT_FOUND"],
    ["unknown-symbols", 404, "NOT_FOUND"],
    ["too-few-symbols", 404, "NOT_FOUND"],
  ];
  for (const [kind, status, code] of chartCases) {
    test(`the data's refusal ${kind} is ${status} ${code}, its message word for word`, () => {
      expect(answer(new ChartError(kind, `why ${kind}`))).toEqual({ status, code, message: `why ${kind}`, headers: {} });
    });
  }

  test("account refusals: disabled 403, unknown token 404, the hourly token limit 429 with Retry-After", () => {
    expect(answer(new AccountError("account-disabled", "disabled"))).toMatchObject({ status: 403, code: "FORBIDDEN", headers: {} });
    expect(answer(new AccountError("unknown-token", "no token"))).toMatchObject({ status: 404, code: "NOT_FOUND", headers: {} });
    expect(answer(new AccountError("token-limit", "at most 10", 42))).toEqual({
      status: 429,
      code: "RATE_LIMITED",
      message: "at most 10",
      headers: { "Retry-After": "42" },
    });
  });

  test("the database's conditions are 503 with Retry-After and the request id; a bug is a 500 naming only the request id", () => {
    const busy = {
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      message: "database busy; retry shortly (request req-1)",
      headers: { "Retry-After": "1" },
    };
    expect(answer(new DatabaseBusyError())).toEqual(busy);
    expect(answer(sqliteError("SQLITE_BUSY"))).toEqual(busy);
    expect(answer(sqliteError("SQLITE_LOCKED_SHAREDCACHE"))).toEqual(busy);
    // SQLite's busy_timeout running out is busy, not PostgreSQL's "unreachable" (its code says TIMEOUT).
    expect(answer(sqliteError("SQLITE_BUSY_TIMEOUT"))).toEqual(busy);
    expect(answer(pgError("55P03"))).toEqual(busy);
    // A PostgreSQL storage failure is one of the meter's busy errors (its 503 says busy).
    expect(answer(new DatabaseStorageError("disk full (53100)"))).toEqual(busy);
    const unreachable = {
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      message: "the database is unreachable; retry shortly (request req-1)",
      headers: { "Retry-After": "2" },
    };
    expect(answer(new DatabaseUnavailableError())).toEqual(unreachable);
    expect(answer(pgError("08006"))).toEqual(unreachable);
    expect(answer(sqliteError("SQLITE_FULL"))).toEqual({
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      message: "the database cannot store writes right now (disk full (SQLITE_FULL)); retry shortly (request req-1)",
      headers: { "Retry-After": "5" },
    });
    expect(answer(new TypeError("x is undefined"))).toEqual({
      status: 500,
      code: "INTERNAL_ERROR",
      message: "internal error; quote request id req-1 when reporting it",
      headers: {},
    });
  });

  test("a market store that cannot be reached is 503 with Retry-After 5, its reason in the message", () => {
    expect(answer(new MarketUnavailableError("database unreachable"))).toEqual({
      status: 503,
      code: "SERVICE_UNAVAILABLE",
      message: "market data unavailable (database unreachable); retry shortly",
      headers: { "Retry-After": "5" },
    });
  });

  test("an HttpError passes through as it is", () => {
    const e = new HttpError(405, "METHOD_NOT_ALLOWED", "use GET", { Allow: "GET" });
    expect(toHttpError(e, "req-1")).toBe(e);
  });
});

test("any module's StatusError is answered as it says, headers included: http-error.ts knows no module but the engine", async () => {
  class QuotaSoldOut extends StatusError {
    constructor() {
      super(429, "RATE_LIMITED", "sold out for today", { "Retry-After": "60" });
    }
  }
  expect(answer(new QuotaSoldOut())).toEqual({
    status: 429,
    code: "RATE_LIMITED",
    message: "sold out for today",
    headers: { "Retry-After": "60" },
  });
  const source = await Bun.file(new URL("./http-error.ts", import.meta.url)).text();
  // The engine imports nothing of ours, so its ChartError has a kind and no status: mapped here.
  expect(source.match(/from "[^"]+"/g)).toEqual(['from "../status-error.ts"', 'from "../../db/errors.ts"', 'from "../engine/types.ts"']);
});

test("describe names a drizzle query error by the driver's error it wraps: never the statement or its parameters", () => {
  const driver = Object.assign(new Error("database is locked"), { name: "SQLiteError", code: "SQLITE_BUSY" });
  const wrapped = new DrizzleQueryError('insert into "sessions" values (?, ?)', ["hash", "csrf-secret"], driver);
  expect(describe(wrapped)).toBe("SQLiteError: database is locked");
  expect(describe(new TypeError("x is undefined"))).toBe("TypeError: x is undefined");
});

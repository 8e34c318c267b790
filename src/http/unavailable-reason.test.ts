import { expect, test } from "bun:test";
import { DatabaseBusyError, DatabaseStorageError, DatabaseUnavailableError } from "../../db/errors.ts";
import { MarketUnavailableError } from "../market/store-errors.ts";
import { HttpError, toHttpError } from "./http-error.ts";
import { unavailableReason } from "./unavailable-reason.ts";

/** A driver error as bun:sqlite and postgres.js throw them: a code, or a SQLSTATE in errno. */
const sqlite = (code: string) => Object.assign(new Error(code), { code });
const pg = (errno: string) => Object.assign(new Error(errno), { errno });

test.each([
  ["market store", new MarketUnavailableError("database unreachable"), "market_unavailable"],
  ["unreachable", new DatabaseUnavailableError(), "database_unreachable"],
  ["PostgreSQL connection refused", sqlite("ECONNREFUSED"), "database_unreachable"],
  ["full SQLite disk", sqlite("SQLITE_FULL"), "database_write_failing"],
  ["full PostgreSQL disk", pg("53100"), "database_write_failing"],
  ["storage error", new DatabaseStorageError("disk full"), "database_write_failing"],
  ["busy", new DatabaseBusyError(), "database_busy"],
  ["SQLite locked", sqlite("SQLITE_BUSY"), "database_busy"],
  ["statement timeout", pg("57014"), "database_busy"],
  ["another 503", new HttpError(503, "SERVICE_UNAVAILABLE", "x"), "other"],
] as const)("a 503 for %s is counted under its reason", (_name, thrown, reason) => {
  // Each is a 503 to the client, so the reason names a 503 that was really answered.
  expect(toHttpError(thrown, "r").status).toBe(503);
  expect(unavailableReason(thrown)).toBe(reason);
});

/** Token generation through the account, on both databases (README.md § Dashboard: at most 10 an hour per user). */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, freshAuthStore, KINDS, secondAuthStore, type Backend } from "../../test/support/both-databases.ts";
import { drizzleOf } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import type { AuthStore } from "../auth/auth-store.ts";
import type { Meter } from "../metering/meter.ts";
import { AccountError, createAccount, TOKENS_PER_HOUR } from "./account.ts";
import { createSqliteAccountStore } from "./account-store-sqlite.ts";
import { createPgAccountStore } from "./account-store-pg.ts";

afterAll(closeBackends);

function account(backend: Backend, auth: AuthStore, clock: TestClock) {
  const store =
    backend.kind === "sqlite" ? createSqliteAccountStore(drizzleOf(backend.sqlite.sqlite)) : createPgAccountStore(backend.pg.db);
  return createAccount({
    store,
    auth,
    clock,
    meter: {} as Meter, // generation never meters
    secret: "account-test-secret-0123456789",
    ttlSeconds: 3600,
    baseUrl: () => "http://127.0.0.1:8080",
  });
}

describe.each(KINDS)("token generation on %s", (kind) => {
  test("40 concurrent clicks from two instances mint exactly 10 tokens; the rest are told when to retry", async () => {
    const { store, backend } = await freshAuthStore(kind);
    const clock = new TestClock(Date.parse("2026-11-26T10:00:00Z"));
    const accounts = [account(backend, store, clock), account(backend, await secondAuthStore(backend), clock)];
    const user = { id: "clicker", email: null, disabled: false };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        accounts[i % 2]!.generate(user).then(
          () => "minted",
          (e: unknown) => e,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "minted")).toHaveLength(TOKENS_PER_HOUR);
    const refused = outcomes.filter((o) => o !== "minted") as AccountError[];
    expect(refused).toHaveLength(30);
    for (const e of refused) {
      expect(e).toBeInstanceOf(AccountError);
      expect(e.kind).toBe("token-limit");
      expect(e.retryAfter).toBe(3600);
    }
    expect((await store.listTokens({ userId: "clicker" })).length).toBe(TOKENS_PER_HOUR);
  });
});

// universes() / universe(name) against GET /v1/universes[/{name}] of the real server (not metered).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { GraphStatsClient, NotFoundError } from "../src/index.ts";
import { startServer, type TestServer, userName } from "./server.ts";

let server: TestServer;
let client: GraphStatsClient;
let user: string;
beforeAll(async () => {
  server = await startServer();
  user = userName();
  client = new GraphStatsClient({ baseUrl: server.url, token: await server.token(user) });
}, 60_000);
afterAll(() => server?.process.stop());

test("universes() lists the sample, unmetered", async () => {
  const sample = (await client.universes()).find((u) => u.name === "sample")!;
  expect(Object.keys(sample)).toEqual(
    expect.arrayContaining(["name", "symbols", "intervals", "first_bar", "last_bar", "data_source", "data_version"]),
  );
  expect([sample.symbols, sample.data_source]).toEqual([50, "synthetic"]);
  expect((await server.usage(user)).admitted).toBe(0);
});

test("universe(name) gives each member's coverage; an unknown one is NotFoundError", async () => {
  const one = await client.universe("sample");
  expect([one.name, one.symbols.length]).toEqual(["sample", 50]);
  expect(Object.keys(one.symbols[0]!.coverage["1d"]!)).toEqual(expect.arrayContaining(["first", "last", "bars", "missing"]));
  const err = await client.universe("nowhere").catch((e) => e);
  expect([err instanceof NotFoundError, err.code, /sample/.test(err.message)]).toEqual([true, "NOT_FOUND", true]);
});

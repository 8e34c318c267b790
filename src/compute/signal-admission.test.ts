/**
 * The signal-or-noise options share the bound on admitted work like any other request
 * (docs/api.md § Heavy requests): the bytes the prepared request carries grow with bootstrap=B and
 * with include_corr under include_graph=all, so beside a computation under way a request that
 * would cross the byte bound is refused, where the same question without them is let in.
 */
import { expect, test } from "bun:test";
import { sampleChartService } from "../../test/support/sample-chart-service.ts";
import { AdmittedWork } from "./admitted-work.ts";

const { service, params } = sampleChartService();

const HELD = "lookback=40&metrics=degree_strength";
const PLAIN = "periods=10&lookback=40&include_graph=all";

test("bootstrap and the matrix carry their bytes to admission: beside a held computation they cross the byte bound the plain request fits", async () => {
  const probe = service();
  const bytes = async (q: string) => (await probe.prepare(params(q), "json")).bytes;
  const held = await bytes(HELD);
  const plain = await bytes(PLAIN);
  const heavier = ["bootstrap=1000", "include_corr=true", "spectrum=true&denoise=mp"];
  for (const extra of heavier) expect(await bytes(`${PLAIN}&${extra}`)).toBeGreaterThan(plain);
  // The bound holds the held request and the plain one exactly.
  const admitted = new AdmittedWork({ costMs: 1e9, bytes: held + plain }, () => 1);
  const chart = service(admitted);
  const reserve = async (q: string) => chart.reserve(await chart.prepare(params(q), "json"));
  const first = await reserve(HELD);
  if (!("release" in first)) throw new Error("a lone computation is always admitted");
  const fits = await reserve(PLAIN);
  expect("release" in fits).toBe(true);
  if ("release" in fits) fits.release();
  for (const extra of heavier) {
    const refused = await reserve(`${PLAIN}&${extra}`);
    expect(refused).toEqual({ full: { retryAfterSeconds: expect.any(Number), jobs: 1 } });
  }
  first.release();
  // Alone, the heaviest is let in: its cost budget bounds it, as for any other request.
  const alone = await reserve(`${PLAIN}&bootstrap=1000`);
  expect("release" in alone).toBe(true);
  if ("release" in alone) alone.release();
  expect(admitted.inUse()).toEqual({ costMs: 0, bytes: 0, jobs: 0 });
});

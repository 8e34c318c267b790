import { expect, test } from "bun:test";
import { SingleFlight } from "./single-flight.ts";

test("callers of a key in flight share one start; keep runs before they see the value; a failure frees the key", async () => {
  const sf = new SingleFlight<string, number>();
  const kept: number[] = [];
  let starts = 0;
  let release!: (v: number) => void;
  const start = () => {
    starts++;
    return new Promise<number>((r) => (release = r));
  };
  const a = sf.run("k", start, (v) => kept.push(v));
  const b = sf.run("k", start, (v) => kept.push(v));
  expect(starts).toBe(1);
  release(7);
  expect(await a.then((v) => [v, [...kept]])).toEqual([7, [7]]);
  expect(await b).toBe(7);
  expect(kept).toEqual([7]);

  let fail!: (e: Error) => void;
  const failing = sf.run(
    "k",
    () => new Promise<number>((_, rej) => (fail = rej)),
    (v) => kept.push(v),
  );
  expect(starts).toBe(1); // a new flight: the first one ended
  fail(new Error("boom"));
  expect(await failing.catch((e: Error) => e.message)).toBe("boom");
  const again = sf.run(
    "k",
    () => Promise.resolve(9),
    (v) => kept.push(v),
  );
  expect(await again).toBe(9);
  expect(kept).toEqual([7, 9]);
});

test("a caller that leaves stops waiting at once; the computation is aborted only when every caller has left", async () => {
  const sf = new SingleFlight<string, number>();
  let computeSignal!: AbortSignal;
  let release!: (v: number) => void;
  const start = (s: AbortSignal) => {
    computeSignal = s;
    return new Promise<number>((r) => (release = r));
  };
  const [a, b] = [new AbortController(), new AbortController()];
  const first = sf.run("k", start, () => {}, a.signal);
  const second = sf.run("k", start, () => {}, b.signal);
  a.abort(new Error("a left"));
  expect(await first.catch((e: Error) => e.message)).toBe("a left");
  expect(computeSignal.aborted).toBe(false); // b still waits for it
  b.abort(new Error("b left"));
  expect(await second.catch((e: Error) => e.message)).toBe("b left");
  expect(computeSignal.aborted).toBe(true);
  // The key is free: the next caller starts a new computation.
  const third = sf.run("k", start, () => {});
  release(5);
  expect(await third).toBe(5);
});

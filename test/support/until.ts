/**
 * Waiting for an event a test cannot be told of directly (a row written by a timer, a thread
 * holding a job): the condition is checked every 10 ms. The bound only ends a failing run; a test
 * asserts the condition, never how long it took.
 */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  for (const end = performance.now() + ms; !cond(); await Bun.sleep(10)) {
    if (performance.now() > end) throw new Error("condition not reached");
  }
}

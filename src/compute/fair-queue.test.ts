/**
 * The order in which the compute pool's queue hands out slices (docs/api.md § Heavy requests):
 * one thread is simulated, a slice a turn, jobs arriving at given turns; what is asserted is who
 * is served at each turn, with no thread and no clock.
 */
import { describe, expect, test } from "bun:test";
import { FairQueue } from "./fair-queue.ts";

interface Job {
  name: string;
  user: string;
  slices: number;
  /** The turn it arrives at (before that turn's slice is handed out). */
  at: number;
}

/** The job served at each turn, until every job is done. */
function served(jobs: Job[]): string[] {
  const q = new FairQueue<{ job: Job; left: number }>();
  const order: string[] = [];
  const pending = [...jobs];
  for (let turn = 0; pending.length > 0 || q.length > 0; turn++) {
    for (const job of pending.filter((j) => j.at === turn)) {
      q.started(job.user);
      q.push({ job, left: job.slices }, job.user);
      pending.splice(pending.indexOf(job), 1);
    }
    const next = q.take(() => true);
    if (!next) continue;
    order.push(next.job.name);
    if (--next.left > 0) q.push(next, next.job.user);
    else q.finished(next.job.user);
  }
  return order;
}

describe("FairQueue's order of slices", () => {
  const cases: [string, Job[], string[]][] = [
    [
      "a small job arriving during a heavy one is served at the next slice, not after the heavy run",
      [
        { name: "heavy", user: "a", slices: 6, at: 0 },
        { name: "small", user: "b", slices: 1, at: 2 },
      ],
      ["heavy", "heavy", "small", "heavy", "heavy", "heavy", "heavy"],
    ],
    [
      "two users' long jobs take turns slice by slice",
      [
        { name: "a1", user: "a", slices: 3, at: 0 },
        { name: "b1", user: "b", slices: 3, at: 0 },
      ],
      ["a1", "b1", "a1", "b1", "a1", "b1"],
    ],
    [
      "many jobs of one user do not hold the thread while another user waits",
      [
        { name: "a1", user: "a", slices: 1, at: 0 },
        { name: "a2", user: "a", slices: 1, at: 0 },
        { name: "a3", user: "a", slices: 1, at: 0 },
        { name: "b1", user: "b", slices: 1, at: 0 },
      ],
      ["a1", "b1", "a2", "a3"],
    ],
    [
      "one user's jobs share its turns in the order their slices were queued",
      [
        { name: "a1", user: "a", slices: 2, at: 0 },
        { name: "a2", user: "a", slices: 2, at: 0 },
      ],
      ["a1", "a2", "a1", "a2"],
    ],
    [
      "a user back after its last job ended is served next: its turn record went with that job",
      [
        { name: "a1", user: "a", slices: 1, at: 0 },
        { name: "b1", user: "b", slices: 4, at: 0 },
        { name: "a2", user: "a", slices: 1, at: 3 },
      ],
      ["a1", "b1", "b1", "a2", "b1", "b1"],
    ],
  ];
  for (const [name, jobs, order] of cases) test(name, () => expect(served(jobs)).toEqual(order));

  test("take skips what the thread cannot run (eligible) without spending the user's turn", () => {
    const q = new FairQueue<string>();
    for (const u of ["a", "b"]) q.started(u);
    q.push("a-part", "a");
    q.push("b-part", "b");
    expect(q.take((item) => item !== "a-part")).toBe("b-part");
    expect(q.take(() => true)).toBe("a-part");
    expect(q.length).toBe(0);
  });
});

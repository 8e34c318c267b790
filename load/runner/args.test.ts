import { describe, expect, test } from "bun:test";
import { requireMultiInstanceScript, runnerArgs } from "./args.ts";

describe("runnerArgs", () => {
  test("takes --instances and --database-url in both forms, anywhere, and leaves k6's arguments in order", () => {
    expect(runnerArgs(["-e", "VUS=5", "--instances", "3", "-q", "--database-url=postgres://u:p@h/db", "--address", ""])).toEqual({
      instances: 3,
      databaseUrl: "postgres://u:p@h/db",
      k6Args: ["-e", "VUS=5", "-q", "--address", ""],
    });
    expect(runnerArgs(["--instances=2", "--database-url", "postgres://h/db"])).toEqual({
      instances: 2,
      databaseUrl: "postgres://h/db",
      k6Args: [],
    });
    expect(runnerArgs(["-e", "DURATION=1m"])).toEqual({ instances: 1, databaseUrl: null, k6Args: ["-e", "DURATION=1m"] });
  });
  test("refuses missing and out-of-range values with the value in the message", () => {
    expect(() => runnerArgs(["--instances"])).toThrow("--instances needs a value");
    expect(() => runnerArgs(["--instances", "0"])).toThrow("--instances must be an integer from 1 to 16, got '0'");
    expect(() => runnerArgs(["--instances=two"])).toThrow("got 'two'");
    expect(() => runnerArgs(["--database-url="])).toThrow("--database-url needs a value");
  });
  test("a k6 flag that only starts like ours is passed through", () => {
    expect(runnerArgs(["--instancesx", "1"]).k6Args).toEqual(["--instancesx", "1"]);
  });
  test("several instances only for the scripts that spread over them", () => {
    expect(() => requireMultiInstanceScript("limits", 3)).not.toThrow();
    expect(() => requireMultiInstanceScript("soak", 2)).not.toThrow();
    expect(() => requireMultiInstanceScript("smoke", 1)).not.toThrow();
    expect(() => requireMultiInstanceScript("smoke", 2)).toThrow(
      "--instances 2: load/smoke.js targets one base URL; only limits and soak spread load over several instances",
    );
  });
});

/**
 * Runs the Python client's pytest suite (clients/python/tests) with Debian's /usr/bin/python3
 * against the compiled server binary of these sources, and fails when pytest does. Skipped,
 * saying why once, only when that Python has no pytest (`.ci/run` installs python3-pytest).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { serverBinary } from "../../test/support/binary.ts";

const PYTHON = "/usr/bin/python3";
const HERE = import.meta.dir;

function hasPytest(): boolean {
  try {
    return Bun.spawnSync([PYTHON, "-c", "import pytest"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  } catch {
    return false;
  }
}

const ready = hasPytest();
if (!ready) console.warn(`python client tests skipped: ${PYTHON} has no pytest (apt-get install python3-pytest python3-pandas)`);

test.skipIf(!ready)(
  "the Python client's pytest suite passes against the real server",
  async () => {
    const bin = await serverBinary();
    const proc = Bun.spawn([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", join(HERE, "tests")], {
      cwd: HERE,
      env: { ...process.env, GRAPH_STATS_BIN: bin, PYTHONDONTWRITEBYTECODE: "1", MPLBACKEND: "Agg" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) console.error(`${out}\n${err}`);
    expect({ code, summary: out.trim().split("\n").at(-1) }).toEqual({ code: 0, summary: expect.stringMatching(/passed/) });
  },
  600_000,
);

import { describe, expect, test } from "bun:test";
import { baseMeta, successBody } from "../envelope.ts";
import { healthyBody } from "./health.ts";

describe("healthyBody (the /health template)", () => {
  test("is byte-identical to the envelope built from objects, for any id shape and version", () => {
    for (const [version, now, uptime, id] of [
      ["0.1.0", Date.UTC(2026, 10, 22, 4, 5, 6, 7), 0, "9664d156-388d-4401-9d44-dc0d51ad6095"],
      ['1.2.3-rc"1\\', Date.UTC(1999, 0, 1), 86_400, "a.b_c-D"],
      ["x", 0, 123456789, "z".repeat(64)],
    ] as const) {
      const meta = baseMeta(now, id);
      const data = { status: "ok", service: "graph-stats", version, time: meta.generated_at, uptime_s: uptime, checks: { database: "ok" } };
      expect(healthyBody(version, now, uptime, id)).toBe(successBody(data, meta));
      expect(JSON.parse(healthyBody(version, now, uptime, id)).meta.request_id).toBe(id);
      const build = { commit: "0123abcd4567", schema: "0008_operator_plans_admin_audit" };
      const withBuild = {
        status: "ok",
        service: "graph-stats",
        version,
        ...build,
        time: meta.generated_at,
        uptime_s: uptime,
        checks: { database: "ok" },
      };
      expect(healthyBody(version, now, uptime, id, build)).toBe(successBody(withBuild, meta));
    }
  });
});

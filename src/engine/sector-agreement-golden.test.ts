/**
 * sectorAgreement against scikit-learn's adjusted_rand_score and normalized_mutual_info_score
 * (arithmetic mean), within 1e-9, on the fixtures bench/sklearn/generate_sector_fixtures.py wrote
 * with Debian's python3-sklearn: edge cases (one community, all singletons, fewer than 2 labelled,
 * absent nodes) and random labellings up to 500 nodes.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/sector-agreement-golden.json" with { type: "json" };
import { sectorAgreement } from "./sector-agreement.ts";

interface Case {
  name: string;
  community: number[];
  sector: (string | null)[];
  ari: number | null;
  nmi: number | null;
  labelled: number;
}

const cases = golden.cases as Case[];

describe(`sector agreement = scikit-learn ${golden.sklearn}`, () => {
  test("the fixtures hold the edge cases and random ones", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(cases.some((c) => c.ari === null)).toBe(true);
    expect(cases.some((c) => c.ari !== null && c.ari < 0)).toBe(true);
    expect(cases.some((c) => c.nmi !== null && c.nmi > 0 && c.nmi < 1)).toBe(true);
  });
  for (const c of cases) {
    test(c.name, () => {
      const got = sectorAgreement(Int32Array.from(c.community), c.sector);
      expect(got.labelled).toBe(c.labelled);
      if (c.ari === null) {
        expect(got.ari).toBeNull();
        expect(got.nmi).toBeNull();
        return;
      }
      expect(Math.abs(got.ari! - c.ari)).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(got.nmi! - c.nmi!)).toBeLessThanOrEqual(1e-9);
    });
  }
});

#!/usr/bin/python3
"""Golden fixtures for src/engine/sector-agreement.ts, computed with Debian's python3-sklearn.

Usage: /usr/bin/python3 bench/sklearn/generate_sector_fixtures.py
Writes test/fixtures/engine/sector-agreement-golden.json: per case the communities and sectors as
the engine receives them (a community < 0 or a null sector leaves the node out), and scikit-learn's
adjusted_rand_score and normalized_mutual_info_score (average_method="arithmetic") over the labelled
nodes, or null for both when fewer than 2 are labelled (the engine's rule, sklearn has none).
"""
import json
import os
import random

import sklearn
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "test", "fixtures", "engine", "sector-agreement-golden.json")
SECTORS = ["Banks", "IT", "Energy", "Autos", "Pharma", "Metals", "FMCG", "Telecom"]


def expected(community, sector):
    pairs = [(c, s) for c, s in zip(community, sector) if s is not None and c >= 0]
    if len(pairs) < 2:
        return {"ari": None, "nmi": None, "labelled": len(pairs)}
    pred = [c for c, _ in pairs]
    truth = [s for _, s in pairs]
    return {
        "ari": float(adjusted_rand_score(truth, pred)),
        "nmi": float(normalized_mutual_info_score(truth, pred, average_method="arithmetic")),
        "labelled": len(pairs),
    }


def case(name, community, sector):
    return {"name": name, "community": community, "sector": sector, **expected(community, sector)}


def main():
    rng = random.Random(20261202)
    cases = [
        case("identical partitions", [0, 0, 1, 1, 2, 2], ["A", "A", "B", "B", "C", "C"]),
        case("identical up to renaming", [2, 2, 0, 0, 1], ["X", "X", "Y", "Y", "Z"]),
        case("one community, several sectors", [0] * 6, ["A", "A", "B", "B", "C", "C"]),
        case("one community, one sector", [0] * 5, ["A"] * 5),
        case("several communities, one sector", [0, 1, 2, 0, 1], ["A"] * 5),
        case("all singletons, several sectors", [0, 1, 2, 3, 4, 5], ["A", "A", "B", "B", "C", "C"]),
        case("all singletons, all sectors distinct", [0, 1, 2, 3], ["A", "B", "C", "D"]),
        case("sklearn's doc example, split classes", [0, 1, 2, 3], ["A", "A", "A", "A"]),
        case("discordant (negative ARI)", [0, 1, 0, 1], ["A", "A", "B", "B"]),
        case("two labelled of five", [0, 1, 0, 1, 2], [None, "A", None, "B", None]),
        case("one labelled", [0, 1, 2], [None, "A", None]),
        case("none labelled", [0, 0, 1], [None, None, None]),
        case("empty graph", [], []),
        case("absent nodes are left out", [0, -1, 1, 0, -1, 1], ["A", "A", "B", "A", "B", "B"]),
        case("two nodes, same sector, different communities", [0, 1], ["A", "A"]),
        case("two nodes, different sectors, one community", [0, 0], ["A", "B"]),
    ]
    for k in range(24):
        n = rng.choice([3, 7, 20, 50, 137, 500])
        n_comm = rng.randint(1, max(1, n // rng.choice([2, 4, 8])))
        n_sect = rng.randint(1, len(SECTORS))
        community = [rng.randrange(n_comm) for _ in range(n)]
        # Half the cases follow the communities with some noise, so agreement is neither 0 nor 1.
        follow = k % 2 == 0
        sector = [
            (SECTORS[c % n_sect] if follow and rng.random() < 0.8 else rng.choice(SECTORS[:n_sect]))
            if rng.random() > 0.15 else None
            for c in community
        ]
        cases.append(case(f"random {k}: {n} nodes, {n_comm} communities, {n_sect} sectors", community, sector))
    with open(OUT, "w") as f:
        json.dump({"generator": "bench/sklearn/generate_sector_fixtures.py", "sklearn": sklearn.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()

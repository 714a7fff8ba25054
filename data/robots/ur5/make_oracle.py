#!/usr/bin/env python3
"""Writes the UR5's reference answers from pinocchio + coal: exact collision meshes (triangle
BVHs) and, beside them, their convex hulls. README.md in this folder describes every file.

Usage (from anywhere; pinocchio 4.1.0 and coal 3.0.3 from PyPI):

    python3 -m venv /work/venv-oracle && /work/venv-oracle/bin/pip install pin==4.1.0
    /work/venv-oracle/bin/python data/robots/ur5/make_oracle.py           # writes the files
    /work/venv-oracle/bin/python data/robots/ur5/make_oracle.py --check   # compares, writes nothing

The model is built by `build` of `benches/robot_pinocchio.py` (the robot `ur5`), once with
`meshes="exact"` and once with `meshes="hull"`; GJK and EPA run with tolerance 1e-10 and
10,000 iterations (`set_tolerances(..., tight=True)`). Everything is deterministic: the
configurations and motions come from `numpy.random.default_rng` with the seeds below, and
coal's answers do not depend on timing (the timings go to `oracle_summary.json` only).

Writes, in this folder:

* `configs_2000.txt`: 2,000 configurations uniform within the joint limits.
* `expected_2000.txt`, `expected_hull_2000.txt`: per configuration
  `self_collides scene_collides min_distance` (exact meshes; convex hulls).
* `expected_2000_detail.tsv`: per configuration, per active pair (a column per pair, named
  `a|b`), `colliding:distance` with the exact meshes.
* `expected_hull_2000_detail.tsv`: per configuration the hull verdicts, the closest pair and
  every colliding pair (as the Panda's detail file).
* `motions_500.txt`, `expected_motions_500.txt`: 500 short motions from free configurations
  and their finely sampled verdicts (exact meshes, then hulls).
* `oracle_summary.json`: the counts and timings that README.md quotes.
"""

import argparse
import importlib.util
import json
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent.parent.parent / "benches" / "robot_pinocchio.py"

spec = importlib.util.spec_from_file_location("robot_pinocchio", BENCH)
rp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rp)  # exits with status 2 when pinocchio or coal is missing
np, pin, coal = rp.np, rp.pin, rp.coal

CONFIG_SEED = 20261126
MOTION_SEED = 20261127
N_CONFIGS = 2000
N_MOTIONS = 500
MAX_STEP = 0.5  # rad per joint, uniform in [-MAX_STEP, MAX_STEP]
RESOLUTION = 1e-3  # rad along the joint that moves most


class Oracle:
    """One pinocchio model with its geometry (exact or hull) and scratch data."""

    def __init__(self, meshes):
        self.model, self.gm, self.info = rp.build("ur5", meshes)
        self.data, self.gd = self.model.createData(), pin.GeometryData(self.gm)
        rp.set_tolerances(self.gd, True)
        obstacles = rp.obstacle_names(self.gm)
        self.labels, self.is_self = [], []
        for cp in self.gm.collisionPairs:
            names = [rp.body_name(self.model, self.gm, k, obstacles) for k in (cp.first, cp.second)]
            self.labels.append("|".join(names))
            self.is_self.append(not any(n in obstacles for n in names))

    def pairs(self, q):
        """Per active pair: (colliding, coal's distance)."""
        pin.computeCollisions(self.model, self.data, self.gm, self.gd, q, False)
        hits = [r.isCollision() for r in self.gd.collisionResults]
        pin.computeDistances(self.model, self.data, self.gm, self.gd, q)
        return [(h, r.min_distance) for h, r in zip(hits, self.gd.distanceResults)]

    def collides(self, q):
        return bool(pin.computeCollisions(self.model, self.data, self.gm, self.gd, q, True))

    def first_colliding_sample(self, q0, q1):
        return rp.first_colliding_sample(self.model, self.data, self.gm, self.gd, q0, q1,
                                         RESOLUTION)


def verdicts(oracle, pairs):
    self_hit = any(h for (h, _), s in zip(pairs, oracle.is_self) if s)
    scene_hit = any(h for (h, _), s in zip(pairs, oracle.is_self) if not s)
    return self_hit, scene_hit, min(d for _, d in pairs)


def best_time(run, n, rounds=3):
    """Seconds per item, best of `rounds` passes after one untimed pass."""
    run()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / n


def fmt(x):
    return "%.17g" % x


def motions(exact, lo, hi):
    """N_MOTIONS motions: q0 uniform within the limits and free (exact meshes; a colliding q0
    is drawn again), q1 = q0 + a uniform step in [-MAX_STEP, MAX_STEP] per joint, clipped to
    the limits (q1 may collide)."""
    rng = np.random.default_rng(MOTION_SEED)
    out, draws = [], 0
    while len(out) < N_MOTIONS:
        draws += 1
        q0 = lo + (hi - lo) * rng.random(len(lo))
        if exact.collides(q0):
            continue
        q1 = np.clip(q0 + rng.uniform(-MAX_STEP, MAX_STEP, len(lo)), lo, hi)
        out.append((q0, q1))
    return out, draws


def distance_text(d):
    """A distance in metres to 1e-7 m; coal's -DBL_MAX (see README.md) in full."""
    return f"{d:.7f}" if abs(d) < 1e3 else f"{d:.17g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in this folder instead of writing them")
    args = parser.parse_args()

    exact, hull = Oracle("exact"), Oracle("hull")
    assert exact.labels == hull.labels
    model = exact.model
    lo, hi = model.lowerPositionLimit.copy(), model.upperPositionLimit.copy()
    rng = np.random.default_rng(CONFIG_SEED)
    qs = lo + (hi - lo) * rng.random((N_CONFIGS, model.nq))

    files = {}
    files["configs_2000.txt"] = "".join(" ".join(fmt(x) for x in q) + "\n" for q in qs)

    exact_rows, hull_rows = [], []
    lines_e, lines_h, detail, hull_detail = [], [], [], []
    detail.append("index\t" + "\t".join(exact.labels) + "\n")
    hull_detail.append("index\tself_collides\tscene_collides\tmin_distance\tclosest_a\tclosest_b"
                       "\tcolliding_pairs\n")
    for i, q in enumerate(qs):
        pe, ph = exact.pairs(q), hull.pairs(q)
        exact_rows.append(pe)
        hull_rows.append(ph)
        se, ce, de = verdicts(exact, pe)
        sh, ch, dh = verdicts(hull, ph)
        lines_e.append(f"{int(se)} {int(ce)} {de:.12e}\n")
        lines_h.append(f"{int(sh)} {int(ch)} {dh:.12e}\n")
        detail.append(f"{i}\t" + "\t".join(f"{int(h)}:{distance_text(d)}" for h, d in pe) + "\n")
        closest = min(range(len(ph)), key=lambda k: ph[k][1])
        hits = [hull.labels[k] for k, (h, _) in enumerate(ph) if h]
        a, b = hull.labels[closest].split("|")
        hull_detail.append(f"{i}\t{int(sh)}\t{int(ch)}\t{dh:.12e}\t{a}\t{b}\t"
                           f"{','.join(hits) or '-'}\n")
    files["expected_2000.txt"] = "".join(lines_e)
    files["expected_hull_2000.txt"] = "".join(lines_h)
    files["expected_2000_detail.tsv"] = "".join(detail)
    files["expected_hull_2000_detail.tsv"] = "".join(hull_detail)

    ms, draws = motions(exact, lo, hi)
    files["motions_500.txt"] = "".join(
        " ".join(fmt(x) for x in a) + " ; " + " ".join(fmt(x) for x in b) + "\n" for a, b in ms)
    motion_lines, motion_rows = [], []
    for a, b in ms:
        ke, n = exact.first_colliding_sample(a, b)
        kh, _ = hull.first_colliding_sample(a, b)
        motion_rows.append((ke, kh, n))
        cell = lambda k: (f"1 {k} {fmt(k / n)}" if k is not None else "0 - -")
        motion_lines.append(f"{n} {cell(ke)} {cell(kh)}\n")
    files["expected_motions_500.txt"] = "".join(motion_lines)

    # --- counts
    ev = [verdicts(exact, p) for p in exact_rows]
    hv = [verdicts(hull, p) for p in hull_rows]
    exact_hit = [s or c for s, c, _ in ev]
    hull_hit = [s or c for s, c, _ in hv]
    false_alarms = [i for i in range(N_CONFIGS) if hull_hit[i] and not exact_hit[i]]
    missed = [i for i in range(N_CONFIGS) if exact_hit[i] and not hull_hit[i]]
    pair_false = Counter()
    pair_false_worst = {}
    pair_missed = 0
    colliding_distances = []
    verdict_sign_mismatch = 0
    for pe, ph in zip(exact_rows, hull_rows):
        for label, (he, de), (hh, _) in zip(exact.labels, pe, ph):
            if hh and not he:
                pair_false[label] += 1
                pair_false_worst[label] = max(pair_false_worst.get(label, 0.0), de)
            pair_missed += he and not hh
            if he:
                colliding_distances.append(de)
            verdict_sign_mismatch += he != (de <= 0)
    cd = np.array(colliding_distances)
    summary = {
        "versions": {"pinocchio": pin.__version__, "coal": getattr(coal, "__version__", "?"),
                     "numpy": np.__version__},
        "seeds": {"configurations": CONFIG_SEED, "motions": MOTION_SEED},
        "pairs": {"self": sum(exact.is_self), "scene": len(exact.is_self) - sum(exact.is_self)},
        "mesh_types": sorted({type(go.geometry).__name__ for go in exact.gm.geometryObjects}),
        "hull_types": sorted({type(go.geometry).__name__ for go in hull.gm.geometryObjects}),
        "configurations": N_CONFIGS,
        "exact": {"self": sum(s for s, _, _ in ev), "scene": sum(c for _, c, _ in ev),
                  "either": sum(exact_hit)},
        "hull": {"self": sum(s for s, _, _ in hv), "scene": sum(c for _, c, _ in hv),
                 "either": sum(hull_hit)},
        "hull_false_alarms": len(false_alarms),
        "hull_false_alarms_worst_exact_distance": max((ev[i][2] for i in false_alarms),
                                                      default=None),
        "hull_missed": len(missed),
        "hull_false_alarm_pairs": dict(pair_false.most_common()),
        "hull_false_alarm_pairs_worst_exact_distance": pair_false_worst,
        "hull_missed_pairs": pair_missed,
        "exact_colliding_pair_distances": {
            "count": int(cd.size), "negative": int((cd < 0).sum()), "zero": int((cd == 0).sum()),
            "positive": int((cd > 0).sum()), "min": float(cd.min()), "max": float(cd.max())},
        "exact_pairs_where_colliding_differs_from_distance_le_0": verdict_sign_mismatch,
        "min_abs_exact_min_distance_free": min(d for (s, c, d) in ev if not (s or c)),
        "motions": {"n": N_MOTIONS, "draws": draws, "max_step": MAX_STEP,
                    "resolution": RESOLUTION,
                    "exact_colliding": sum(ke is not None for ke, _, _ in motion_rows),
                    "hull_colliding": sum(kh is not None for _, kh, _ in motion_rows),
                    "exact_but_not_hull": sum(ke is not None and kh is None
                                              for ke, kh, _ in motion_rows),
                    "samples": sum(n + 1 for _, _, n in motion_rows)},
    }

    if args.check:
        bad = [name for name, text in files.items() if (HERE / name).read_text() != text]
        print(json.dumps(summary, indent=1))
        sys.exit(f"differ: {', '.join(bad)}" if bad else 0)

    # --- timings (one thread, per configuration, seconds)
    rows = [np.ascontiguousarray(q) for q in qs]
    timings = {}
    for name, o in (("exact", exact), ("hull", hull)):
        m, d, gm, gd = o.model, o.data, o.gm, o.gd
        timings[name] = {
            "check_stop_at_first": best_time(
                lambda: [pin.computeCollisions(m, d, gm, gd, q, True) for q in rows], N_CONFIGS),
            "check_all_pairs": best_time(
                lambda: [pin.computeCollisions(m, d, gm, gd, q, False) for q in rows], N_CONFIGS),
            "distance_all_pairs": best_time(
                lambda: [pin.computeDistances(m, d, gm, gd, q) for q in rows], N_CONFIGS, 1),
        }
    summary["seconds_per_configuration_one_thread"] = timings
    files["oracle_summary.json"] = json.dumps(summary, indent=1) + "\n"
    for name, text in files.items():
        (HERE / name).write_text(text)
    print(files["oracle_summary.json"])


if __name__ == "__main__":
    main()

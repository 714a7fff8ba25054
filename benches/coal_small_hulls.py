#!/usr/bin/env python3
"""coal (3.0.x) on the poses of `examples/small_hulls.rs`, for a side-by-side figure.

Usage (from the repository's root; `pip install coal numpy` first):

    SMALL_HULLS_POSES=target/poses cargo run --release --example small_hulls
    python3 benches/coal_small_hulls.py target/poses

For each mesh it builds coal's convex hull of the same OBJ (qhull), places the two copies at
the very poses our harness timed (A and B, translation + quaternion) and measures, one thread:

* GJK distance on the "mixed" poses (about half overlapping): `coal.distance` with signed
  distance off, so overlapping pairs stop at distance 0 as ours do;
* EPA depth on the "overlapping" poses: `coal.collide` with contacts (coal runs EPA there).

Times are wall-clock microseconds per call through coal's `ComputeDistance` /
`ComputeCollision` functors (a fresh result each call), the median of the rounds, printed
both as measured and net of the same loop run on two spheres, which coal answers
analytically (the loop's Python cost; coal's `enable_timings` reported zero in this build).
EPA here is `ComputeCollision` with `enable_contact` on the overlapping poses.
"""

import statistics
import sys
import time
from pathlib import Path

import coal
import numpy as np


def obj_points(path):
    pts = []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            if line.startswith("v "):
                x, y, z = line.split()[1:4]
                pts.append([float(x), float(y), float(z)])
    return np.array(pts)


def transform(t, q_xyzw):
    x, y, z, w = q_xyzw
    return coal.Transform3s(coal.Quaternion(w, x, y, z).normalized().toRotationMatrix(),
                            np.array(t))


def read_poses(path):
    out = {"overlapping": [], "mixed": []}
    for line in path.read_text().splitlines():
        kind, *nums = line.split()
        v = [float(x) for x in nums]
        out[kind].append((transform(v[0:3], v[3:7]), transform(v[7:10], v[10:14])))
    return out


def loop(call, poses, make_result, rounds):
    """Median over rounds of the mean wall-clock microseconds per call of `call`."""
    per_round = []
    for _ in range(rounds):
        start = time.perf_counter()
        for ta, tb in poses:
            call(ta, tb, make_result())
        per_round.append((time.perf_counter() - start) / len(poses) * 1e6)
    return statistics.median(per_round)


def timed(hull, poses, rounds):
    """coal's GJK distance (mixed poses) and EPA depth (overlapping poses), net of the
    Python loop's own cost, measured the same way on two spheres (coal answers those
    analytically, in a few tens of nanoseconds)."""
    sphere = coal.Sphere(1.0)
    distance_request = coal.DistanceRequest()
    distance_request.enable_signed_distance = False
    collision_request = coal.CollisionRequest()
    collision_request.enable_contact = True

    def distance(a, b):
        f = coal.ComputeDistance(a, b)
        return lambda ta, tb, r: f(ta, tb, distance_request, r)

    def collision(a, b):
        f = coal.ComputeCollision(a, b)
        return lambda ta, tb, r: f(ta, tb, collision_request, r)

    gjk = loop(distance(hull, hull), poses["mixed"], coal.DistanceResult, rounds)
    gjk_base = loop(distance(sphere, sphere), poses["mixed"], coal.DistanceResult, rounds)
    epa = loop(collision(hull, hull), poses["overlapping"], coal.CollisionResult, rounds)
    epa_base = loop(collision(sphere, sphere), poses["overlapping"], coal.CollisionResult, rounds)
    return gjk, gjk - gjk_base, epa, epa - epa_base


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "target/poses")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    data = Path(__file__).resolve().parent.parent / "data"
    for poses_file in sorted(folder.glob("*.poses.txt")):
        name = poses_file.name.removesuffix(".poses.txt")
        points = obj_points(data / f"{name}.obj")
        vertices = coal.StdVec_Vec3s()
        vertices.extend(list(points))
        hull = coal.Convex.convexHull(vertices, False, "")
        poses = read_poses(poses_file)
        gjk, gjk_net, epa, epa_net = timed(hull, poses, rounds)
        print(f"{name} ({hull.num_points} hull vertices): coal GJK distance {gjk_net:.2f} µs "
              f"net ({gjk:.2f} µs with the Python loop), EPA {epa_net:.2f} µs net "
              f"({epa:.2f} µs with the loop)")


if __name__ == "__main__":
    main()

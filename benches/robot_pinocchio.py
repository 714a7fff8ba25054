#!/usr/bin/env python3
"""pinocchio + coal on a bundled robot and its scene — the Panda with the table and shelf
(default), or the UR5 on its table top (`--robot ur5`) — for comparison with `benches/robot.rs`
(group `robot/table_shelf`) and the report. Not run by CI.

Usage (from the repository's root):

    python3 -m venv /work/venv-pin && /work/venv-pin/bin/pip install pin
    /work/venv-pin/bin/python benches/robot_pinocchio.py                       # configs_1000.txt
    /work/venv-pin/bin/python benches/robot_pinocchio.py \
        --configs target/robot-bench/configs_random_10000_seed20250601.txt    # the Rust bench's
    /work/venv-pin/bin/python benches/robot_pinocchio.py --random 10000 --seed 1
    /work/venv-pin/bin/python benches/robot_pinocchio.py --robot ur5 --meshes exact   # configs_2000.txt
    ... --out result.json

Robots (`--robot`), each with its URDF, SRDF, scene and default configurations:

* `panda`: `data/robots/panda/` (`panda.urdf`, `panda.srdf`, `scene_table_shelf.json`,
  `configs_1000.txt`);
* `ur5`: `data/robots/ur5/` (`ur5.urdf`, `ur5.srdf`, `scene_tabletop.json`, `configs_2000.txt`;
  its meshes are not convex).

Meshes (`--meshes`):

* `hull` (default, what polyquery checks today): every mesh replaced by its convex hull,
  computed by coal with qhull (`bvh.buildConvexHull(True, "Qt"); geometry = bvh.convex`);
* `exact`: the meshes as pinocchio loads them, triangle BVHs (`coal.BVHModelOBBRSS`), as
  MoveIt and pinocchio check them. coal's BVH distance for a colliding pair is not a
  penetration depth (see `data/robots/ur5/README.md`).

The model is built as data/robots/panda/README.md describes: `pin.buildModelsFromUrdf(...,
geometry_types=COLLISION, mimic=True)` (the Panda: 8 configuration values; the UR5: 6), the
meshes as `--meshes` says (primitive shapes, such as the Panda's finger boxes, stay
primitives), the scene's obstacles added on the universe joint (`coal.Box`, `coal.Sphere`,
`coal.Cylinder`, `coal.Capsule`; mesh obstacles are refused), `addAllCollisionPairs()`, then
the SRDF's `disable_collisions` and the scene's `allowed_collisions` removed (the Panda: 124
pairs, 44 self + 80 scene; the UR5: 58, 17 self + 41 scene). GJK/EPA tolerances are
pinocchio's defaults unless `--tight` (1e-10, 10,000 iterations, as used for the `expected_*`
files).

Modes (configurations per second, best of `--rounds` passes over all configurations, after
one untimed warm-up pass; the median is reported too):

* `check_loop`: `pin.computeCollisions(model, data, gm, gd, q, True)` once per configuration
  from Python (forward kinematics, placements, pairs in order, stop at the first collision);
  includes the Python call overhead.
* `check_batched_1_thread` / `check_batched_N_threads`: the batch call of pin >= 3,
  `pin.computeCollisionsInParallel(threads, GeometryPool, Q, True)` on all configurations at
  once (one C++ call; per configuration it stops at the first collision).
* `distance_loop`: `pin.computeDistances(model, data, gm, gd, q)` once per configuration from
  Python (every active pair's distance; the minimum is `gd.distanceResults[i].min_distance`
  for the returned index `i`; negative when colliding: coal's distances are signed).
* `motion_sampled_loop` (with `--motions FILE`): a sampled motion check per motion, as
  `Checker::check_motion_sampled` does it: `n = ceil(max_j |q1_j - q0_j| / resolution)` steps
  (`--resolution`, default 0.01 rad), the configurations `q(k/n)`, `k = 0 ... n` in order (the
  last exactly `q1`), `pin.computeCollisions(..., True)` on each, stopping at the first
  colliding one. Motions per second; the JSON's `motions` records how many collide.

`polyquery report` writes the inputs it uses into its output folder, so this script can run
on the identical ones:

    python3 benches/robot_pinocchio.py --configs report/robot_configurations.txt \
        --motions report/robot_motions.txt --out pin.json
    polyquery report --pinocchio pin.json

Output: one JSON object (stdout, or `--out FILE`) with the configurations/s per mode, the
fraction of colliding configurations, the robot and meshes (`robot`, `meshes`, `bvh_meshes`,
`convex_hulls`), the pinocchio, coal and numpy versions, the thread count and the settings.
Exits with status 2 and a one-line message when pinocchio or coal is not installed.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROBOTS = {
    "panda": {
        "dir": ROOT / "data" / "robots" / "panda",
        "urdf": "panda.urdf",
        "srdf": "panda.srdf",
        "scene": "scene_table_shelf.json",
        "configs": "configs_1000.txt",
        "title": "Panda + table and shelf (scene_table_shelf.json)",
    },
    "ur5": {
        "dir": ROOT / "data" / "robots" / "ur5",
        "urdf": "ur5.urdf",
        "srdf": "ur5.srdf",
        "scene": "scene_tabletop.json",
        "configs": "configs_2000.txt",
        "title": "UR5 + table top (scene_tabletop.json)",
    },
}
MESHES = ("hull", "exact")

try:
    import coal
    import numpy as np
    import pinocchio as pin
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.stderr.write(
        f"robot_pinocchio.py: {e.name or e} is not installed; this benchmark needs pinocchio "
        "and coal (`pip install pin`, which brings both and numpy). Nothing was measured.\n"
    )
    sys.exit(2)


def data_lines(path):
    """The file's lines that hold data, stripped, with their line numbers (blank lines and
    `#` comments skipped)."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield number, line


def read_configurations(path):
    rows = []
    for number, line in data_lines(path):
        try:
            rows.append([float(x) for x in line.split()])
        except ValueError:
            sys.exit(f"{path}:{number}: not a line of numbers: {line[:80]!r}")
    if not rows:
        sys.exit(f"{path}: no configurations")
    return np.array(rows, dtype=float)


def read_motions(path):
    """One motion per line: `q0 ; q1`, each a line of numbers as in a configurations file."""
    motions = []
    for number, line in data_lines(path):
        parts = line.split(";")
        try:
            q0, q1 = ([float(x) for x in p.split()] for p in parts)
        except ValueError:
            sys.exit(f"{path}:{number}: not `q0 ; q1`: {line[:80]!r}")
        if len(q0) != len(q1):
            sys.exit(f"{path}:{number}: q0 has {len(q0)} values, q1 {len(q1)}")
        motions.append((np.array(q0, dtype=float), np.array(q1, dtype=float)))
    if not motions:
        sys.exit(f"{path}: no motions")
    return motions


def first_colliding_sample(model, data, gm, gd, q0, q1, resolution):
    """`(k, n)`: the samples of Checker::check_motion_sampled, `q(k/n)` for `k = 0 ... n` in
    order (`n = ceil(max_j |q1_j - q0_j| / resolution)`, at least 1; the last exactly `q1`),
    and the first colliding one's `k`, or `None` when every sample is free."""
    longest = float(np.max(np.abs(q1 - q0))) if len(q0) else 0.0
    n = max(1, int(np.ceil(longest / resolution)))
    dq = q1 - q0
    for k in range(n + 1):
        q = q1 if k == n else q0 + (k / n) * dq
        if pin.computeCollisions(model, data, gm, gd, q, True):
            return k, n
    return None, n


def sampled_motion(model, data, gm, gd, q0, q1, resolution):
    """True when some sample collides (stops there); the samples as Checker::check_motion_sampled."""
    return first_colliding_sample(model, data, gm, gd, q0, q1, resolution)[0] is not None


def random_configurations(model, n, seed):
    """Uniform within the joint limits (numpy's default_rng(seed)); not the Rust bench's."""
    rng = np.random.default_rng(seed)
    lo, hi = model.lowerPositionLimit, model.upperPositionLimit
    return lo + (hi - lo) * rng.random((n, model.nq))


def transform(pose):
    t = pose["translation"]
    x, y, z, w = pose["rotation_xyzw"]
    rotation = coal.Quaternion(w, x, y, z).normalized().toRotationMatrix()
    return pin.SE3(rotation, np.array(t, dtype=float))


def obstacle_geometry(obstacle):
    """The coal shape of one obstacle of a scene file (its format: src/robot/scene.rs)."""
    if "box" in obstacle:
        return coal.Box(*(2.0 * np.array(obstacle["box"]["half_extents"], dtype=float)))
    if "sphere" in obstacle:
        return coal.Sphere(float(obstacle["sphere"]["radius"]))
    if "cylinder" in obstacle:  # axis z, centred, `length` the full length (as coal's lz)
        return coal.Cylinder(float(obstacle["cylinder"]["radius"]), float(obstacle["cylinder"]["length"]))
    if "capsule" in obstacle:
        return coal.Capsule(float(obstacle["capsule"]["radius"]), float(obstacle["capsule"]["length"]))
    sys.exit(f"obstacle {obstacle.get('name')!r}: only box, sphere, cylinder and capsule obstacles "
             "are supported here")


def build(robot="panda", meshes="hull"):
    """pinocchio's model and geometry model of `robot` (a key of ROBOTS) in its scene, every
    mesh a triangle BVH (`meshes="exact"`) or its qhull convex hull (`"hull"`); with the SRDF's
    pairs removed. Returns `(model, geometry_model, info)`, `info` counting the meshes."""
    spec = ROBOTS[robot]
    folder = spec["dir"]
    model, gm = pin.buildModelsFromUrdf(
        str(folder / spec["urdf"]),
        package_dirs=[str(folder)],
        geometry_types=pin.GeometryType.COLLISION,
        mimic=True,
    )
    hulls = bvhs = 0
    for go in gm.geometryObjects:
        if isinstance(go.geometry, coal.BVHModelBase):
            if meshes == "hull":
                go.geometry.buildConvexHull(True, "Qt")
                go.geometry = go.geometry.convex
                hulls += 1
            else:
                bvhs += 1
    scene = json.loads((folder / spec["scene"]).read_text())
    for obstacle in scene["obstacles"]:
        go = pin.GeometryObject(obstacle["name"], 0, 0, transform(obstacle["pose"]),
                                obstacle_geometry(obstacle))
        gm.addGeometryObject(go)
    gm.addAllCollisionPairs()
    pin.removeCollisionPairs(model, gm, str(folder / spec["srdf"]))
    remove_allowed_scene_pairs(model, gm, scene.get("allowed_collisions", []))
    return model, gm, {"convex_hulls": hulls, "bvh_meshes": bvhs}


def obstacle_names(gm):
    """The names of the scene's obstacles: the geometries on the universe joint's own frame
    (a link fixed to the world, such as a base link, hangs on its own frame)."""
    return {go.name for go in gm.geometryObjects if go.parentJoint == 0 and go.parentFrame == 0}


def body_name(model, gm, k, obstacles):
    """Geometry `k`'s body, as polyquery names it: its link, or the obstacle's name."""
    go = gm.geometryObjects[k]
    return go.name if go.name in obstacles else model.frames[go.parentFrame].name


def remove_allowed_scene_pairs(model, gm, allowed):
    """Removes the pairs of the scene's `allowed_collisions` ([link, obstacle] names) from
    `gm`, as polyquery never checks them."""
    obstacles = obstacle_names(gm)
    allowed = {frozenset(pair) for pair in allowed}
    for cp in list(gm.collisionPairs):
        names = (body_name(model, gm, k, obstacles) for k in (cp.first, cp.second))
        if frozenset(names) in allowed:
            gm.removeCollisionPair(cp)


def set_tolerances(gd, tight):
    if not tight:
        return
    for request in gd.collisionRequests:
        request.gjk_tolerance = 1e-10
        request.gjk_max_iterations = 10_000
        request.epa_tolerance = 1e-10
        request.epa_max_iterations = 10_000
    for request in gd.distanceRequests:
        request.gjk_tolerance = 1e-10
        request.gjk_max_iterations = 10_000
        request.epa_tolerance = 1e-10
        request.epa_max_iterations = 10_000


def timed(run, n, rounds):
    """Runs `run()` once untimed, then `rounds` times; configurations/s (best, median)."""
    run()
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        rates.append(n / (time.perf_counter() - start))
    return {"configurations_per_s": max(rates), "median_configurations_per_s": statistics.median(rates)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--configs", type=Path, default=None,
                        help="configurations file, one per line (default: the robot's "
                             "bundled file, data/robots/panda/configs_1000.txt or "
                             "data/robots/ur5/configs_2000.txt)")
    source.add_argument("--random", type=int, metavar="N", default=None,
                        help="N random configurations within the limits instead of a file")
    parser.add_argument("--seed", type=int, default=0, help="seed for --random (default 0)")
    parser.add_argument("--robot", choices=sorted(ROBOTS), default="panda",
                        help="the robot and its scene (default panda)")
    parser.add_argument("--meshes", choices=MESHES, default="hull",
                        help="hull: every mesh's convex hull (default, as polyquery today); "
                             "exact: the meshes as triangle BVHs")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes per mode (default 3)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="threads of the batched all-threads mode (default: all)")
    parser.add_argument("--tight", action="store_true",
                        help="GJK/EPA tolerance 1e-10 and 10,000 iterations (as the expected_* files)")
    parser.add_argument("--skip-distance", action="store_true", help="skip computeDistances")
    parser.add_argument("--motions", type=Path, default=None,
                        help="motions file, one `q0 ; q1` per line (polyquery report writes "
                             "robot_motions.txt): adds the sampled motion check")
    parser.add_argument("--resolution", type=float, default=0.01,
                        help="sampled motion check's step in radians (default 0.01)")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here, not stdout")
    args = parser.parse_args()

    model, gm, mesh_info = build(args.robot, args.meshes)
    data, gd = model.createData(), pin.GeometryData(gm)
    set_tolerances(gd, args.tight)

    if args.random is not None:
        qs = random_configurations(model, args.random, args.seed)
        source_name = f"random {args.random} (numpy default_rng({args.seed}))"
    else:
        spec = ROBOTS[args.robot]
        path = args.configs or spec["dir"] / spec["configs"]
        qs = read_configurations(path)
        source_name = str(path)
    if qs.shape[1] != model.nq:
        sys.exit(f"{source_name}: {qs.shape[1]} values per configuration, the model has nq = {model.nq}")
    n = len(qs)
    rows = [np.ascontiguousarray(q) for q in qs]

    # Verdicts once, untimed: the colliding fraction (stop at first collision does not change it).
    colliding = sum(bool(pin.computeCollisions(model, data, gm, gd, q, True)) for q in rows)

    results = {}
    results["check_loop"] = timed(
        lambda: [pin.computeCollisions(model, data, gm, gd, q, True) for q in rows], n, args.rounds)

    batch = np.asfortranarray(qs.T)  # nq x N, one configuration per column
    batched_verdicts = None
    for threads in sorted({1, max(1, args.threads)}):
        pool = pin.GeometryPool(model, gm, threads)
        for pool_gd in pool.getGeometryDatas():
            set_tolerances(pool_gd, args.tight)
        key = f"check_batched_{threads}_thread{'s' if threads > 1 else ''}"

        def run(pool=pool, threads=threads):
            return pin.computeCollisionsInParallel(threads, pool, batch, True)

        batched_verdicts = np.asarray(run(), dtype=bool)
        results[key] = timed(run, n, args.rounds)
        results[key]["threads"] = threads
    batched_colliding = int(batched_verdicts.sum())

    min_distances = []
    if not args.skip_distance:
        def distance_pass():
            out = []
            for q in rows:
                i = pin.computeDistances(model, data, gm, gd, q)
                out.append(gd.distanceResults[i].min_distance)
            return out

        min_distances = distance_pass()
        results["distance_loop"] = timed(distance_pass, n, args.rounds)

    motions_info = None
    if args.motions is not None:
        motions = read_motions(args.motions)
        if any(len(q0) != model.nq for q0, _ in motions):
            sys.exit(f"{args.motions}: motions must have nq = {model.nq} values per configuration")
        motions = [(np.ascontiguousarray(a), np.ascontiguousarray(b)) for a, b in motions]
        if not args.resolution > 0:
            sys.exit("--resolution must be positive")

        def motion_pass():
            return [sampled_motion(model, data, gm, gd, a, b, args.resolution) for a, b in motions]

        verdicts = motion_pass()
        timing = timed(motion_pass, len(motions), args.rounds)
        results["motion_sampled_loop"] = {
            "motions_per_s": timing["configurations_per_s"],
            "median_motions_per_s": timing["median_configurations_per_s"],
        }
        motions_info = {
            "file": str(args.motions),
            "n": len(motions),
            "resolution": args.resolution,
            "colliding": int(sum(verdicts)),
        }

    report = {
        "benchmark": f"robot_pinocchio: {ROBOTS[args.robot]['title']}, {args.meshes} meshes",
        "robot": args.robot,
        "meshes": args.meshes,
        "configurations": source_name,
        "n": n,
        "colliding_fraction": colliding / n,
        "colliding_fraction_batched": batched_colliding / n,
        "min_distance_negative_fraction": (sum(d < 0 for d in min_distances) / n
                                           if min_distances else None),
        "collision_pairs": len(gm.collisionPairs),
        "convex_hulls": mesh_info["convex_hulls"],
        "bvh_meshes": mesh_info["bvh_meshes"],
        "tolerances": "1e-10 (tight)" if args.tight else "pinocchio defaults",
        "modes": results,
        "motions": motions_info,
        "versions": {
            "pinocchio": pin.__version__,
            "coal": getattr(coal, "__version__", "unknown"),
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform()},
    }
    text = json.dumps(report, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
        sys.stderr.write(f"wrote {args.out}\n")
    else:
        print(text)


if __name__ == "__main__":
    main()

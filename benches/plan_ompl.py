#!/usr/bin/env python3
"""Side-by-side planning on the MotionBenchMaker Panda problems (`data/robots/mbm_panda/`,
7 sets x 100), one thread, the same time limit per problem for three planners:

* `polyquery`: the library's `Planner` through the Python binding (RRT-Connect, shortcuts and
  vertex removal, every edge certified); `planning_seconds` is its search, `simplify_seconds`
  its simplification plus the certification of the result;
* `ompl_polyquery`: OMPL 2.0.1 RRTConnect + `SimpleSetup.simplifySolution()` with
  `polyquery.ompl`'s adapter (states by `Checker.check`, motions by the certified
  `Checker.check_motions`);
* `ompl_coal`: OMPL 2.0.1 RRTConnect + `simplifySolution()` with states checked by pinocchio 4.1
  + coal 3.0.3 on the robot's exact collision meshes (triangle BVHs) and the scene's primitives,
  and edges by OMPL's discrete motion validator (state validity checking resolution `--res`, a
  fraction of the space's extent) — what a Python user assembles today.

Every path any of them returns is re-checked edge by edge by polyquery's certified motion
check (`Checker.check_motions(path[:-1], path[1:], certified=True)`, the robot's decomposed
meshes, which contain the exact meshes) and counted as certified free or not. Not run by CI.

Usage (from the repository's root; pin, coal and tqdm are needed only for what uses them):

    python3 -m venv /work/venv-ompl
    /work/venv-ompl/bin/pip install numpy pyyaml tqdm ompl==2.0.1 pin==4.1.0 ./python
    python benches/plan_ompl.py --out plan_ompl.jsonl        # all 700
    python benches/plan_ompl.py --limit 15 --out plan_ompl.jsonl
    python benches/plan_ompl.py --sets box,cage --planners polyquery,ompl_coal
    python benches/plan_ompl.py --summarize plan_ompl.jsonl  # the summary again
    python benches/plan_ompl.py --summarize plan_ompl.jsonl --exact-step 0.005

`--limit N` takes the first N problems of each set; problems run in the order 0001 of every
set, then 0002, ..., so a run cut short is spread over the sets. `--out FILE` gets one JSON line
per planner and problem, written as it goes:

    {"planner": "polyquery" | "ompl_polyquery" | "ompl_coal",
     "problem": "bookshelf_small_panda/0001", "solved": bool, "planning_seconds": f,
     "simplify_seconds": f, "length": f | null, "path": [[...], ...] | null,
     "certified_free": bool | null}

`length` is the path's length in joint space (sum of the edges' L2 norms). The summary on
stdout gives, per planner, the problems solved, the median / mean / p95 planning time (of the
solved ones), the median simplification time, the median length, the paths not certified free,
and the median length over the problems every planner solved. Progress goes to stderr (tqdm).
`--exact-step RAD` (with `--summarize`) re-checks each path not certified free on the exact
meshes with pinocchio + coal at samples every RAD rad: polyquery's pieces contain the meshes
(within the decomposition's tolerance), so a path can fail certification and still miss the
exact meshes at every sample.
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

import polyquery as pq

ROOT = Path(__file__).resolve().parents[1]
MBM = ROOT / "data" / "robots" / "mbm_panda"
PLANNERS = ("polyquery", "ompl_polyquery", "ompl_coal")


def path_length(path):
    """Σ ‖path[i+1] − path[i]‖₂ (None for no path)."""
    if path is None:
        return None
    return float(np.linalg.norm(np.diff(path, axis=0), axis=1).sum())


def certified_free(checker, path):
    """Whether every edge of the path is free by polyquery's certified motion check."""
    if path is None:
        return None
    if len(path) < 2:
        return bool(not checker.check(path[0], parallel=False))
    free, _ = checker.check_motions(path[:-1], path[1:], certified=True, parallel=False)
    return bool(np.all(free))


def run_polyquery(checker, start, goal, args):
    """polyquery's own planner: (solved, planning s, simplify s, path)."""
    try:
        plan = pq.Planner(checker).plan(start, goal, timeout=args.timeout, seed=args.seed)
    except ValueError as e:  # an invalid start or goal: not planned
        print(f"polyquery: {e}", file=sys.stderr)
        return False, 0.0, 0.0, None
    after_search = plan.simplify_seconds + plan.certify_seconds
    return plan.solved, plan.planning_seconds, after_search, plan.path


def solve_and_simplify(ss, timeout, dof):
    """OMPL's SimpleSetup solved within `timeout`, then simplified when it found an exact
    solution: (solved, planning s, simplify s, (N, dof) path or None)."""
    t = time.perf_counter()
    status = ss.solve(timeout)
    plan_s = time.perf_counter() - t
    if not (bool(status) and ss.haveExactSolutionPath()):
        return False, plan_s, 0.0, None
    t = time.perf_counter()
    ss.simplifySolution()
    simp_s = time.perf_counter() - t
    p = ss.getSolutionPath()
    path = np.array([p.getState(i)[0:dof] for i in range(p.getStateCount())], dtype=np.float64)
    return True, plan_s, simp_s, path


def run_ompl_polyquery(checker, start, goal, args):
    """OMPL RRTConnect + simplification with the polyquery adapter."""
    import polyquery.ompl as pqo

    ss = pqo.simple_setup(checker, start, goal)
    out = solve_and_simplify(ss, args.timeout, checker.dof)
    # The validators hold the checker and OMPL holds them (a cycle through C++ that Python's
    # collector cannot see): let go of the checker so each problem's shapes are freed.
    si = ss.getSpaceInformation()
    si.getStateValidityChecker().checker = None
    si.getMotionValidator().checker = None
    return out


class CoalBaseline:
    """pinocchio + coal on the exact meshes: the robot loaded once, each scene's primitives
    added to a copy of its geometry model, every robot–obstacle pair checked."""

    def __init__(self, joint_names):
        import pinocchio as pin

        self.pin = pin
        urdf = str(MBM / "panda.urdf")
        self.model = pin.buildModelFromUrdf(urdf)
        self.geom = pin.buildGeomFromUrdf(self.model, urdf, pin.COLLISION, package_dirs=[str(MBM)])
        self.geom.addAllCollisionPairs()
        pin.removeCollisionPairs(self.model, self.geom, str(MBM / "panda.srdf"))
        self.nrobot = len(self.geom.geometryObjects)
        self.idx = [self.model.joints[self.model.getJointId(n)].idx_q for n in joint_names]
        self.lo = np.array([self.model.lowerPositionLimit[i] for i in self.idx])
        self.hi = np.array([self.model.upperPositionLimit[i] for i in self.idx])

    def scene(self, scene_path):
        """The robot's geometry model with the MoveIt scene's boxes, cylinders and spheres."""
        import coal
        import yaml

        pin = self.pin
        g = self.geom.copy()
        with open(scene_path) as f:
            sc = yaml.safe_load(f)

        def se3(pose):
            x, y, z, w = pose["orientation"]
            rot = pin.Quaternion(w, x, y, z).toRotationMatrix()
            return pin.SE3(rot, np.array(pose["position"], dtype=float))

        for obj in sc["world"].get("collision_objects", []):
            base = se3(obj["pose"]) if obj.get("pose") else pin.SE3.Identity()
            for prim, pose in zip(obj.get("primitives", []), obj.get("primitive_poses", [])):
                d = prim["dimensions"]
                kind = prim["type"]
                if kind == "box":
                    shape = coal.Box(*d)
                elif kind == "cylinder":  # MoveIt: [height, radius]
                    shape = coal.Cylinder(d[1], d[0])
                elif kind == "sphere":
                    shape = coal.Sphere(d[0])
                else:
                    raise ValueError(f"{scene_path}: primitive {kind!r} not handled")
                oid = g.addGeometryObject(pin.GeometryObject(obj["id"], 0, base * se3(pose), shape))
                for i in range(self.nrobot):
                    g.addCollisionPair(pin.CollisionPair(i, oid))
        return g

    def path_collides(self, scene_path, path, step):
        """Whether the path collides on the exact meshes at any of its edges' samples, taken
        every `step` rad of the largest joint change (both ends included)."""
        pin = self.pin
        g = self.scene(scene_path)
        data, gdata = pin.Data(self.model), pin.GeometryData(g)
        q = pin.neutral(self.model)
        for a, b in zip(path[:-1], path[1:]):
            n = max(1, int(math.ceil(np.max(np.abs(b - a)) / step)))
            for t in np.linspace(0.0, 1.0, n + 1):
                q[self.idx] = a + t * (b - a)
                if pin.computeCollisions(self.model, data, g, gdata, q, True):
                    return True
        return False

    def run(self, scene_path, start, goal, args):
        """OMPL RRTConnect + simplification, states by coal, edges by discrete samples."""
        from ompl import base as ob
        from ompl import geometric as og

        pin = self.pin
        g = self.scene(scene_path)
        data, gdata = pin.Data(self.model), pin.GeometryData(g)
        q = pin.neutral(self.model)
        idx, dof = self.idx, len(self.idx)

        def valid(state):
            v = state[0:dof]
            for k, i in enumerate(idx):
                q[i] = v[k]
            return not pin.computeCollisions(self.model, data, g, gdata, q, True)

        space = ob.RealVectorStateSpace(dof)
        bounds = ob.RealVectorBounds(dof)
        for k in range(dof):
            bounds.setLow(k, float(self.lo[k]))
            bounds.setHigh(k, float(self.hi[k]))
        space.setBounds(bounds)
        ss = og.SimpleSetup(space)
        ss.setStateValidityChecker(valid)
        si = ss.getSpaceInformation()
        si.setStateValidityCheckingResolution(args.res)
        s, t = space.allocState(), space.allocState()
        for k in range(dof):
            s[k], t[k] = float(start[k]), float(goal[k])
        ss.setStartAndGoalStates(s, t)
        ss.setPlanner(og.RRTConnect(si))
        return solve_and_simplify(ss, args.timeout, dof)


def problems(args):
    """(name, scene, request) of the chosen problems, interleaved over the sets."""
    by_set = {}
    for name, scene, request in pq.motion_problems(args.problems):
        set_name = name.split("/")[0]
        if args.sets and not any(set_name.startswith(s) for s in args.sets.split(",")):
            continue
        by_set.setdefault(set_name, []).append((name, scene, request))
    if args.limit:
        by_set = {k: v[: args.limit] for k, v in by_set.items()}
    out = []
    for i in range(max((len(v) for v in by_set.values()), default=0)):
        out += [v[i] for k, v in sorted(by_set.items()) if i < len(v)]
    return out


def percentile(xs, p):
    """The p-th percentile (linear interpolation), NaN for no values."""
    return float(np.percentile(xs, p)) if xs else math.nan


def summary(rows):
    """Per planner (in `PLANNERS` order), the figures `summarize` prints, unrounded: a dict with
    `planner`, `solved`, `problems`, `planning_ms` (median, mean, p95 over the solved ones),
    `simplify_ms` (median), `length` (median), `not_certified_free`, `common_length` (median over
    the problems every planner solved) and `common` (how many those are)."""
    planners = [p for p in PLANNERS if any(r["planner"] == p for r in rows)]
    by = {p: [r for r in rows if r["planner"] == p] for p in planners}
    solved_by = {p: {r["problem"] for r in by[p] if r["solved"]} for p in planners}
    common = set.intersection(*solved_by.values()) if planners else set()
    out = []
    for p in planners:
        ok = [r for r in by[p] if r["solved"]]
        plan_ms = [1e3 * r["planning_seconds"] for r in ok]
        out.append({
            "planner": p,
            "solved": len(ok),
            "problems": len(by[p]),
            "planning_ms": (
                percentile(plan_ms, 50),
                float(np.mean(plan_ms)) if plan_ms else math.nan,
                percentile(plan_ms, 95),
            ),
            "simplify_ms": percentile([1e3 * r["simplify_seconds"] for r in ok], 50),
            "length": percentile([r["length"] for r in ok], 50),
            "not_certified_free": sum(1 for r in ok if r["certified_free"] is False),
            "common_length": percentile([r["length"] for r in ok if r["problem"] in common], 50),
            "common": len(common),
        })
    return out


def summarize(rows, out=sys.stdout):
    """Prints the per-planner summary of JSON rows (dicts of the schema above)."""
    lines = summary(rows)
    common = lines[0]["common"] if lines else 0
    print(
        "planner | solved | planning ms median / mean / p95 | simplify ms median | "
        f"length median | not certified free | length median, {common} solved by all",
        file=out,
    )
    for s in lines:
        median, mean, p95 = s["planning_ms"]
        print(
            f"{s['planner']} | {s['solved']}/{s['problems']} | {median:.3f} / {mean:.3f} / "
            f"{p95:.3f} | {s['simplify_ms']:.3f} | {s['length']:.3f} | "
            f"{s['not_certified_free']}/{s['solved']} | {s['common_length']:.3f}",
            file=out,
        )


def recheck_exact(rows, args):
    """Prints, per planner, how many of its paths not certified free collide on the exact
    meshes (pinocchio + coal) at samples every `--exact-step` rad along their edges."""
    robot = pq.Robot.from_urdf(MBM / "panda.urdf", srdf=MBM / "panda.srdf")
    coal_baseline = CoalBaseline(robot.joint_names)
    for p in PLANNERS:
        suspect = [r for r in rows if r["planner"] == p and r["certified_free"] is False]
        if not suspect:
            continue
        hits = 0
        for r in suspect:
            set_name, number = r["problem"].split("/")
            scene = Path(args.problems) / set_name / f"scene{number}.yaml"
            hits += coal_baseline.path_collides(scene, np.array(r["path"]), args.exact_step)
        solved = sum(1 for r in rows if r["planner"] == p and r["solved"])
        print(
            f"{p}: {len(suspect)} of {solved} paths not certified free; {hits} of them collide "
            f"on the exact meshes at samples every {args.exact_step} rad",
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problems", default=str(MBM / "problems"), help="MotionBenchMaker folder")
    ap.add_argument("--sets", default="", help="comma-separated set name prefixes (default all)")
    ap.add_argument("--limit", type=int, default=0, help="first N problems of each set")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per problem and planner")
    ap.add_argument("--planners", default=",".join(PLANNERS))
    ap.add_argument("--seed", type=int, default=0, help="polyquery's seed; OMPL's is seed + 1")
    ap.add_argument("--res", type=float, default=0.002, help="ompl_coal's edge resolution")
    ap.add_argument("--cache", default=str(ROOT / "target" / "plan-ompl-cache"),
                    help="polyquery's shape cache (the robot's pieces, built once)")
    ap.add_argument("--out", help="JSON lines, one per planner and problem")
    ap.add_argument("--summarize", metavar="FILE", help="only print the summary of FILE")
    ap.add_argument("--exact-step", type=float, default=0.0, metavar="RAD",
                    help="with --summarize: re-check the paths not certified free on the exact "
                    "meshes (pinocchio + coal) at samples every RAD rad")
    args = ap.parse_args()

    if args.summarize:
        with open(args.summarize) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        summarize(rows)
        if args.exact_step:
            recheck_exact(rows, args)
        return
    planners = [p for p in args.planners.split(",") if p]
    unknown = set(planners) - set(PLANNERS)
    if unknown:
        ap.error(f"unknown planners {sorted(unknown)}; choose from {','.join(PLANNERS)}")
    if any(p.startswith("ompl") for p in planners):
        from ompl import util as ou

        ou.RNG.setSeed(args.seed + 1)  # before OMPL makes any generator; OMPL refuses 0
        ou.setLogLevel(ou.LogLevel.LOG_ERROR)
    from tqdm import tqdm

    robot = pq.Robot.from_urdf(MBM / "panda.urdf", srdf=MBM / "panda.srdf")
    coal_baseline = CoalBaseline(robot.joint_names) if "ompl_coal" in planners else None
    os.makedirs(args.cache, exist_ok=True)
    out = open(args.out, "w") if args.out else None
    rows = []
    for name, scene_path, request_path in tqdm(problems(args), file=sys.stderr, unit="problem"):
        scene = pq.Scene.from_moveit(scene_path, robot)
        start, goal = pq.read_motion_request(request_path, robot)
        checker = pq.Checker(robot, scene, cache_dir=args.cache)
        for p in planners:
            if p == "polyquery":
                solved, plan_s, simp_s, path = run_polyquery(checker, start, goal, args)
            elif p == "ompl_polyquery":
                solved, plan_s, simp_s, path = run_ompl_polyquery(checker, start, goal, args)
            else:
                solved, plan_s, simp_s, path = coal_baseline.run(scene_path, start, goal, args)
            row = {
                "planner": p,
                "problem": name,
                "solved": bool(solved),
                "planning_seconds": plan_s,
                "simplify_seconds": simp_s,
                "length": path_length(path),
                "path": None if path is None else path.tolist(),
                "certified_free": certified_free(checker, path),
            }
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    if out:
        out.close()
    summarize(rows)


if __name__ == "__main__":
    main()

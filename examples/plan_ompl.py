"""Plan one shipped MotionBenchMaker problem with OMPL's RRTConnect and polyquery's adapter,
then re-check the path with polyquery's certified motion check.

    pip install ./python ompl==2.0.1
    python examples/plan_ompl.py                                  # box_panda/0001
    python examples/plan_ompl.py --problem table_pick_panda/0002 --timeout 5

OMPL asks `isValid(state)` and `checkMotion(s1, s2)`; `polyquery.ompl` answers them with
`Checker.check` and the certified `Checker.check_motions` (free over the whole motion, not
only at samples). The path comes back as an `(N, dof)` NumPy array. `main(argv)` returns the
path (None when unsolved), so the tests run it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from ompl import util as ou

import polyquery as pq
import polyquery.ompl as pqo

MBM = Path(__file__).resolve().parents[1] / "data" / "robots" / "mbm_panda"


def main(argv: list[str] | None = None) -> np.ndarray | None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problem", default="box_panda/0001", help="SET/NNNN under problems/")
    ap.add_argument("--timeout", type=float, default=1.0, help="OMPL's planning time, seconds")
    ap.add_argument("--cache", default=None, help="polyquery's shape cache folder (optional)")
    args = ap.parse_args(argv)
    ou.setLogLevel(ou.LogLevel.LOG_WARN)  # OMPL's own progress lines off

    set_name, number = args.problem.split("/")
    folder = MBM / "problems" / set_name
    robot = pq.Robot.from_urdf(MBM / "panda.urdf", srdf=MBM / "panda.srdf")
    scene = pq.Scene.from_moveit(folder / f"scene{number}.yaml", robot)
    start, goal = pq.read_motion_request(folder / f"request{number}.yaml", robot)
    checker = pq.Checker(robot, scene, cache_dir=args.cache)

    ss = pqo.simple_setup(checker, start, goal)  # RRTConnect; both validators set
    t = time.perf_counter()
    solved = ss.solve(args.timeout)
    planning = time.perf_counter() - t
    path = pqo.solution_path(ss)  # (N, dof) array, or None
    if path is None:
        print(f"{args.problem}: not solved in {args.timeout} s ({solved})")
        return None
    t = time.perf_counter()
    ss.simplifySolution()
    simplify = time.perf_counter() - t
    path = pqo.solution_path(ss)

    # Independent re-check: every edge of the returned path, certified.
    free, _ = checker.check_motions(path[:-1], path[1:], certified=True)
    length = float(np.linalg.norm(np.diff(path, axis=0), axis=1).sum())
    si = ss.getSpaceInformation()
    states, motions = si.getStateValidityChecker().checks, si.getMotionValidator().checks
    print(
        f"{args.problem}: {len(path)} waypoints, length {length:.3f}, "
        f"planning {planning * 1e3:.1f} ms, simplification {simplify * 1e3:.1f} ms, "
        f"{states} state and {motions} certified motion checks; "
        f"every edge certified free: {bool(free.all())}"
    )
    return path


if __name__ == "__main__":
    main()

"""Configurations per second of the Panda checker from Python, against the Rust checker.

    python python/bench/bench_checker.py [--n 10000] [--polyquery-bin target/release/polyquery]

Measures, on the Panda in data/robots/panda with the table-and-shelf scene and N uniformly
random configurations (seeded):

* one batched call `checker.check(Q)` (parallel, all cores) and `parallel=False` (one thread);
* N calls of one configuration each `checker.check(q)` (the per-call overhead);
* the Rust checker on the same configurations: `polyquery robot check --configs FILE --json`
  (its `configurations_per_second`, checks alone; all cores, and `--threads 1`), when the
  binary is found;
* pinocchio + coal (benches/robot_pinocchio.py, the same model) on the same configurations,
  with `--pinocchio-python` naming an interpreter that has `pin`.

Prints one JSON object. Each figure is the best of `--repeat` runs.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import polyquery as pq

REPO = Path(__file__).resolve().parents[2]
PANDA = REPO / "data" / "robots" / "panda"


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def random_configs(limits, n, seed):
    rng = np.random.default_rng(seed)
    q = limits[:, 0] + (limits[:, 1] - limits[:, 0]) * rng.random((n, len(limits)))
    q[:, 7] = 0.02
    return q


def rust_rate(binary, q, repeat, threads=None):
    """The CLI's summary with the highest rate over `repeat` runs."""
    if binary is None:
        return None
    runs = [rust_run(binary, q, threads) for _ in range(repeat)]
    good = [r for r in runs if "configurations_per_second" in r]
    return max(good, key=lambda r: r["configurations_per_second"]) if good else runs[0]


def rust_run(binary, q, threads):
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp) / "q.txt"
        np.savetxt(configs, q, fmt="%.17g")
        cmd = [
            binary, "robot", "check", str(PANDA / "panda.urdf"), "--srdf", str(PANDA / "panda.srdf"),
            "--scene", str(PANDA / "scene_table_shelf.json"), "--configs", str(configs), "--json",
            "--no-cache", "--out", str(Path(tmp) / "out.jsonl"),
        ]
        if threads is not None:
            cmd += ["--threads", str(threads)]
        out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-300:]}
    # The summary is the last JSON object on stdout or stderr.
    for text in (out.stdout, out.stderr):
        for line in reversed(text.strip().splitlines()):
            try:
                j = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(j, dict) and "configurations_per_second" in j:
                return j
    return {"error": "no summary found"}


def pinocchio_rate(python, q):
    """benches/robot_pinocchio.py (the same model as the reference answers: hulls, the five
    boxes, 124 pairs) on the same configurations, run by `python` (an interpreter with
    `pin`); None when it has no pinocchio."""
    if python is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp) / "q.txt"
        np.savetxt(configs, q, fmt="%.17g")
        out = subprocess.run(
            [python, str(REPO / "benches" / "robot_pinocchio.py"), "--configs", str(configs), "--skip-distance"],
            capture_output=True, text=True, cwd=REPO,
        )
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-300:]}
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--polyquery-bin", default=None, help="the polyquery binary (default: target/release/polyquery or PATH)")
    ap.add_argument("--pinocchio-python", default=None, help="a Python with `pin` installed (e.g. /work/venv-pin/bin/python); default: skip pinocchio")
    args = ap.parse_args()

    robot = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")
    checker = pq.Checker(robot, pq.Scene.from_json(PANDA / "scene_table_shelf.json"))
    q = random_configs(checker.limits, args.n, args.seed)
    checker.check(q)  # warm up

    batched = args.n / best(lambda: checker.check(q), args.repeat)
    batched_1t = args.n / best(lambda: checker.check(q, parallel=False), args.repeat)
    rows = list(q)

    def one_by_one():
        for row in rows:
            checker.check(row)

    single = args.n / best(one_by_one, args.repeat)
    # Per-call overhead: one call of one configuration minus the batched single-thread time
    # per configuration (the same work in Rust, in one thread).
    overhead_us = (1.0 / single - 1.0 / batched_1t) * 1e6

    binary = args.polyquery_bin
    if binary is None:
        for candidate in (
            os.environ.get("CARGO_TARGET_DIR", str(REPO / "target")) + "/release/polyquery",
            shutil.which("polyquery"),
        ):
            if candidate and Path(candidate).is_file():
                binary = candidate
                break
    rust = rust_rate(binary, q, args.repeat)
    rust_1t = rust_rate(binary, q, args.repeat, threads=1)
    result = {
        "configurations": args.n,
        "cores": os.cpu_count(),
        "python_batched_per_s": batched,
        "python_batched_one_thread_per_s": batched_1t,
        "python_one_per_call_per_s": single,
        "per_call_overhead_us": overhead_us,
        "rust_cli": rust,
        "rust_cli_one_thread": rust_1t,
        "pinocchio_coal": pinocchio_rate(args.pinocchio_python, q),
    }
    if isinstance(rust, dict) and "configurations_per_second" in rust:
        result["batched_over_rust"] = batched / rust["configurations_per_second"]
    if isinstance(rust_1t, dict) and "configurations_per_second" in rust_1t:
        result["one_thread_over_rust_one_thread"] = batched_1t / rust_1t["configurations_per_second"]
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

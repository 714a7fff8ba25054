"""Label random robot configurations and motions across a Ray cluster.

    pip install ./python ray pyarrow tqdm
    python examples/ray_label.py --configs 1000000 --motions 100000 --out labels/
    python examples/ray_label.py --address auto ...          # an existing cluster

The checker is built once in the driver and shipped once: `ray.put(checker)` pickles it to
its compact bytes (URDF and SRDF text, the scene, each mesh's saved hull map; no mesh file
is needed on the workers), and each worker (a Ray actor) unpickles it once when it starts.
The work goes out in chunks; a chunk's configurations are drawn from its own seed, so the
output does not depend on the number of workers or on scheduling. Each chunk is checked in
the worker's own thread (`parallel=False`: Ray runs one worker per core) and written as one
shard:

* `configs-NNNNN.parquet` (or `.npz`): columns `q0 … q{dof-1}`, `collides`, `distance`
  (metres, 0 when colliding);
* `motions-NNNNN.parquet` (or `.npz`): `a0 …`, `b0 …` (the motion's ends), `free` (certified)
  and `s` (first contact parameter, NaN when free).

A progress bar (tqdm when installed) counts finished chunks. Without `--address`, Ray starts a
one-machine cluster on the loopback address (Ray 2.60 has no in-process "local mode" any
more). `main(argv)` returns the summary, so tests run it on a tiny input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import polyquery as pq

PANDA = Path(__file__).resolve().parents[1] / "data" / "robots" / "panda"


def draw(limits: np.ndarray, n: int, seed: int) -> np.ndarray:
    """`n` configurations uniform within the joint limits, from `seed`."""
    rng = np.random.default_rng(seed)
    return limits[:, 0] + (limits[:, 1] - limits[:, 0]) * rng.random((n, len(limits)))


def write_shard(path: Path, columns: dict, fmt: str) -> Path:
    """Writes one shard: Parquet (pyarrow) or NumPy `.npz`."""
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq_

        path = path.with_suffix(".parquet")
        pq_.write_table(pa.table(columns), path)
    else:
        path = path.with_suffix(".npz")
        np.savez(path, **columns)
    return path


class Labeler:
    """A worker: holds the unpickled checker and labels chunks."""

    def __init__(self, checker: pq.Checker, out: str, fmt: str):
        self.checker = checker
        self.out = Path(out)
        self.fmt = fmt
        self.limits = checker.limits

    def ready(self) -> bool:
        """Returns once the actor is up (its checker unpickled)."""
        return True

    def configs(self, chunk: int, n: int, seed: int) -> tuple[str, int, int]:
        q = draw(self.limits, n, seed)
        collides = self.checker.check(q, parallel=False)
        distance = self.checker.distance(q, parallel=False)
        cols = {f"q{j}": q[:, j] for j in range(q.shape[1])}
        cols.update(collides=collides, distance=distance)
        path = write_shard(self.out / f"configs-{chunk:05d}", cols, self.fmt)
        return str(path), n, int(collides.sum())

    def motions(self, chunk: int, n: int, seed: int) -> tuple[str, int, int]:
        a = draw(self.limits, n, seed)
        b = draw(self.limits, n, seed + 1)
        free, s = self.checker.check_motions(a, b, certified=True, parallel=False)
        cols = {f"a{j}": a[:, j] for j in range(a.shape[1])}
        cols.update({f"b{j}": b[:, j] for j in range(b.shape[1])})
        cols.update(free=free, s=s)
        path = write_shard(self.out / f"motions-{chunk:05d}", cols, self.fmt)
        return str(path), n, int((~free).sum())


def chunks(total: int, size: int):
    """`(index, count)` of each chunk covering `total` items."""
    return [(k, min(size, total - k * size)) for k in range((total + size - 1) // size)]


def progress(total: int):
    """A progress bar over `total` chunks: tqdm when installed, else a line per 10 %."""
    try:
        from tqdm import tqdm

        return tqdm(total=total, unit="chunk", file=sys.stderr)
    except ImportError:

        class Plain:
            def __init__(self):
                self.done = 0

            def update(self, k):
                self.done += k
                if total and (self.done * 10 // total) != ((self.done - k) * 10 // total):
                    print(f"{self.done}/{total} chunks", file=sys.stderr)

            def close(self):
                pass

        return Plain()


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--urdf", type=Path, default=PANDA / "panda.urdf")
    ap.add_argument("--srdf", type=Path, default=PANDA / "panda.srdf")
    ap.add_argument("--scene", type=Path, default=PANDA / "scene_table_shelf.json")
    ap.add_argument("--configs", type=int, default=100_000, help="random configurations to label")
    ap.add_argument("--motions", type=int, default=10_000, help="random motions to label (certified)")
    ap.add_argument("--chunk", type=int, default=4096, help="items per task and per shard")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("labels"))
    ap.add_argument("--format", choices=["parquet", "npz"], default="parquet")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="actors (default: one per core); 0 runs every chunk in this process, without Ray (for comparison)")
    ap.add_argument("--address", default=None, help="an existing Ray cluster (e.g. 'auto'); default: start one here")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    robot = pq.Robot.from_urdf(args.urdf, srdf=args.srdf)
    scene = pq.Scene.from_json(args.scene) if args.scene else pq.Scene()
    checker = pq.Checker(robot, scene)
    args.out.mkdir(parents=True, exist_ok=True)

    if args.workers == 0:
        return run_here(args, checker, started)

    # No usage reports leave the machine; a cluster started here listens on the loopback
    # address only (Ray otherwise swaps 127.0.0.1 for the machine's network address).
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if args.address is None:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    import ray

    owns_ray = not ray.is_initialized()
    if owns_ray:
        if args.address:
            ray.init(address=args.address)
        else:
            # A one-machine cluster on the loopback address, no dashboard.
            ray.init(num_cpus=args.workers, include_dashboard=False, _node_ip_address="127.0.0.1")
    try:
        checker_ref = ray.put(checker)  # pickled once, shipped once per node
        Actor = ray.remote(num_cpus=1)(Labeler)
        actors = [Actor.remote(checker_ref, str(args.out.resolve()), args.format) for _ in range(args.workers)]
        ray.get([a.ready.remote() for a in actors])  # every worker has unpickled the checker
        labelling = time.perf_counter()
        # Dynamic scheduling: each actor has at most two chunks in flight (one running, one
        # queued), and gets the next chunk as soon as one of its own finishes.
        todo = plan(args)
        bar = progress(len(todo))
        owner, results = {}, []

        def submit(actor):
            if todo:
                kind, k, n, seed = todo.pop(0)
                owner[getattr(actor, kind).remote(k, n, seed)] = actor

        for actor in actors:
            submit(actor)
            submit(actor)
        while owner:
            done, _ = ray.wait(list(owner), num_returns=1)
            for ref in done:
                results.append(ray.get(ref))
                submit(owner.pop(ref))
                bar.update(1)
        bar.close()
        label_seconds = time.perf_counter() - labelling
    finally:
        if owns_ray:
            ray.shutdown()
    return summarise(args, results, started, label_seconds)


def plan(args) -> list[tuple[str, int, int, int]]:
    """The tasks: `(kind, chunk index, count, seed)`, the motions (the slower chunks) first so
    that the last chunks to finish are short ones."""
    configs = [("configs", k, n, args.seed + 2 * k) for k, n in chunks(args.configs, args.chunk)]
    base = args.seed + 2 * len(configs) + 1_000_003
    motions = [("motions", k, n, base + 2 * k) for k, n in chunks(args.motions, args.chunk)]
    return motions + configs


def run_here(args, checker: pq.Checker, started: float) -> dict:
    """Every chunk in this process, one after the other (`--workers 0`)."""
    worker = Labeler(checker, str(args.out.resolve()), args.format)
    labelling = time.perf_counter()
    tasks = plan(args)
    bar = progress(len(tasks))
    results = []
    for kind, k, n, seed in tasks:
        results.append(getattr(worker, kind)(k, n, seed))
        bar.update(1)
    bar.close()
    return summarise(args, results, started, time.perf_counter() - labelling)


def summarise(args, results, started: float, label_seconds: float) -> dict:
    """The run's summary: counts, shards, wall times (all, and the labelling alone)."""
    shards = sorted(r[0] for r in results)
    summary = {
        "configs": args.configs,
        "colliding": sum(r[2] for r in results if "configs-" in Path(r[0]).name),
        "motions": args.motions,
        "motions_in_collision": sum(r[2] for r in results if "motions-" in Path(r[0]).name),
        "shards": shards,
        "seconds": time.perf_counter() - started,
        "label_seconds": label_seconds,
        "workers": args.workers,
    }
    return summary


if __name__ == "__main__":
    s = main()
    print(json.dumps({k: v for k, v in s.items() if k != "shards"} | {"shards": len(s["shards"])}, indent=2))

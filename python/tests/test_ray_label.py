"""examples/ray_label.py on a one-machine Ray cluster (loopback; Ray 2.60 has no in-process
local mode) with a tiny input: the shards hold the checker's own answers. Skipped when `ray`
cannot be imported."""

import importlib.util
import os

import numpy as np
import pytest

import polyquery as pq
from conftest import PANDA, REPO

# Before Ray is imported: no usage reports, and the local cluster on the loopback address only
# (as examples/ray_label.py sets when it imports Ray itself).
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")


def load_example():
    spec = importlib.util.spec_from_file_location("ray_label", REPO / "examples" / "ray_label.py")
    module = importlib.util.module_from_spec(spec)
    # Not in sys.modules: Ray's cloudpickle then ships the Labeler class by value (the
    # workers cannot import `ray_label`), as it does when the example runs as a script.
    spec.loader.exec_module(module)
    return module


def read_shard(path):
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq_

        t = pq_.read_table(path)
        return {name: t.column(name).to_numpy() for name in t.column_names}
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
def test_ray_label_local_mode(tmp_path, fmt, panda_checker):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    example = load_example()
    summary = example.main([
        "--configs", "250", "--motions", "30", "--chunk", "100", "--workers", "2",
        "--out", str(tmp_path), "--format", fmt,
    ])
    assert len(summary["shards"]) == 3 + 1
    configs = [read_shard(s) for s in summary["shards"] if "configs-" in s]
    motions = [read_shard(s) for s in summary["shards"] if "motions-" in s]
    q = np.concatenate([np.stack([c[f"q{j}"] for j in range(8)], axis=1) for c in configs])
    collides = np.concatenate([c["collides"] for c in configs])
    distance = np.concatenate([c["distance"] for c in configs])
    assert q.shape == (250, 8)
    assert np.array_equal(collides, panda_checker.check(q))
    assert np.allclose(distance, panda_checker.distance(q), rtol=0, atol=1e-12)
    assert summary["colliding"] == int(collides.sum())
    m = motions[0]
    a = np.stack([m[f"a{j}"] for j in range(8)], axis=1)
    b = np.stack([m[f"b{j}"] for j in range(8)], axis=1)
    free, s = panda_checker.check_motions(a, b)
    assert np.array_equal(m["free"], free) and np.array_equal(m["s"], s, equal_nan=True)

"""Polytope: hulls from points, support queries against NumPy brute force, files, pickling."""

import pickle

import numpy as np
import pytest

import polyquery as pq


def cube_points():
    return np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)


def test_cube_hull_counts_and_volume():
    cube = pq.Polytope.from_points(cube_points())
    assert (cube.num_vertices, cube.num_faces) == (8, 6)
    assert cube.volume == pytest.approx(1.0, abs=1e-12)
    assert sorted(map(tuple, cube.vertices)) == sorted(map(tuple, cube_points()))


def test_support_matches_brute_force_on_random_points():
    rng = np.random.default_rng(7)
    points = rng.normal(size=(2000, 3))
    poly = pq.Polytope.from_points(points)
    dirs = rng.normal(size=(500, 3))
    got = poly.support(dirs)
    assert got.shape == (500, 3)
    # The support value d·S(P, d) is the maximum over all points (up to rounding, relative
    # to the points' scale ~3: 1e-12).
    best = (dirs @ points.T).max(axis=1)
    assert np.allclose(np.einsum("ij,ij->i", dirs, got), best, rtol=0, atol=1e-12)
    # One direction gives one point, the same as the batched answer.
    assert np.array_equal(poly.support(dirs[3]), got[3])
    # Interior points are never support points: the hull keeps fewer vertices.
    assert poly.num_vertices < 2000


def test_support_accepts_lists_and_non_contiguous_arrays():
    poly = pq.Polytope.from_points(cube_points())
    assert np.array_equal(poly.support([1, 1, 1]), [1.0, 1.0, 1.0])
    dirs = np.asfortranarray(np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, -1.0]]))
    assert np.array_equal(poly.support(dirs), [[1.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    assert np.array_equal(poly.support(np.eye(3)[:, ::-1]), poly.support(np.eye(3)[:, ::-1].copy()))


def test_flat_points_raise_value_error():
    flat = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=float)
    with pytest.raises(ValueError):
        pq.Polytope.from_points(flat)
    with pytest.raises(ValueError, match="expected 3 values per row"):
        pq.Polytope.from_points(np.zeros((4, 2)))


def test_save_load_and_meshes(tmp_path):
    rng = np.random.default_rng(1)
    poly = pq.Polytope.from_points(rng.normal(size=(300, 3)))
    path = tmp_path / "p.nvm"
    assert poly.save(path) > 0
    back = pq.Polytope.load(path)
    assert back.num_vertices == poly.num_vertices
    dirs = rng.normal(size=(100, 3))
    assert np.array_equal(back.support(dirs), poly.support(dirs))
    # A mesh file: the cube as OBJ (its hull is built on loading).
    obj = tmp_path / "cube.obj"
    lines = [f"v {x} {y} {z}" for x, y, z in cube_points()]
    lines += ["f 1 2 4 3", "f 5 7 8 6", "f 1 5 6 2", "f 3 4 8 7", "f 1 3 7 5", "f 2 6 8 4"]
    obj.write_text("\n".join(lines) + "\n")
    assert pq.Polytope.load(obj).volume == pytest.approx(1.0, abs=1e-12)
    # The Panda's STL meshes load too.
    from conftest import PANDA

    link0 = pq.Polytope.load(PANDA / "meshes" / "collision" / "link0.stl")
    assert link0.num_vertices == 102


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="no_such.obj"):
        pq.Polytope.load(tmp_path / "no_such.obj")
    with pytest.raises(FileNotFoundError):
        pq.Polytope.load(tmp_path / "no_such.nvm")


def test_pickle_round_trip():
    rng = np.random.default_rng(2)
    poly = pq.Polytope.from_points(rng.normal(size=(500, 3)))
    back = pickle.loads(pickle.dumps(poly))
    dirs = rng.normal(size=(200, 3))
    assert np.array_equal(back.support(dirs), poly.support(dirs))

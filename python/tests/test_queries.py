"""Pair queries on two unit cubes with known answers, poses as 4x4 matrices and as
(translation, quaternion_xyzw), one or many. Tolerances: 1e-9 on unit-size shapes."""

import math

import numpy as np
import pytest

import polyquery as pq

TOL = 1e-9


@pytest.fixture(scope="module")
def cube():
    pts = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)
    return pq.Polytope.from_points(pts)


def shifted(x):
    m = np.eye(4)
    m[0, 3] = x
    return m


IDENTITY_Q = np.array([0.0, 0.0, 0.0, 1.0])


def test_distance_and_intersects_single(cube):
    assert pq.distance(cube, cube, None, shifted(3.0)) == pytest.approx(2.0, abs=TOL)
    assert pq.distance(cube, cube, pose_b=(np.array([3.0, 0, 0]), IDENTITY_Q)) == pytest.approx(2.0, abs=TOL)
    assert pq.intersects(cube, cube, None, shifted(0.5)) is True
    assert pq.intersects(cube, cube, None, shifted(1.5)) is False
    # Both posed: only the relative pose matters.
    assert pq.distance(cube, cube, shifted(10.0), shifted(13.0)) == pytest.approx(2.0, abs=TOL)


def test_vectorised_over_poses(cube):
    xs = np.array([0.5, 1.5, 3.0, -4.0])
    stack = np.stack([shifted(x) for x in xs])
    d = pq.distance(cube, cube, None, stack)
    assert d.shape == (4,)
    assert np.allclose(d, np.maximum(np.abs(xs) - 1.0, 0.0), atol=TOL)
    t = np.zeros((4, 3))
    t[:, 0] = xs
    d2 = pq.distance(cube, cube, None, (t, IDENTITY_Q))
    assert np.allclose(d2, d, atol=TOL)
    assert list(pq.intersects(cube, cube, None, stack)) == [True, False, False, False]
    with pytest.raises(ValueError, match="broadcast"):
        pq.distance(cube, cube, np.stack([np.eye(4)] * 3), stack)


def test_rotation_as_matrix_and_quaternion(cube):
    # B turned 45° about z around its own origin, then moved to x = 3: its corner (0, 1)
    # turns to x = 3 − √½, so the distance is 2 − √½.
    h = math.sqrt(0.5)
    q = np.array([0.0, 0.0, math.sin(math.pi / 8), math.cos(math.pi / 8)])
    m = np.eye(4)
    m[:3, :3] = [[h, -h, 0], [h, h, 0], [0, 0, 1]]
    m[0, 3] = 3.0
    a = pq.distance(cube, cube, None, m)
    b = pq.distance(cube, cube, None, (np.array([3.0, 0.0, 0.0]), q))
    assert a == pytest.approx(b, abs=TOL)
    assert a == pytest.approx(2.0 - h, abs=TOL)


def test_penetration_depth(cube):
    depth, normal = pq.penetration_depth(cube, cube, None, shifted(0.75))
    assert depth == pytest.approx(0.25, abs=TOL)
    assert np.allclose(np.abs(normal), [1.0, 0.0, 0.0], atol=TOL)
    depth, normal = pq.penetration_depth(cube, cube, None, shifted(2.0))
    assert depth == 0.0 and np.isnan(normal).all()
    depths, normals = pq.penetration_depth(cube, cube, None, np.stack([shifted(0.75), shifted(0.5)]))
    assert np.allclose(depths, [0.25, 0.5], atol=TOL) and normals.shape == (2, 3)


def test_directional_penetration(cube):
    assert pq.directional_penetration(cube, cube, [1, 0, 0], None, shifted(0.75)) == pytest.approx(0.25, abs=TOL)
    assert pq.directional_penetration(cube, cube, [1, 0, 0], None, shifted(3.0)) == 0.0
    many = pq.directional_penetration(cube, cube, np.array([[1.0, 0, 0], [0, 1.0, 0]]), None, shifted(0.75))
    assert np.allclose(many, [0.25, 1.0], atol=TOL)


def test_time_of_impact(cube):
    assert pq.time_of_impact(cube, cube, [-4, 0, 0], None, shifted(3.0)) == pytest.approx(0.5, abs=TOL)
    assert pq.time_of_impact(cube, cube, [4, 0, 0], None, shifted(3.0)) == math.inf
    assert pq.time_of_impact(cube, cube, [-1, 0, 0], None, shifted(0.5)) == 0.0


def test_raycast(cube):
    assert pq.raycast(cube, [-2, 0.5, 0.5], [1, 0, 0]) == pytest.approx(2.0, abs=TOL)
    assert pq.raycast(cube, [-2, 0.5, 0.5], [-1, 0, 0]) == math.inf
    origins = np.array([[-2, 0.5, 0.5], [0.5, 0.5, 5.0]])
    dirs = np.array([[2.0, 0, 0], [0, 0, -1.0]])
    assert np.allclose(pq.raycast(cube, origins, dirs), [2.0, 4.0], atol=TOL)
    assert pq.raycast(cube, [-2, 0.5, 0.5], [1, 0, 0], pose=shifted(1.0)) == pytest.approx(3.0, abs=TOL)


def test_bad_poses_raise_value_error(cube):
    bad = np.eye(4)
    bad[:3, :3] *= 2.0
    with pytest.raises(ValueError, match="not a rotation"):
        pq.distance(cube, cube, None, bad)
    with pytest.raises(ValueError, match="norm"):
        pq.distance(cube, cube, None, (np.zeros(3), np.array([0.0, 0.0, 0.0, 2.0])))
    with pytest.raises(ValueError, match="4x4"):
        pq.distance(cube, cube, None, np.eye(3))
    with pytest.raises(ValueError):
        pq.raycast(cube, [0, 0, 0], [0, 0, 0])

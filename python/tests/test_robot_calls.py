"""The calls beyond a yes/no check: distance details, colliding pairs, link poses, padding,
moving obstacles, witness points of pq.distance; each against an independent computation."""

import numpy as np
import pytest

import polyquery as pq
from conftest import PANDA

Q = np.loadtxt(PANDA / "configs_1000.txt")[:40]


def test_distance_details(panda_checker):
    r = panda_checker.distance(Q, details=True)
    assert np.array_equal(r["distance"], panda_checker.distance(Q))
    gaps = np.linalg.norm(r["points"][:, 1] - r["points"][:, 0], axis=1)
    apart = r["distance"] > 0
    assert np.allclose(gaps[apart], r["distance"][apart], rtol=0, atol=1e-9)
    assert all(len(p) == 2 for p in r["pair"])


def test_colliding_pairs_and_link_poses(panda_robot, panda_checker):
    pairs = panda_checker.colliding_pairs(Q)
    assert [bool(p) for p in pairs] == list(panda_checker.check(Q))
    for q, p in zip(Q, pairs):
        first = panda_checker.colliding_pair(q)
        assert (first is None) == (not p) and (first is None or first in p)
    world = panda_checker.link_poses(Q)
    root = panda_robot.link_poses(Q)
    assert world.shape == (40, len(panda_robot.link_names), 4, 4)
    assert np.allclose(world, root, atol=1e-12)  # the bundled scene's base is the identity
    assert np.allclose(root[:, 0], np.eye(4))


def test_padding_and_moving(panda_robot):
    scene = pq.Scene.from_json(PANDA / "scene_table_shelf.json")
    plain = pq.Checker(panda_robot, scene)
    padded = pq.Checker(panda_robot, scene, padding=0.0)
    assert np.array_equal(plain.distance(Q), padded.distance(Q))
    padded = pq.Checker(panda_robot, scene, padding={"*": 0.01, "panda_hand": 0.02})
    assert padded.padding["panda_hand"] == 0.02 and padded.padding["panda_link3"] == 0.01
    assert np.all(padded.distance(Q) <= plain.distance(Q))
    assert np.all(padded.check(Q) >= plain.check(Q))
    with pytest.raises(ValueError):
        pq.Checker(panda_robot, scene, padding=-1.0)
    moved = pq.Checker(panda_robot, scene)
    moved.set_obstacle_pose("shelf_middle", ([5.0, 5.0, 5.0], [0, 0, 0, 1]))
    far = pq.Scene.from_json(PANDA / "scene_table_shelf.json")
    with pytest.raises(ValueError):
        moved.set_obstacle_pose("nope", np.eye(4))
    assert np.all(moved.check(Q) <= plain.check(Q))
    del far


def test_polytope_witness_points():
    cube = pq.Polytope.from_points(np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float))
    d, p = pq.distance(cube, cube, None, ([3.0, 0.5, 0.0], [0, 0, 0, 1]), points=True)
    assert abs(d - 2.0) < 1e-9 and abs(np.linalg.norm(p[1] - p[0]) - d) < 1e-9
    assert abs(p[0][0] - 1.0) < 1e-9 and abs(p[1][0] - 3.0) < 1e-9

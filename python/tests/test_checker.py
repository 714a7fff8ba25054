"""The Panda checker against pinocchio + coal's answers (data/robots/panda/README.md),
motions, scenes built in code, errors and pickling."""

import pickle

import numpy as np
import pytest

import polyquery as pq
from conftest import PANDA


@pytest.fixture(scope="module")
def configs():
    return np.loadtxt(PANDA / "configs_1000.txt")


@pytest.fixture(scope="module")
def expected():
    return np.loadtxt(PANDA / "expected_1000.txt")


def test_verdicts_match_pinocchio_coal(panda_checker, configs, expected):
    got = panda_checker.check(configs)
    assert got.dtype == bool and got.shape == (1000,)
    want = (expected[:, 0] > 0) | (expected[:, 1] > 0)
    assert np.array_equal(got, want)
    # Sequential (one workspace in this thread) gives the same verdicts.
    assert np.array_equal(panda_checker.check(configs, parallel=False), want)
    # One configuration at a time: Python bools.
    for i in range(20):
        assert panda_checker.check(configs[i]) is bool(want[i])


def test_distances_match_pinocchio_coal(panda_checker, configs, expected):
    d = panda_checker.distance(configs)
    # coal's distance is signed; this checker reports 0 when colliding. Metres, on a robot
    # about 1 m across: 1e-6.
    assert np.allclose(d, np.maximum(expected[:, 2], 0.0), rtol=0, atol=1e-6)
    assert panda_checker.distance(configs[5]) == pytest.approx(max(expected[5, 2], 0.0), abs=1e-6)
    assert np.allclose(panda_checker.distance(configs[:50], parallel=False), d[:50], rtol=0, atol=1e-12)


def test_certified_motions_never_free_where_sampling_collides(panda_checker, configs):
    rng = np.random.default_rng(3)
    lim = panda_checker.limits
    # Short motions from the data set's configurations, a few hundred of them.
    q0 = configs[:300]
    q1 = np.clip(q0 + rng.normal(scale=0.3, size=q0.shape), lim[:, 0], lim[:, 1])
    q1[:, 7] = q0[:, 7]
    free_c, s_c = panda_checker.check_motions(q0, q1, certified=True)
    free_s, s_s = panda_checker.check_motions(q0, q1, certified=False, resolution=1e-3)
    assert free_c.shape == (300,) and s_c.shape == (300,)
    assert not np.any(free_c & ~free_s), "certified free where sampling found a collision"
    # Both sides agree on which motions start in collision (s = 0) and report s in [0, 1].
    assert np.all(np.isnan(s_c) == free_c) and np.all(np.isnan(s_s) == free_s)
    assert np.all((s_c[~free_c] >= 0) & (s_c[~free_c] <= 1))
    # A contact found by sampling is not before the certified first contact (minus one step).
    both = ~free_c & ~free_s
    assert np.all(s_c[both] <= s_s[both] + 1e-9)
    # Mixed batches: free motions exist and colliding ones too.
    assert free_c.any() and (~free_c).any()
    # One motion: scalars; sequential equals parallel.
    f, s = panda_checker.check_motions(q0[0], q1[0])
    assert isinstance(f, bool) and f == free_c[0]
    fc, _ = panda_checker.check_motions(q0[:40], q1[:40], parallel=False)
    assert np.array_equal(fc, free_c[:40])


def test_bad_configuration_length_names_the_count(panda_checker):
    with pytest.raises(ValueError, match="configuration has 7 values, the robot has 8"):
        panda_checker.check(np.zeros(7))
    with pytest.raises(ValueError, match="configuration 0: configuration has 3 values"):
        panda_checker.check(np.zeros((4, 3)))
    # Outside the joint limits: refused unless allowed.
    q = np.zeros(8)
    q[3] = 1.0
    with pytest.raises(ValueError, match="panda_joint4"):
        panda_checker.check(q)
    with pytest.raises(ValueError):
        panda_checker.check(np.zeros((2, 2, 8)))


def test_missing_files_are_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.urdf"):
        pq.Robot.from_urdf(tmp_path / "nothing.urdf")
    with pytest.raises(FileNotFoundError):
        pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=tmp_path / "nothing.srdf")
    with pytest.raises(FileNotFoundError):
        pq.Scene.from_json(tmp_path / "nothing.json")
    # A scene mesh that does not exist fails when the checker reads it.
    robot = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")
    scene = pq.Scene()
    scene.add_mesh("scan", tmp_path / "scan.stl")
    with pytest.raises(FileNotFoundError, match="scan.stl"):
        pq.Checker(robot, scene)


def test_bad_urdf_and_scene_raise_value_error(tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='r'><link name='a'/><joint")
    with pytest.raises(ValueError, match="malformed XML"):
        pq.Robot.from_urdf(bad)
    with pytest.raises(ValueError, match="radius"):
        pq.Scene().add_sphere("ball", -1.0)
    with pytest.raises(ValueError, match="obstacles"):
        pq.Scene.from_json_str('{"obstacles": [{"name": "b", "sphere": {"radius": -1}}]}')


def test_scene_built_in_code_matches_json(panda_robot, configs):
    scene = pq.Scene()
    t = lambda x, y, z: (np.array([x, y, z], dtype=float), np.array([0.0, 0.0, 0.0, 1.0]))
    scene.add_box("table", [0.6, 0.8, 0.02], t(0.25, 0, -0.02))
    scene.add_box("shelf_left", [0.175, 0.01, 0.45], t(0.475, 0.49, 0.45))
    scene.add_box("shelf_right", [0.175, 0.01, 0.45], t(0.475, -0.49, 0.45))
    scene.add_box("shelf_top", [0.175, 0.5, 0.01], t(0.475, 0, 0.89))
    scene.add_box("shelf_middle", [0.175, 0.48, 0.01], t(0.475, 0, 0.45))
    for name in scene.obstacle_names:
        scene.allow_collision("panda_link0", name)
    assert len(scene) == 5
    from_code = pq.Checker(panda_robot, scene)
    from_json = pq.Checker(panda_robot, pq.Scene.from_json(PANDA / "scene_table_shelf.json"))
    assert np.array_equal(from_code.check(configs), from_json.check(configs))
    # A sphere in front of the robot at its home configuration.
    home = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02])
    ball = pq.Scene()
    ball.add_sphere("ball", 0.05, t(1.2, 0.0, 0.5))
    c = pq.Checker(panda_robot, ball)
    d = c.distance(home)
    assert 0 < d < 1
    ball.add_sphere("inside", 0.05, t(0.0, 0.0, 0.2))
    assert pq.Checker(panda_robot, ball).colliding_pair(home)[1] == "inside"
    assert c.colliding_pair(home) is None


def test_pickle_round_trip_gives_identical_answers(panda_checker, configs, tmp_path):
    blob = pickle.dumps(panda_checker)
    back = pickle.loads(blob)
    assert back.dof == 8 and back.active_pairs == panda_checker.active_pairs
    assert np.array_equal(back.check(configs), panda_checker.check(configs))
    assert np.array_equal(back.distance(configs), panda_checker.distance(configs))
    q1 = configs[::-1][:100]
    a = panda_checker.check_motions(configs[:100], q1)
    b = back.check_motions(configs[:100], q1)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1], equal_nan=True)
    # Pickled twice (the copy re-pickles from its own maps), and smaller than a megabyte.
    again = pickle.loads(pickle.dumps(back))
    assert np.array_equal(again.check(configs), panda_checker.check(configs))
    assert len(blob) < 1_000_000
    # Mesh obstacles ship as maps: the file may be gone on the worker.
    mesh = tmp_path / "link0.stl"
    mesh.write_bytes((PANDA / "meshes" / "collision" / "link0.stl").read_bytes())
    robot = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")
    scene = pq.Scene()
    scene.add_mesh("statue", mesh, scale=[2.0, 2.0, 2.0], pose=(np.array([0.5, 0.0, 0.0]), np.array([0, 0, 0, 1.0])))
    c = pq.Checker(robot, scene)
    blob = pickle.dumps(c)
    mesh.unlink()
    back = pickle.loads(blob)
    assert np.array_equal(back.distance(configs[:200]), c.distance(configs[:200]))


def test_robot_and_scene_pickle_through_the_library(panda_robot, panda_checker, configs):
    robot = pickle.loads(pickle.dumps(panda_robot))
    assert (robot.name, robot.dof) == (panda_robot.name, panda_robot.dof)
    assert robot.joint_names == panda_robot.joint_names
    assert robot.link_names == panda_robot.link_names
    assert np.array_equal(robot.limits, panda_robot.limits)
    scene = pq.Scene.from_json(PANDA / "scene_table_shelf.json")
    scene.robot_base_pose = (np.array([0.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.0, 1.0]))
    scene.add_capsule("pill", 0.03, 0.2, (np.array([0.6, 0.3, 0.4]), np.array([0.0, 0.0, 0.6, 0.8])))
    back = pickle.loads(pickle.dumps(scene))
    assert back.obstacle_names == scene.obstacle_names and len(back) == 6
    assert np.array_equal(back.robot_base_pose, scene.robot_base_pose)
    # The SRDF's allowed pairs came along: the same checker, the same answers.
    c = pq.Checker(robot, pickle.loads(pickle.dumps(pq.Scene.from_json(PANDA / "scene_table_shelf.json"))))
    assert c.active_pairs == panda_checker.active_pairs
    assert np.array_equal(c.distance(configs[:200]), panda_checker.distance(configs[:200]))
    with_pill = pq.Checker(panda_robot, scene)
    assert np.array_equal(pq.Checker(robot, back).distance(configs[:50]), with_pill.distance(configs[:50]))


def test_corrupt_pickles_are_value_errors(panda_robot, panda_checker):
    scene = pq.Scene.from_json(PANDA / "scene_table_shelf.json")
    for value in (panda_checker, panda_robot, scene):
        blob = bytearray(pickle.dumps(value))
        blob[len(blob) // 2] ^= 0x40
        with pytest.raises(ValueError, match="checksum mismatch"):
            pickle.loads(bytes(blob))
        # A robot's pickle also carries its mesh options after the bytes.
        rebuild, (data, *options) = value.__reduce__()
        with pytest.raises(ValueError, match="truncated"):
            rebuild(data[:-1], *options)
        with pytest.raises(ValueError, match="not a saved polyquery"):
            rebuild(b"garbage", *options)
    # A scene's bytes are not a checker's.
    _, (scene_bytes,) = scene.__reduce__()
    with pytest.raises(ValueError, match="expected a saved checker, found a saved scene"):
        pq.Checker._from_bytes(scene_bytes)


def test_mesh_shape_options_and_pickles(panda_robot):
    """`mesh_shape=` / `mesh_tolerance=` of `Robot.from_urdf` reach the checker and survive a
    pickle; a bad value is a ValueError naming it."""
    hull = pq.Robot.from_urdf(PANDA / "panda.urdf", PANDA / "panda.srdf", mesh_shape="hull")
    assert (hull.mesh_shape, panda_robot.mesh_shape) == ("hull", "decomposed")
    assert panda_robot.mesh_tolerance == 0.001
    back = pickle.loads(pickle.dumps(pq.Robot.from_urdf(PANDA / "panda.urdf", mesh_tolerance=0.002)))
    assert (back.mesh_shape, back.mesh_tolerance) == ("decomposed", 0.002)
    with pytest.raises(ValueError, match="unknown mesh shape `voxels`"):
        pq.Robot.from_urdf(PANDA / "panda.urdf", mesh_shape="voxels")
    with pytest.raises(ValueError, match="mesh_tolerance -1"):
        pq.Robot.from_urdf(PANDA / "panda.urdf", mesh_tolerance=-1.0)
    # The Panda's meshes are convex: its hulls and its decomposed meshes answer alike.
    configs = np.array([[0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02]])
    assert np.array_equal(pq.Checker(hull).distance(configs), pq.Checker(panda_robot).distance(configs))

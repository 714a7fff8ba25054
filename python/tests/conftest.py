"""Shared fixtures: the repository's data folder, the Panda checker (built once), and the
MotionBenchMaker Panda with a shape cache shared by the planning tests."""

from pathlib import Path

import pytest

import polyquery as pq

REPO = Path(__file__).resolve().parents[2]
PANDA = REPO / "data" / "robots" / "panda"


@pytest.fixture(scope="session")
def panda_robot():
    return pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")


@pytest.fixture(scope="session")
def panda_checker(panda_robot):
    scene = pq.Scene.from_json(PANDA / "scene_table_shelf.json")
    return pq.Checker(panda_robot, scene)


MBM = REPO / "data" / "robots" / "mbm_panda"
PROBLEMS = MBM / "problems"


@pytest.fixture(scope="session")
def mbm_robot():
    return pq.Robot.from_urdf(MBM / "panda.urdf", srdf=MBM / "panda.srdf")


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    """A shape cache folder: the robot's decomposed meshes are built once per session."""
    return tmp_path_factory.mktemp("shapes")


def mbm_problem(robot, cache, set_name, n):
    """The checker of MotionBenchMaker problem ``set_name/n`` and its ``(start, goal)``."""
    folder = PROBLEMS / set_name
    scene = pq.Scene.from_moveit(folder / f"scene{n}.yaml", robot)
    start, goal = pq.read_motion_request(folder / f"request{n}.yaml", robot)
    return pq.Checker(robot, scene, cache_dir=cache), start, goal

"""Shared fixtures: the repository's data folder and the Panda checker (built once)."""

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

"""Planning from Python: ``Planner`` on shipped MotionBenchMaker Panda problems (read with
``Scene.from_moveit`` and ``read_motion_request``), every path re-checked edge by edge with the
certified ``Checker.check_motions``; determinism by seed; invalid ends and bad requests raise
``ValueError`` naming the pair or the joint."""

import threading

import numpy as np
import pytest

import polyquery as pq
from conftest import PROBLEMS, REPO
from conftest import mbm_problem as problem


def assert_certified(checker, plan, start, goal):
    """The path goes from the start to the goal exactly, its length is the sum of its edges
    (relative 1e-12) and every edge is certified free by the checker."""
    assert plan.solved and plan.stop == "solved"
    path = plan.path
    assert path.dtype == np.float64 and path.shape[1] == checker.dof and len(path) >= 2
    assert np.array_equal(path[0], start) and np.array_equal(path[-1], goal)
    free, s = checker.check_motions(path[:-1], path[1:], certified=True)
    assert free.all() and np.isnan(s).all()
    length = np.linalg.norm(np.diff(path, axis=0), axis=1).sum()
    assert abs(plan.length - length) <= 1e-12 * length
    assert plan.certified_checks >= len(path) - 1
    assert plan.planning_seconds >= 0 and plan.simplify_seconds >= 0
    assert plan.iterations >= 0 and plan.motion_checks >= 0


@pytest.mark.parametrize("set_name,n", [("box_panda", "0001"), ("table_pick_panda", "0002")])
def test_plans_shipped_problems_certified(mbm_robot, cache, set_name, n):
    checker, start, goal = problem(mbm_robot, cache, set_name, n)
    assert start.shape == goal.shape == (7,)
    planner = pq.Planner(checker)
    assert planner.range > 0
    assert_certified(checker, planner.plan(start, goal, timeout=5.0, seed=1), start, goal)


def test_same_seed_same_path_and_no_simplify(mbm_robot, cache):
    checker, start, goal = problem(mbm_robot, cache, "cage_panda", "0001")
    planner = pq.Planner(checker)
    a = planner.plan(start, goal, timeout=10.0, seed=3)
    b = planner.plan(start, goal, timeout=10.0, seed=3)
    assert np.array_equal(a.path, b.path) and a.iterations == b.iterations
    raw = pq.Planner(checker, simplify=False).plan(start, goal, timeout=10.0, seed=3)
    assert_certified(checker, raw, start, goal)
    assert raw.simplify_seconds == 0.0
    # Python threads plan at once (the GIL is released): the same answers.
    answers = [None] * 2

    def run(k):
        answers[k] = planner.plan(start, goal, timeout=10.0, seed=3).path

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(p, a.path) for p in answers)


def test_colliding_start_names_the_pair(mbm_robot, cache):
    scene = pq.Scene()
    scene.add_sphere("ball", 0.3, ([0.0, 0.0, 0.3], [0.0, 0.0, 0.0, 1.0]))
    checker = pq.Checker(mbm_robot, scene, cache_dir=cache)
    start, goal = pq.read_motion_request(PROBLEMS / "box_panda" / "request0001.yaml", mbm_robot)
    with pytest.raises(ValueError, match="start configuration collides.*ball"):
        pq.Planner(checker).plan(start, goal)
    with pytest.raises(ValueError, match="range"):
        pq.Planner(checker, range=-1.0)
    with pytest.raises(ValueError, match="q_goal"):
        pq.Planner(checker).plan(start, goal[:3])


def test_bad_request_names_the_joint(mbm_robot, tmp_path):
    text = (PROBLEMS / "box_panda" / "request0001.yaml").read_text()
    cut = text.replace(
        "      - position: 0.1941262264518609\n        joint_name: panda_joint3\n", ""
    )
    assert cut != text
    (tmp_path / "request.yaml").write_text(cut)
    with pytest.raises(ValueError, match="panda_joint3"):
        pq.read_motion_request(tmp_path / "request.yaml", mbm_robot)
    (tmp_path / "scene.yaml").write_text("world: {collision_objects: [\n")
    with pytest.raises(ValueError, match="malformed YAML"):
        pq.Scene.from_moveit(tmp_path / "scene.yaml", mbm_robot)


def test_motion_problems_lists_the_folder():
    problems = pq.motion_problems(PROBLEMS)
    assert len(problems) == 700
    name, scene, request = problems[0]
    assert name == "bookshelf_small_panda/0001"
    assert str(scene).endswith("scene0001.yaml") and str(request).endswith("request0001.yaml")
    with pytest.raises(ValueError):
        pq.motion_problems(REPO / "data" / "robots" / "panda")


def test_readme_planning_example_runs():
    import os
    import re
    import subprocess
    import sys

    text = (REPO / "docs" / "planning.md").read_text()
    section = text.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env=os.environ.copy()
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("True"), out.stdout
    assert out.stdout.startswith("(") and ", 7)" in out.stdout, out.stdout

"""OMPL 2.0.1 with ``polyquery.ompl``: RRTConnect plans shipped MotionBenchMaker Panda problems
and every returned edge is re-checked free by the certified ``Checker.check_motions``; the
adapter's validity checker and motion validator answer as ``Checker.check`` and
``Checker.check_motions`` do on random states and motions; ``examples/plan_ompl.py`` and the
the OMPL block of docs/planning.md run.
OMPL is required (``pip install ompl==2.0.1``, as ``.ci/run`` does): without it this module
fails to import, it is not skipped."""

import importlib.util
import re
import subprocess
import sys

import numpy as np
import pytest
from ompl import base as ob
from ompl import util as ou

import polyquery.ompl as pqo
from conftest import REPO
from conftest import mbm_problem as problem

ou.setLogLevel(ou.LogLevel.LOG_WARN)
ou.RNG.setSeed(1)  # OMPL's generators, made after this, are reproducible


@pytest.mark.parametrize("set_name,n", [("box_panda", "0001"), ("table_pick_panda", "0002")])
def test_rrtconnect_paths_are_certified_free(mbm_robot, cache, set_name, n):
    checker, start, goal = problem(mbm_robot, cache, set_name, n)
    ss = pqo.simple_setup(checker, start, goal)
    assert ss.getPlanner().getName() == "RRTConnect"
    assert ss.solve(10.0) and ss.haveExactSolutionPath()
    raw = pqo.solution_path(ss)
    ss.simplifySolution()
    path = pqo.solution_path(ss)
    for p in (raw, path):
        assert p.dtype == np.float64 and p.ndim == 2 and p.shape[1] == checker.dof == 7
        assert len(p) >= 2
        # OMPL copies the states' doubles: the ends are the request's exactly.
        assert np.array_equal(p[0], start) and np.array_equal(p[-1], goal)
        free, s = checker.check_motions(p[:-1], p[1:], certified=True)
        assert free.all() and np.isnan(s).all()
    si = ss.getSpaceInformation()
    mv, svc = si.getMotionValidator(), si.getStateValidityChecker()
    assert isinstance(mv, pqo.CertifiedMotionValidator)
    assert isinstance(svc, pqo.StateValidityChecker)
    assert mv.checks >= len(path) - 1 and 0 <= mv.invalid <= mv.checks and svc.checks > 0


def random_configurations(checker, n, seed):
    lo, hi = checker.limits[:, 0], checker.limits[:, 1]
    return lo + (hi - lo) * np.random.default_rng(seed).random((n, checker.dof))


def test_validators_answer_as_the_checker(mbm_robot, cache):
    checker, start, _ = problem(mbm_robot, cache, "bookshelf_small_panda", "0001")
    space = pqo.state_space(checker)
    assert space.getDimension() == checker.dof
    assert [space.getDimensionName(k) for k in range(checker.dof)] == checker.joint_names
    bounds = space.getBounds()
    assert [(bounds.low[k], bounds.high[k]) for k in range(checker.dof)] == [
        tuple(r) for r in checker.limits
    ]
    ss = pqo.simple_setup(checker)
    si = ss.getSpaceInformation()
    svc, mv = si.getStateValidityChecker(), si.getMotionValidator()
    state = space.allocState()

    Q = random_configurations(checker, 300, seed=7)
    collides = checker.check(Q)
    assert 0 < collides.sum() < len(Q)  # both answers occur
    for q, c in zip(Q, collides):
        pqo.set_state(state, q)
        assert np.array_equal(pqo.state_array(state, checker.dof), q)
        assert svc.isValid(state) == (not c) == si.isValid(state)
    assert svc.checks == 2 * len(Q)  # svc.isValid and si.isValid (which asks svc)

    # Motions from the free start: to random free states (many cross an obstacle) and short
    # random steps (most free).
    rng = np.random.default_rng(8)
    far = Q[~collides][:30]
    near = np.clip(start + rng.normal(scale=0.2, size=(30, checker.dof)), *checker.limits.T)
    Q1 = np.vstack([far, near])
    Q0 = np.repeat(start[None, :], len(Q1), axis=0)
    free, _ = checker.check_motions(Q0, Q1, certified=True)
    assert 0 < free.sum() < len(Q0)  # both answers occur
    a, b = space.allocState(), space.allocState()
    for q0, q1, f in zip(Q0, Q1, free):
        pqo.set_state(a, q0)
        pqo.set_state(b, q1)
        assert mv.checkMotion(a, b) == bool(f)
    assert mv.checks == len(Q0) and mv.invalid == len(Q0) - free.sum()


def test_simple_setup_refuses_bad_input(mbm_robot, cache):
    checker, start, goal = problem(mbm_robot, cache, "box_panda", "0001")
    with pytest.raises(ValueError, match="goal has shape"):
        pqo.simple_setup(checker, start, goal[:3])
    with pytest.raises(ValueError, match="both start and goal"):
        pqo.simple_setup(checker, start)
    with pytest.raises(ValueError, match="no planner 'NoSuchPlanner'"):
        pqo.simple_setup(checker, start, goal, planner="NoSuchPlanner")
    ss = pqo.simple_setup(checker, start, goal, planner="RRTConnect", range=0.5)
    assert ss.getPlanner().getRange() == 0.5
    assert pqo.solution_path(ss) is None  # not solved yet
    assert isinstance(ss.getSpaceInformation(), ob.SpaceInformation)


def test_import_without_ompl_says_what_to_install():
    code = (
        "import sys; sys.modules['ompl'] = None\n"
        "import polyquery\n"
        "assert 'polyquery.ompl' not in sys.modules\n"
        "try:\n"
        "    import polyquery.ompl\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stderr
    assert "pip install ompl==2.0.1" in out.stdout, out.stdout


def test_example_plans_and_rechecks(cache, capsys):
    spec = importlib.util.spec_from_file_location("plan_ompl", REPO / "examples" / "plan_ompl.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = module.main(["--problem", "box_panda/0001", "--timeout", "10", "--cache", str(cache)])
    assert path is not None and path.shape[1] == 7
    assert capsys.readouterr().out.strip().endswith("every edge certified free: True")


def test_readme_ompl_block_runs(cache, capsys):
    """The OMPL example of docs/planning.md, with this session's shape cache (the robot's pieces are
    built once per session) and a 10 s limit."""

    section = (REPO / "docs" / "planning.md").read_text().split("## With OMPL", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    assert "pq.Checker(robot, scene)" in code
    cached = f"pq.Checker(robot, scene, cache_dir={str(cache)!r})"
    code = code.replace("pq.Checker(robot, scene)", cached)
    code = code.replace("ss.solve(1.0)", "ss.solve(10.0)")  # a loaded CI machine
    exec(compile(code, "docs/planning.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out.strip()
    assert out.startswith("(") and out.endswith(", 7) True"), out

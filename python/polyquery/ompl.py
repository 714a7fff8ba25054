"""OMPL on polyquery: a state validity checker and a certified motion validator over a
:class:`polyquery.Checker`, for OMPL's Python bindings (``pip install ompl==2.0.1``).

Where it sits: a user's OMPL planner (``ompl.geometric``, e.g. ``RRTConnect`` and its path
simplifier) asks ``isValid(state)`` and ``checkMotion(s1, s2)``; this module answers them with
``Checker.check`` and the certified ``Checker.check_motions`` (one configuration or one motion
per call, ``parallel=False``, in the calling thread). A motion OMPL accepts is then free on the
robot's exact (decomposed) geometry over the whole segment, not only at samples, so every edge
of a path OMPL returns, simplified or not, is certified free. Arrays in and out: configurations
are ``(dof,)`` float64 arrays in the checker's joint order and a solution path comes back as an
``(N, dof)`` array.

Example (``examples/plan_ompl.py`` is the whole program)::

    import polyquery as pq
    import polyquery.ompl as pqo

    d = "data/robots/mbm_panda/"
    robot = pq.Robot.from_urdf(d + "panda.urdf", srdf=d + "panda.srdf")
    scene = pq.Scene.from_moveit(d + "problems/box_panda/scene0001.yaml", robot)
    start, goal = pq.read_motion_request(d + "problems/box_panda/request0001.yaml", robot)
    checker = pq.Checker(robot, scene)
    ss = pqo.simple_setup(checker, start, goal)  # RRTConnect, both validators set
    if ss.solve(1.0) and ss.haveExactSolutionPath():  # not an approximate one
        ss.simplifySolution()
        path = pqo.solution_path(ss)  # (N, 7) array, start to goal
        assert checker.check_motions(path[:-1], path[1:])[0].all()

Importing ``polyquery`` never needs OMPL; importing this module without it raises an
``ImportError`` that says what to install.
"""

from typing import Optional

import numpy as np
import numpy.typing as npt

try:
    from ompl import base as ob
    from ompl import geometric as og
except ImportError as _missing:  # tests/test_ompl.py imports it with OMPL hidden
    raise ImportError(
        "polyquery.ompl needs OMPL's Python bindings: pip install ompl==2.0.1"
    ) from _missing

from ._polyquery import Checker

__all__ = [
    "CertifiedMotionValidator",
    "StateValidityChecker",
    "set_state",
    "simple_setup",
    "solution_path",
    "state_array",
    "state_space",
]


def state_array(state: "ob.State", dof: int) -> npt.NDArray[np.float64]:
    """The ``(dof,)`` float64 array of a real-vector OMPL state.

    Example: ``q = state_array(space.allocState(), 7)``
    """
    return np.array(state[0:dof], dtype=np.float64)


def set_state(state: "ob.State", q: npt.ArrayLike) -> None:
    """Writes the configuration ``q`` (``(dof,)``) into a real-vector OMPL state.

    Example: ``s = space.allocState(); set_state(s, start)``
    """
    q = np.asarray(q, dtype=np.float64).reshape(-1)
    for k, v in enumerate(q):
        state[k] = float(v)


class StateValidityChecker(ob.StateValidityChecker):
    """OMPL's ``isValid(state)`` as ``not checker.check(q)``: a state is valid when the robot
    collides with nothing (self pairs and obstacles the checker checks) at ``q``.

    Example: ``si.setStateValidityChecker(StateValidityChecker(si, checker))``

    ``checks`` counts the calls.
    """

    def __init__(self, si: "ob.SpaceInformation", checker: Checker) -> None:
        super().__init__(si)
        self.checker = checker
        self.dof = checker.dof
        self.checks = 0

    def isValid(self, state: "ob.State") -> bool:  # noqa: N802 (OMPL's name)
        """``True`` when the configuration is collision-free (``Checker.check`` is False)."""
        self.checks += 1
        return not self.checker.check(state_array(state, self.dof), parallel=False)


class CertifiedMotionValidator(ob.MotionValidator):
    """OMPL's ``checkMotion(s1, s2)`` as polyquery's certified motion check: ``True`` only
    when the straight joint-space motion ``s1 → s2`` is free over the whole segment
    (``Checker.check_motions(q1, q2, certified=True)``), not only at sampled states.

    Example: ``si.setMotionValidator(CertifiedMotionValidator(si, checker))``

    ``checks`` counts the calls, ``invalid`` the motions found not free. OMPL's binding
    sends both forms of ``checkMotion`` here (RRTConnect, PRM, KPIECE's form with a last valid
    state, ``PathSimplifier``); no partial motion is reported, so a planner that extends
    along the valid part of a motion (KPIECE) does not.
    """

    def __init__(self, si: "ob.SpaceInformation", checker: Checker) -> None:
        super().__init__(si)
        self.checker = checker
        self.dof = checker.dof
        self.checks = 0
        self.invalid = 0

    def checkMotion(self, s1: "ob.State", s2: "ob.State") -> bool:  # noqa: N802 (OMPL's name)
        """``True`` when the motion ``s1 → s2`` is certified free."""
        self.checks += 1
        free, _ = self.checker.check_motions(
            state_array(s1, self.dof), state_array(s2, self.dof), certified=True, parallel=False
        )
        if not free:
            self.invalid += 1
        return bool(free)


def state_space(checker: Checker) -> "ob.RealVectorStateSpace":
    """OMPL's real-vector state space of the checker's robot: one dimension per movable joint,
    named after it, bounded by its limits (``checker.limits[k] = (lower, upper)``).

    Example: ``space = state_space(checker); space.getDimension() == checker.dof``
    """
    dof = checker.dof
    limits = np.asarray(checker.limits, dtype=np.float64)
    space = ob.RealVectorStateSpace(dof)
    bounds = ob.RealVectorBounds(dof)
    for k in range(dof):
        bounds.setLow(k, float(limits[k, 0]))
        bounds.setHigh(k, float(limits[k, 1]))
    space.setBounds(bounds)
    for k, name in enumerate(checker.joint_names):
        space.setDimensionName(k, name)
    return space


def simple_setup(
    checker: Checker,
    start: Optional[npt.ArrayLike] = None,
    goal: Optional[npt.ArrayLike] = None,
    *,
    planner: Optional[str] = "RRTConnect",
    range: Optional[float] = None,
) -> "og.SimpleSetup":
    """An ``ompl.geometric.SimpleSetup`` on :func:`state_space` with this module's
    :class:`StateValidityChecker` and :class:`CertifiedMotionValidator` set, the start and
    goal set when given (``(dof,)`` arrays), and the planner named by ``planner`` (a class
    of ``ompl.geometric``, e.g. ``"RRTConnect"``; ``None`` leaves OMPL's default) with its
    ``range`` when given.

    Example: ``ss = simple_setup(checker, start, goal); ss.solve(1.0)``

    The validators are reachable as ``ss.getSpaceInformation().getStateValidityChecker()``
    and ``.getMotionValidator()`` for their counters.
    """
    space = state_space(checker)
    ss = og.SimpleSetup(space)
    si = ss.getSpaceInformation()
    si.setStateValidityChecker(StateValidityChecker(si, checker))
    si.setMotionValidator(CertifiedMotionValidator(si, checker))
    if start is not None or goal is not None:
        if start is None or goal is None:
            raise ValueError("simple_setup: give both start and goal, or neither")
        s, g = space.allocState(), space.allocState()
        set_state(s, _configuration(start, checker.dof, "start"))
        set_state(g, _configuration(goal, checker.dof, "goal"))
        ss.setStartAndGoalStates(s, g)
    if planner is not None:
        make = getattr(og, planner, None)
        if make is None:
            raise ValueError(f"simple_setup: ompl.geometric has no planner {planner!r}")
        p = make(si)
        if range is not None:
            p.setRange(float(range))
        ss.setPlanner(p)
    return ss


def solution_path(ss: "og.SimpleSetup") -> Optional[npt.NDArray[np.float64]]:
    """The solution path of a solved ``SimpleSetup`` as an ``(N, dof)`` float64 array (``N``
    waypoints, the start first), or ``None`` when it has no exact solution.

    Example: ``path = solution_path(ss); path.shape``
    """
    if not ss.haveExactSolutionPath():
        return None
    path = ss.getSolutionPath()
    dof = ss.getStateSpace().getDimension()
    n = path.getStateCount()
    return np.array([path.getState(i)[0:dof] for i in range(n)], dtype=np.float64).reshape(n, dof)


def _configuration(q: npt.ArrayLike, dof: int, what: str) -> npt.NDArray[np.float64]:
    """``q`` as a ``(dof,)`` float64 array; ``ValueError`` naming ``what`` otherwise."""
    a = np.asarray(q, dtype=np.float64)
    if a.shape != (dof,):
        raise ValueError(f"simple_setup: {what} has shape {a.shape}, the robot has {dof} joints")
    return a

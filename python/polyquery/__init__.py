"""polyquery: geometric queries between convex polytopes, and robot collision checks.

NumPy in and out. Every vectorised call takes one row (a scalar answer) or ``N`` rows (an
array of ``N`` answers); the work runs in Rust with the GIL released.

* :class:`Polytope`: exact convex hull with a normal vector map (O(log n) support queries);
  load OBJ / STL / ``.nvm``, save ``.nvm``.
* Pair queries on two posed polytopes: :func:`intersects`, :func:`distance`,
  :func:`penetration_depth`, :func:`directional_penetration`, :func:`time_of_impact`, and
  :func:`raycast` on one. A pose is ``None`` (identity), a 4x4 matrix, an ``(N, 4, 4)``
  stack, or a tuple ``(translation, quaternion_xyzw)`` of ``(3,)``/``(N, 3)`` and
  ``(4,)``/``(N, 4)`` arrays.
* Robots: :class:`Robot` (URDF + SRDF), :class:`Scene`, :class:`Checker` (configurations,
  distances, certified motions). All three pickle through the library's versioned,
  checksummed bytes; a checker's bytes hold its built shapes (every hull's saved map), so a
  cluster ships it once and no worker needs a mesh file or rebuilds a hull. Corrupt pickled
  bytes raise ``ValueError``.
* Planning: :class:`Planner` on a checker plans a path whose every edge is certified free
  (``Planner(checker).plan(q_start, q_goal)`` gives a :class:`Plan`: ``path`` an ``(N, dof)``
  array or ``None``, and its times and counted work); MoveIt files: :meth:`Scene.from_moveit`,
  :func:`read_motion_request`; MotionBenchMaker folders: :func:`motion_problems`.
* OMPL: :mod:`polyquery.ompl` gives OMPL 2.0.1's planners a state validity checker and a
  certified motion validator over a :class:`Checker` (``pip install ompl==2.0.1``; imported
  only on request, so ``import polyquery`` never needs OMPL).

Errors are ``ValueError`` (``FileNotFoundError`` for a missing file) with the library's
message.
"""

from ._polyquery import (
    Checker,
    Plan,
    Planner,
    Polytope,
    Robot,
    Scene,
    __version__,
    directional_penetration,
    distance,
    intersects,
    motion_problems,
    penetration_depth,
    raycast,
    read_motion_request,
    time_of_impact,
)

__all__ = [
    "Checker",
    "Plan",
    "Planner",
    "Polytope",
    "Robot",
    "Scene",
    "__version__",
    "directional_penetration",
    "distance",
    "intersects",
    "motion_problems",
    "penetration_depth",
    "raycast",
    "read_motion_request",
    "time_of_impact",
]

"""Type stubs of polyquery (the native module polyquery._polyquery, re-exported here).

Vectorised calls: one row in (shape ``(3,)``, ``(dof,)``, one pose) gives a Python scalar;
``N`` rows in (``(N, 3)``, ``(N, dof)``, ``(N, 4, 4)``) give arrays of ``N`` answers. Inputs of
length 1 broadcast against inputs of length ``N``.
"""

from os import PathLike
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

_Path = Union[str, PathLike]
_Array = npt.ArrayLike
#: ``None`` (identity), a 4x4 homogeneous matrix, an ``(N, 4, 4)`` stack, or a tuple
#: ``(translation, quaternion_xyzw)`` with shapes ``(3,)``/``(N, 3)`` and ``(4,)``/``(N, 4)``.
Pose = Union[None, _Array, Tuple[_Array, _Array]]
_Bools = Union[bool, npt.NDArray[np.bool_]]
_Floats = Union[float, npt.NDArray[np.float64]]

class Polytope:
    """A convex polytope (the exact hull of its points) with its normal vector map."""

    @staticmethod
    def from_points(points: _Array) -> "Polytope":
        """The convex hull of an ``(N, 3)`` array of points. ``ValueError`` if flat."""
    @staticmethod
    def load(path: _Path) -> "Polytope":
        """Loads an OBJ or STL mesh (its hull is built) or a saved ``.nvm`` map.
        ``FileNotFoundError`` when missing, ``ValueError`` when malformed."""
    def save(self, path: _Path) -> int:
        """Saves the hull and its map as a ``.nvm`` file; returns the bytes written."""
    def support(self, dirs: _Array) -> npt.NDArray[np.float64]:
        """Support points ``S(P, d)``: ``(3,)`` → ``(3,)``, ``(N, 3)`` → ``(N, 3)``."""
    @property
    def num_vertices(self) -> int: ...
    @property
    def num_faces(self) -> int: ...
    @property
    def volume(self) -> float: ...
    @property
    def vertices(self) -> npt.NDArray[np.float64]:
        """The hull's vertices, ``(n, 3)`` (a copy)."""

def intersects(a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None) -> _Bools:
    """Whether A and B (posed) intersect, touching included (GJK)."""

@overload
def distance(
    a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None, *, points: Literal[False] = False
) -> _Floats: ...
@overload
def distance(
    a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None, *, points: Literal[True]
) -> Tuple[_Floats, npt.NDArray[np.float64]]: ...
def distance(
    a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None, *, points: bool = False
) -> Union[_Floats, Tuple[_Floats, npt.NDArray[np.float64]]]:
    """The distance between A and B (posed); 0 when they intersect (GJK).

    With ``points=True``: ``(distance, points)``, ``points[0]`` the nearest point of A and
    ``points[1]`` of B in the world frame (``(2, 3)``, or ``(N, 2, 3)`` for N poses); when
    they intersect both are one common point (see ``penetration_depth`` for the overlap).

    >>> d, (pa, pb) = distance(cube, cube, None, ([3, 0, 0], [0, 0, 0, 1]), points=True)
    """

def penetration_depth(
    a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None
) -> Tuple[_Floats, npt.NDArray[np.float64]]:
    """EPA's ``(depth, unit normal)``; depth 0 and a NaN normal when apart."""

def directional_penetration(
    a: Polytope, b: Polytope, direction: _Array, pose_a: Pose = None, pose_b: Pose = None
) -> _Floats:
    """How far B must move along ``direction`` to stop overlapping A (0 when apart)."""

def time_of_impact(
    a: Polytope, b: Polytope, velocity: _Array, pose_a: Pose = None, pose_b: Pose = None
) -> _Floats:
    """The least ``t ≥ 0`` at which B moved by ``t·velocity`` touches A; ``inf`` if never."""

def raycast(a: Polytope, origin: _Array, direction: _Array, pose: Pose = None) -> _Floats:
    """The distance along the unit direction to where the ray enters A; ``inf`` on a miss."""

class Robot:
    """A robot read from URDF, with the SRDF's allowed-collision pairs."""

    @staticmethod
    def from_urdf(
        path: _Path,
        srdf: Optional[_Path] = None,
        package_dirs: Optional[Mapping[str, _Path]] = None,
        *,
        mesh_shape: Literal["decomposed", "hull"] = "decomposed",
        mesh_tolerance: float = 0.001,
    ) -> "Robot": ...
    @property
    def mesh_shape(self) -> Literal["decomposed", "hull"]: ...
    @property
    def mesh_tolerance(self) -> float: ...
    @property
    def name(self) -> str: ...
    @property
    def dof(self) -> int: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def link_names(self) -> list[str]: ...
    @property
    def limits(self) -> npt.NDArray[np.float64]:
        """``(dof, 2)``: lower, upper."""
    def link_poses(self, q: _Array) -> npt.NDArray[np.float64]:
        """Forward kinematics in the robot's root frame: 4×4 per link in ``link_names``
        order, ``(links, 4, 4)`` for ``(dof,)``, ``(N, links, 4, 4)`` for ``(N, dof)``. No
        limit check. ``Checker.link_poses`` gives world poses (the scene's base pose applied).

        >>> hand = robot.link_poses(q)[robot.link_names.index("panda_hand")]  # 4×4
        """
    @property
    def warnings(self) -> list[str]:
        """The SRDF's names the URDF lacks, one message each (their entries ignored)."""
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]:
        """Pickles as the library's bytes (the model and its allowed pairs; meshes as paths)."""

class Scene:
    """Static obstacles, the robot base's pose, and link–obstacle pairs never checked."""

    def __init__(self) -> None: ...
    @staticmethod
    def from_json(path: _Path) -> "Scene": ...
    @staticmethod
    def from_json_str(text: str, base_dir: Optional[_Path] = None) -> "Scene": ...
    @staticmethod
    def from_moveit(path: _Path, robot: "Robot") -> "Scene":
        """A MoveIt planning scene (YAML) read for ``robot``: collision objects (box, sphere,
        cylinder, cone, mesh) with poses, the base pose; unsupported content raises
        ``ValueError``."""
    def add_box(self, name: str, half_extents: Sequence[float], pose: Pose = None) -> None: ...
    def add_sphere(self, name: str, radius: float, pose: Pose = None) -> None: ...
    def add_cylinder(self, name: str, radius: float, length: float, pose: Pose = None) -> None: ...
    def add_cone(self, name: str, radius: float, length: float, pose: Pose = None) -> None:
        """A cone along the pose's z axis: apex at ``z = length / 2``, base at ``-length / 2``."""
    def add_capsule(self, name: str, radius: float, length: float, pose: Pose = None) -> None: ...
    def add_mesh(
        self, name: str, path: _Path, scale: Sequence[float] = (1.0, 1.0, 1.0), pose: Pose = None
    ) -> None: ...
    def allow_collision(self, a: str, b: str) -> None: ...
    @property
    def robot_base_pose(self) -> npt.NDArray[np.float64]: ...
    @robot_base_pose.setter
    def robot_base_pose(self, pose: Pose) -> None: ...
    @property
    def obstacle_names(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]:
        """Pickles as the library's bytes (obstacles as written; meshes as paths)."""

class Checker:
    """A robot in a scene: configuration checks, distances, certified motion checks.
    Thread-safe; pickles to the library's bytes of the checker, its built shapes included
    (every hull's saved map): unpickling reads no file and rebuilds no hull."""

    def __init__(
        self,
        robot: Robot,
        scene: Optional[Scene] = None,
        *,
        allow_out_of_limits: bool = False,
        cache_dir: Optional[_Path] = None,
        padding: Union[None, float, Dict[str, float]] = None,
    ) -> None:
        """``padding`` (metres, MoveIt's link padding): a number for every link, or
        ``{link name: metres}`` (key ``"*"``: every other link). A link collides with an
        obstacle closer than its padding, with a link closer than both paddings summed;
        distances are reported less the padding; certified motions and plans honour it.

        >>> checker = Checker(robot, scene, padding={"*": 0.01, "panda_hand": 0.02})
        """
    def check(self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4) -> _Bools:
        """Whether each configuration collides: ``(dof,)`` → bool, ``(N, dof)`` → bool array.
        Values at most ``limit_tolerance`` beyond a joint limit are clamped onto it (every call)."""
    @overload
    def distance(
        self,
        q: _Array,
        parallel: bool = True,
        *,
        limit_tolerance: float = 1e-4,
        details: Literal[False] = False,
    ) -> _Floats: ...
    @overload
    def distance(
        self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4, details: Literal[True]
    ) -> Dict[str, Any]: ...
    def distance(
        self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4, details: bool = False
    ) -> Union[_Floats, Dict[str, Any]]:
        """Minimum distance over the active pairs (0 when colliding; less the pair's padding).

        With ``details=True`` a dict: ``distance``; ``pair``, the nearest pair's names
        ``(link, obstacle)`` or ``(link, link)`` (None without active pairs; a list for
        ``(N, dof)``); ``points``, ``(2, 3)`` or ``(N, 2, 3)``: the nearest point on the pair's
        first body, then on its second, world frame, ``|points[1] - points[0]| = distance +
        padding``. An intersecting pair's two points are one contact point (no depth).

        >>> r = checker.distance(q, details=True); r["pair"], r["points"][1] - r["points"][0]
        """
    def colliding_pairs(
        self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4
    ) -> Union[List[Tuple[str, str]], List[List[Tuple[str, str]]]]:
        """Every colliding pair (within its padding), scene pairs first: a list of name
        tuples for ``(dof,)`` (empty when free), a list of such lists for ``(N, dof)``.

        >>> checker.colliding_pairs(q)  # e.g. [("panda_link7", "shelf_middle")]
        """
    def link_poses(self, q: _Array, *, limit_tolerance: float = 1e-4) -> npt.NDArray[np.float64]:
        """World poses (the scene's robot base pose applied), 4×4 per link in
        ``Robot.link_names`` order: ``(links, 4, 4)`` or ``(N, links, 4, 4)``.

        >>> checker.link_poses(q)[-1][:3, 3]  # the last link's position
        """
    def set_obstacle_pose(self, name: str, pose: Pose) -> None:
        """Moves obstacle ``name`` to ``pose`` (4×4 or ``(translation, quaternion_xyzw)``)
        without rebuilding: later calls answer as a checker built with it there.
        ``ValueError`` for an unknown name.

        >>> checker.set_obstacle_pose("box", ([0.5, 0.0, 0.3], [0, 0, 0, 1]))
        """
    @property
    def padding(self) -> Dict[str, float]:
        """Each link's padding in metres, ``{link name: metres}``."""
    def colliding_pair(
        self, q: _Array, *, limit_tolerance: float = 1e-4
    ) -> Optional[Tuple[str, str]]:
        """The colliding pair's names at one configuration, or None."""
    def check_motions(
        self,
        q0: _Array,
        q1: _Array,
        certified: bool = True,
        resolution: float = 0.01,
        parallel: bool = True,
        *,
        limit_tolerance: float = 1e-4,
    ) -> Tuple[_Bools, _Floats]:
        """``(free, s)`` for the motions ``q0 → q1``; ``s`` is NaN when free. ``resolution``
        (sampled only; default 0.01, the library's ``DEFAULT_MOTION_RESOLUTION``, as the
        command line's ``--resolution``) is the largest joint step between samples."""
    @property
    def dof(self) -> int: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def limits(self) -> npt.NDArray[np.float64]: ...
    @property
    def active_pairs(self) -> Tuple[int, int]: ...
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]: ...

class Plan:
    """A planner's answer: the path (or None) and the time and work it took."""

    @property
    def path(self) -> Optional[npt.NDArray[np.float64]]:
        """``(N, dof)`` waypoints, ``path[0]`` the start and ``path[-1]`` the goal exactly,
        every edge certified free; None when a limit stopped the search."""
    @property
    def solved(self) -> bool: ...
    @property
    def stop(self) -> Literal["solved", "timeout", "iterations"]: ...
    @property
    def planning_seconds(self) -> float: ...
    @property
    def simplify_seconds(self) -> float: ...
    @property
    def certify_seconds(self) -> float: ...
    @property
    def state_check_seconds(self) -> float:
        """Seconds of configuration checks, within the phases' times."""
    @property
    def certified_check_seconds(self) -> float:
        """Seconds of certified motion checks, within the phases' times."""
    @property
    def nearest_seconds(self) -> float:
        """Seconds finding nearest tree nodes (search and repairs)."""
    @property
    def iterations(self) -> int: ...
    @property
    def state_checks(self) -> int: ...
    @property
    def motion_checks(self) -> int: ...
    @property
    def certified_checks(self) -> int: ...
    @property
    def repairs(self) -> int: ...
    @property
    def length(self) -> Optional[float]:
        """Σ ‖path[i+1] − path[i]‖₂, None when unsolved."""

class Planner:
    """RRT-Connect, shortcuts and vertex removal on a checker, then every edge of the path
    certified by the certified motion check. Thread-safe; ``plan`` releases the GIL."""

    def __init__(
        self,
        checker: Checker,
        *,
        range: Optional[float] = None,
        simplify: bool = True,
        shortcut_attempts: int = 16,
        max_iterations: Optional[int] = None,
        certified_search: bool = False,
        resolution: float = 1.0 / 16.0,
    ) -> None: ...
    def plan(
        self,
        q_start: _Array,
        q_goal: _Array,
        timeout: float = 1.0,
        seed: int = 0,
        *,
        limit_tolerance: float = 1e-4,
    ) -> Plan:
        """Plans ``q_start → q_goal``; a colliding start or goal raises ``ValueError`` naming
        the pair. The same seed gives the same path unless the time limit is hit."""
    @property
    def range(self) -> float: ...

def read_motion_request(
    path: _Path, robot: Robot
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A MoveIt motion request's ``(start, goal)`` in the robot's configuration order; a
    movable joint the request lacks raises ``ValueError`` naming it."""

def motion_problems(dir: _Path) -> list[Tuple[str, str, str]]:
    """The MotionBenchMaker problems under ``dir``: ``(name, scene_path, request_path)``."""

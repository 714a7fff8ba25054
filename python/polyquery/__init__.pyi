"""Type stubs of polyquery (the native module polyquery._polyquery, re-exported here).

Vectorised calls: one row in (shape ``(3,)``, ``(dof,)``, one pose) gives a Python scalar;
``N`` rows in (``(N, 3)``, ``(N, dof)``, ``(N, 4, 4)``) give arrays of ``N`` answers. Inputs of
length 1 broadcast against inputs of length ``N``.
"""

from os import PathLike
from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

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

def distance(a: Polytope, b: Polytope, pose_a: Pose = None, pose_b: Pose = None) -> _Floats:
    """The distance between A and B (posed); 0 when they intersect (GJK)."""

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
    ) -> None: ...
    def check(self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4) -> _Bools:
        """Whether each configuration collides: ``(dof,)`` → bool, ``(N, dof)`` → bool array.
        Values at most ``limit_tolerance`` beyond a joint limit are clamped onto it (every call)."""
    def distance(
        self, q: _Array, parallel: bool = True, *, limit_tolerance: float = 1e-4
    ) -> _Floats:
        """Minimum distance over the active pairs (0 when colliding)."""
    def colliding_pair(
        self, q: _Array, *, limit_tolerance: float = 1e-4
    ) -> Optional[Tuple[str, str]]:
        """The colliding pair's names at one configuration, or None."""
    def check_motions(
        self,
        q0: _Array,
        q1: _Array,
        certified: bool = True,
        resolution: float = 1e-3,
        parallel: bool = True,
        *,
        limit_tolerance: float = 1e-4,
    ) -> Tuple[_Bools, _Floats]:
        """``(free, s)`` for the motions ``q0 → q1``; ``s`` is NaN when free."""
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

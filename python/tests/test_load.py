"""Robots loaded as MoveIt and ROS tools load them (issue 20): SRDF names the URDF lacks are
warnings, ``package://`` meshes are found through ``ROS_PACKAGE_PATH``, and configuration
values within ``limit_tolerance`` of a joint limit are clamped."""

import shutil

import numpy as np
import pytest

import polyquery as pq
from conftest import PANDA


def test_unknown_srdf_names_are_warnings(tmp_path):
    text = (PANDA / "panda.srdf").read_text()
    extra = (
        '<disable_collisions link1="bellows_link2" link2="panda_link0" reason="Never"/>\n'
        '<disable_collisions link1="panda_link1" link2="bellows_link2" reason="Never"/>\n'
        '<passive_joint name="torso_lift_joint"/>\n</robot>'
    )
    srdf = tmp_path / "fetch_like.srdf"
    srdf.write_text(text.replace("</robot>", extra))
    with pytest.warns(UserWarning) as caught:
        robot = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=srdf)
    assert len(robot.warnings) == 2
    assert "link `bellows_link2`" in robot.warnings[0] and "2 entries" in robot.warnings[0]
    assert "joint `torso_lift_joint`" in robot.warnings[1]
    assert all(str(srdf) in w for w in robot.warnings)
    assert [str(w.message) for w in caught] == robot.warnings
    # The robot loads and checks as with the bundled SRDF (the unknown entries ignored).
    bundled = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")
    assert bundled.warnings == []
    home = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02])
    assert pq.Checker(robot).check(home) == pq.Checker(bundled).check(home) == False  # noqa: E712


def test_limit_tolerance_clamps_small_excesses(panda_checker):
    upper = panda_checker.limits[0, 1]
    q = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02])
    at_limit = q.copy()
    at_limit[0] = upper
    near = q.copy()
    near[0] = upper + 5e-5
    # 5e-5 beyond: clamped onto the limit (the default tolerance is 1e-4), one row or many.
    assert panda_checker.distance(near) == panda_checker.distance(at_limit)
    assert np.array_equal(
        panda_checker.distance(np.stack([q, near])), panda_checker.distance(np.stack([q, at_limit]))
    )
    assert panda_checker.colliding_pair(near) == panda_checker.colliding_pair(at_limit)
    free, s = panda_checker.check_motions(near, q)
    free_at, s_at = panda_checker.check_motions(at_limit, q)
    assert free == free_at and (s == s_at or (np.isnan(s) and np.isnan(s_at)))
    # 2e-4 beyond: an error naming the row and the joint.
    far = q.copy()
    far[0] = upper + 2e-4
    with pytest.raises(ValueError, match="configuration 1: .*panda_joint1.*outside its limits"):
        panda_checker.check(np.stack([q, far]))
    with pytest.raises(ValueError, match="q0: .*panda_joint1"):
        panda_checker.check_motions(far, q)
    # A wider tolerance accepts it; none refuses 5e-5.
    assert panda_checker.check(far, limit_tolerance=1e-3) == panda_checker.check(at_limit)
    with pytest.raises(ValueError, match="panda_joint1"):
        panda_checker.check(near, limit_tolerance=0.0)
    with pytest.raises(ValueError, match="limit tolerance -1"):
        panda_checker.check(q, limit_tolerance=-1.0)


def test_packages_are_found_through_ros_package_path(tmp_path, monkeypatch):
    mesh = tmp_path / "ros" / "desc" / "meshes" / "link0.stl"
    mesh.parent.mkdir(parents=True)
    shutil.copy(PANDA / "meshes" / "collision" / "link0.stl", mesh)
    lone = tmp_path / "lone"
    lone.mkdir()
    urdf = lone / "r.urdf"
    urdf.write_text(
        '<robot name="r"><link name="base"><collision><geometry>'
        '<mesh filename="package://desc/meshes/link0.stl"/></geometry></collision></link></robot>'
    )
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    with pytest.raises(ValueError, match="unknown package `desc`"):
        pq.Robot.from_urdf(urdf)
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{tmp_path / 'empty'}:{tmp_path / 'ros'}")
    robot = pq.Robot.from_urdf(urdf)
    checker = pq.Checker(robot, pq.Scene())  # reads the mesh found
    assert checker.active_pairs == (0, 0) and robot.link_names == ["base"]
    # package_dirs come first: a folder given for `desc` without the file falls through.
    given = tmp_path / "given"
    given.mkdir()
    assert pq.Checker(pq.Robot.from_urdf(urdf, package_dirs={"desc": given})).dof == 0

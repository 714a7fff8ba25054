//! The MotionBenchMaker Panda the planning section plans on (`data/robots/mbm_panda`): the
//! robot, its allowed pairs, the shape cache, the problems by name, and a checker per problem
//! (built from one robot checker's shapes: no mesh is decomposed or mapped twice).
//!
//! Where it sits: a leaf of the planning section; [`crate::planning::run`] and [`crate::planning::ompl`] use it.

use polyquery::robot::{
    AllowedCollisions, Checker, CheckerOptions, MotionProblem, MotionRequest, MoveItScene,
    PackageDirs, Robot, Scene, ShapeCache, list_motion_problems,
};
use std::collections::BTreeMap;
use std::path::Path;

/// The loaded robot and its problems: `problems["box_panda/0001"]` = that problem's files.
pub struct Mbm {
    /// `robot` = the Panda of the problems (fingers fixed): `robot.dof() = 7`.
    pub robot: Robot,
    /// `cache = ShapeCache::in_dir(cache)`: decomposed meshes kept between runs.
    pub cache: ShapeCache,
    /// `problems[name]` = the files of problem `name = "<set>/NNNN"` under `problems/`.
    pub problems: BTreeMap<String, MotionProblem>,
    /// The robot's checker in an empty scene (with the SRDF's allowed pairs), whose shapes
    /// and allowed pairs every problem's checker reuses:
    /// `problem(n)?.0 = robot_checker.with_scene(scene of n)`.
    robot_checker: Checker,
}

impl Mbm {
    /// Loads the robot of `dir` (`panda.urdf`, `panda.srdf`, `meshes/` as the package
    /// `meshes`) and lists `dir/problems`, with the shape cache in `cache`:
    /// `load(d, c)?.problems.len()` = the problems under `d/problems`.
    pub fn load(dir: &Path, cache: &Path) -> Result<Mbm, String> {
        let mut packages = PackageDirs::new();
        packages.insert("meshes", dir.join("meshes"));
        let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &packages)
            .map_err(|e| format!("{}: {e}", dir.join("panda.urdf").display()))?;
        let allowed = AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot)
            .map_err(|e| format!("{}: {e}", dir.join("panda.srdf").display()))?;
        let problems = list_motion_problems(&dir.join("problems"))
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|p| (p.name.clone(), p))
            .collect();
        let cache = ShapeCache::in_dir(cache);
        let robot_checker = Checker::new(
            &robot,
            &Scene::new(),
            &allowed,
            &cache,
            CheckerOptions::default(),
        )
        .map_err(|e| format!("{}: {e}", dir.join("panda.urdf").display()))?;
        Ok(Mbm {
            robot,
            cache,
            problems,
            robot_checker,
        })
    }

    /// Problem `name`'s checker (its scene, decomposed meshes) and request:
    /// `problem(n)?.1.start.len() = robot.dof()`.
    pub fn problem(&self, name: &str) -> Result<(Checker, MotionRequest), String> {
        let p = self
            .problems
            .get(name)
            .ok_or_else(|| format!("no problem {name} in the MotionBenchMaker folder"))?;
        let scene =
            MoveItScene::from_yaml_file(&p.scene, &self.robot).map_err(|e| e.to_string())?;
        let request =
            MotionRequest::from_yaml_file(&p.request, &self.robot).map_err(|e| e.to_string())?;
        let checker = self
            .robot_checker
            .with_scene(&scene.scene, &self.cache)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok((checker, request))
    }
}

//! The UR5's inputs and how its answers are scored (`missed = #{exact colliding, ours free}`):
//! the non-convex UR5 of `data/robots/ur5/` on its table top, its configurations (all 2,000 of
//! `configs_2000.txt`, or a random subset), pinocchio + coal's exact-mesh verdicts
//! (`expected_2000.txt`: self or scene colliding), the verdicts compared, and a decomposed
//! checker's pieces per link.
//!
//! Where it sits: a leaf of the robot section (it reads [`super::plan`] and
//! [`super::section`]); the bench ([`super::bench`]) times the cells and fills
//! [`Ur5Section`](super::section::Ur5Section) from it.

use super::plan::{RobotPlan, UR5_CONFIGURATIONS, UR5_CONFIGURATIONS_FILE, UR5_SUBSET_SEED};
use super::section::LinkDecomposition;
use polyquery::robot::{AllowedCollisions, Checker, PackageDirs, Robot, Scene};
use rand::SeedableRng;
use std::path::Path;

/// What the UR5 cells run on: robot, allowed pairs, scene, configurations and their exact
/// verdicts (`exact[i]` = configuration `i` collides by the exact meshes).
pub struct Ur5Inputs {
    /// `robot = Robot::from_urdf_file(ur5/ur5.urdf)`: 6 joints, 8 links with geometry.
    pub robot: Robot,
    /// `allowed = AllowedCollisions::from_srdf_file(ur5/ur5.srdf)`: 15 active self pairs.
    pub allowed: AllowedCollisions,
    /// `scene = Scene::from_json_file(ur5/scene_tabletop.json)`: 7 obstacles.
    pub scene: Scene,
    /// The configurations checked: `configurations.len() = exact.len()`.
    pub configurations: Vec<Vec<f64>>,
    /// The exact meshes' verdicts: `exact[i] = self_collides[i] ∨ scene_collides[i]`.
    pub exact: Vec<bool>,
    /// `subset_seed = Some(UR5_SUBSET_SEED)` for a random subset (`None`: every
    /// configuration, in file order).
    pub subset_seed: Option<u64>,
}

/// The whitespace-separated fields of each non-empty line of `path`.
fn lines(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect())
}

/// The UR5's inputs as `plan` asks: `load(plan)?.configurations.len() =
/// min(plan.ur5_configurations, 2000)` (all 2,000 when `None`).
pub fn load(plan: &RobotPlan) -> Result<Ur5Inputs, String> {
    let dir = &plan.ur5;
    let robot = Robot::from_urdf_file(&dir.join("ur5.urdf"), &PackageDirs::new())
        .map_err(|e| format!("the UR5's URDF: {e}"))?;
    let allowed = AllowedCollisions::from_srdf_file(&dir.join("ur5.srdf"), &robot)
        .map_err(|e| format!("the UR5's SRDF: {e}"))?;
    let scene = Scene::from_json_file(&dir.join("scene_tabletop.json"))
        .map_err(|e| format!("the UR5's scene: {e}"))?;
    let number = |x: &String| {
        x.parse::<f64>()
            .map_err(|e| format!("the UR5's files: {x:?}: {e}"))
    };
    let configurations = lines(&dir.join(UR5_CONFIGURATIONS_FILE))?
        .iter()
        .map(|l| l.iter().map(number).collect::<Result<Vec<f64>, String>>())
        .collect::<Result<Vec<_>, String>>()?;
    let exact = lines(&dir.join("expected_2000.txt"))?
        .iter()
        .map(|l| match l.as_slice() {
            [own, scene, _] => Ok(own == "1" || scene == "1"),
            _ => Err(format!(
                "expected_2000.txt: {l:?} is not `self scene distance`"
            )),
        })
        .collect::<Result<Vec<bool>, String>>()?;
    if configurations.len() != exact.len() || configurations.len() != UR5_CONFIGURATIONS {
        return Err(format!(
            "the UR5's files: {} configurations and {} verdicts, not {UR5_CONFIGURATIONS}",
            configurations.len(),
            exact.len()
        ));
    }
    let (configurations, exact, subset_seed) = match plan.ur5_configurations {
        Some(n) if n < configurations.len() => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(UR5_SUBSET_SEED);
            let mut picked = rand::seq::index::sample(&mut rng, configurations.len(), n).into_vec();
            picked.sort_unstable();
            (
                picked.iter().map(|&i| configurations[i].clone()).collect(),
                picked.iter().map(|&i| exact[i]).collect(),
                Some(UR5_SUBSET_SEED),
            )
        }
        _ => (configurations, exact, None),
    };
    Ok(Ur5Inputs {
        robot,
        allowed,
        scene,
        configurations,
        exact,
        subset_seed,
    })
}

/// Verdicts against the exact meshes' (common prefix): `(colliding, missed, false_alarms)` with
/// `missed = #{exact ∧ ¬ours}`, `false_alarms = #{ours ∧ ¬exact}`.
///
/// ```
/// use polyquery_report::robot::ur5::against_exact;
///
/// assert_eq!(against_exact(&[true, true, false], &[true, false, true]), (2, 1, 1));
/// ```
pub fn against_exact(ours: &[bool], exact: &[bool]) -> (usize, usize, usize) {
    let count =
        |f: &dyn Fn(bool, bool) -> bool| ours.iter().zip(exact).filter(|&(&o, &e)| f(o, e)).count();
    (
        ours.iter().filter(|&&o| o).count(),
        count(&|o, e| e && !o),
        count(&|o, e| o && !e),
    )
}

/// Each decomposed mesh of `checker`'s links, in link order (empty with `MeshShape::Hull`):
/// `link_decompositions(c)[i].pieces = decomposition().pieces`.
pub fn link_decompositions(checker: &Checker) -> Vec<LinkDecomposition> {
    let mut out = Vec::new();
    for (l, link) in checker.robot().links().iter().enumerate() {
        for (shape, _) in checker.link_collision_shapes(l) {
            if let Some(d) = shape.decomposition() {
                out.push(LinkDecomposition {
                    link: link.name.clone(),
                    pieces: d.pieces,
                    deviation: d.deviation,
                    tolerance_met: d.tolerance_met,
                    hull_over_mesh: d.hull_volume / d.mesh_volume,
                    pieces_over_mesh: d.pieces_volume / d.mesh_volume,
                    seconds: d.seconds,
                });
            }
        }
    }
    out
}

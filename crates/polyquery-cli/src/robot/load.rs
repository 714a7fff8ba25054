//! Loading what a robot command works on: the URDF (with `--package-dir` folders and the
//! `ROS_PACKAGE_PATH` roots), the SRDF (its unknown names become warnings), the scene (JSON,
//! or MoveIt planning-scene YAML by its extension) and the collision shapes (through the
//! shape cache), into a [`Checker`].
//!
//! Where it sits: the first step of `robot check` and `robot info`, before any configuration
//! is read; every error names the file and the element, link or obstacle at fault.

use super::RobotCliError;
use polyquery::robot::{
    AllowedCollisions, Checker, CheckerOptions, DEFAULT_MESH_TOLERANCE, LimitCheck, LinkPadding,
    LoadWarning, MeshShape, MoveItScene, PackageDirs, Robot, RobotError, Scene, ShapeCache,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The files a robot command loads, and how: `load(&sources) → LoadedRobot` builds the checker from them.
#[derive(Clone, Debug, Default)]
pub struct RobotSources {
    /// `urdf` = the robot's URDF file.
    pub urdf: PathBuf,
    /// `srdf = Some(file)`: its `disable_collisions` pairs are never checked (`None`: every
    /// link pair is checked).
    pub srdf: Option<PathBuf>,
    /// `scene = Some(file)`: the obstacles (JSON, or MoveIt planning-scene YAML when the
    /// name ends in `.yaml` or `.yml`: [`read_scene`]; `None`: an empty scene).
    pub scene: Option<PathBuf>,
    /// `packages[k] = (NAME, DIR)`: `package://NAME/…` is looked for in `DIR` first.
    pub packages: Vec<(String, PathBuf)>,
    /// `ros_package_path = Some(value)`: the `ROS_PACKAGE_PATH` roots (`:`-separated),
    /// searched after `packages` and before the URDF's folder (`None`: no roots). The CLI
    /// passes the environment's value; the loader itself reads no environment variable.
    pub ros_package_path: Option<OsString>,
    /// `cache_dir = Some(dir)`: meshes' hulls are cached in `dir` (`None`: no cache).
    pub cache_dir: Option<PathBuf>,
    /// `limits = LimitCheck::Allow` checks configurations outside the joint limits too.
    pub limits: LimitCheck,
    /// How meshes become shapes: `mesh_shape = MeshShape::Decomposed` by default.
    pub mesh_shape: MeshShape,
    /// The decomposition's tolerance: `None` ⟹ [`DEFAULT_MESH_TOLERANCE`] (1 mm).
    pub mesh_tolerance: Option<f64>,
    /// Every link's padding in metres, as MoveIt's link padding (0 by default): a link
    /// closer than its padding to an obstacle, or than both paddings to another link,
    /// collides: `padding ≥ 0`, the checker gets `LinkPadding::uniform(padding)`.
    pub padding: f64,
}

/// A loaded robot in its scene: `checker = Checker::new(&robot, &scene, &allowed, &cache, …)`.
#[derive(Debug)]
pub struct LoadedRobot {
    /// `robot = Robot::from_urdf_file(urdf, packages)`.
    pub robot: Robot,
    /// `scene = read_scene(scene, &robot)?.0` (or `Scene::new()`).
    pub scene: Scene,
    /// What reading a MoveIt scene ignored, one sentence each (empty for JSON):
    /// `notes = read_scene(scene, &robot)?.1`.
    pub notes: Vec<String>,
    /// `allowed = AllowedCollisions::from_srdf_file(srdf, &robot)` (or `none(&robot)`).
    pub allowed: AllowedCollisions,
    /// `checker` = the robot, scene and matrix with every shape built.
    pub checker: Checker,
    /// `cache` = the shape cache used (its `stats()` say what it did).
    pub cache: ShapeCache,
    /// `load_seconds` = wall time to read the files and build every shape.
    pub load_seconds: f64,
}

impl LoadedRobot {
    /// What the load warns about (the SRDF's names the URDF lacks, one warning per name):
    /// `warnings() = allowed.warnings()`.
    ///
    /// ```
    /// use polyquery_cli::robot::{load, RobotSources};
    /// use std::path::Path;
    ///
    /// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
    /// let loaded = load(&RobotSources { urdf: panda.join("panda.urdf"), srdf: Some(panda.join("panda.srdf")), ..RobotSources::default() })?;
    /// assert!(loaded.warnings().is_empty());
    /// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
    /// ```
    pub fn warnings(&self) -> &[LoadWarning] {
        self.allowed.warnings()
    }

    /// A checker of the same robot, matrix, shape cache and options in another scene (the
    /// robot's built shapes are shared, only the obstacles go through the cache):
    /// `checker_in(s) = checker.with_scene(s, &cache)`, which answers as
    /// `Checker::new(&robot, s, &allowed, &cache, checker.options())`.
    ///
    /// ```
    /// use polyquery::robot::Scene;
    /// use polyquery_cli::robot::{load, RobotSources};
    /// use std::path::Path;
    ///
    /// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
    /// let loaded = load(&RobotSources { urdf: panda.join("panda.urdf"), ..RobotSources::default() })?;
    /// let mut scene = Scene::new();
    /// scene.add_sphere("ball", 0.1, polyquery::Pose::translation(2.0, 0.0, 0.0))?;
    /// assert_eq!(loaded.checker_in(&scene)?.obstacle_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn checker_in(&self, scene: &Scene) -> Result<Checker, RobotCliError> {
        Ok(self.checker.with_scene(scene, &self.cache)?)
    }
}

/// Reads a scene file for `robot`: MoveIt planning-scene YAML when its name ends in `.yaml` or
/// `.yml` ([`MoveItScene::from_yaml_file`], with its notes on what was ignored), else the JSON
/// scene format ([`Scene::from_json_file`], no notes): `read_scene(p, r)? = (scene, notes)`.
///
/// ```
/// use polyquery::robot::{PackageDirs, Robot};
/// use polyquery_cli::robot::read_scene;
///
/// let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="base"/></robot>"#, None, &PackageDirs::new())?;
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("scene.yml");
/// std::fs::write(&file, "world: {collision_objects: [{id: ball, primitives: [{type: sphere, dimensions: [0.5]}], \
///     primitive_poses: [{position: [0, 0, 1], orientation: [0, 0, 0, 1]}]}]}")?;
/// let (scene, _notes) = read_scene(&file, &robot)?;
/// assert_eq!(scene.obstacles()[0].name, "ball");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_scene(path: &Path, robot: &Robot) -> Result<(Scene, Vec<String>), RobotCliError> {
    let yaml = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    if yaml {
        let read = MoveItScene::from_yaml_file(path, robot)
            .map_err(|e| RobotCliError::moveit(e, "scene"))?;
        Ok((read.scene, read.notes))
    } else {
        let scene = Scene::from_json_file(path).map_err(|e| match e {
            RobotError::Read(source) => RobotCliError::Unreadable {
                what: "scene",
                source,
            },
            e => RobotCliError::from(e),
        })?;
        Ok((scene, Vec::new()))
    }
}

/// `NAME=DIR` of `--package-dir`: `parse_package_dir("pkg=/opt/pkg") = Ok(("pkg", "/opt/pkg"))`.
///
/// ```
/// use polyquery_cli::robot::parse_package_dir;
/// use std::path::PathBuf;
///
/// assert_eq!(parse_package_dir("franka=/opt/franka").unwrap(), ("franka".to_string(), PathBuf::from("/opt/franka")));
/// assert!(parse_package_dir("franka").is_err());
/// ```
pub fn parse_package_dir(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() && !name.contains('/') => {
            Ok((name.to_string(), PathBuf::from(dir)))
        }
        _ => Err(format!(
            "'{text}': expected NAME=DIR (a package name without '/', then its folder)"
        )),
    }
}

/// The default shape cache folder: `$XDG_CACHE_HOME/polyquery/shapes` when that variable is
/// an absolute path, else `$HOME/.cache/polyquery/shapes`, else `None` (no cache).
///
/// ```
/// use polyquery_cli::robot::default_cache_dir;
/// use std::path::PathBuf;
///
/// assert_eq!(default_cache_dir(Some("/xdg".into()), Some("/home/u".into())), Some(PathBuf::from("/xdg/polyquery/shapes")));
/// assert_eq!(default_cache_dir(Some("".into()), Some("/home/u".into())), Some(PathBuf::from("/home/u/.cache/polyquery/shapes")));
/// assert_eq!(default_cache_dir(None, None), None);
/// ```
pub fn default_cache_dir(
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    let xdg = xdg_cache_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = match xdg {
        Some(dir) => dir,
        None => {
            let home = home.map(PathBuf::from).filter(|p| p.is_absolute())?;
            home.join(".cache")
        }
    };
    Some(base.join("polyquery").join("shapes"))
}

/// Reads the URDF, SRDF and scene and builds the checker (every mesh hulled, or read from
/// the cache): `load(s)?.checker.robot().dof()` = the robot's configuration length.
///
/// ```
/// use polyquery_cli::robot::{load, RobotSources};
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")),
///     ..RobotSources::default()
/// })?;
/// assert_eq!((loaded.robot.dof(), loaded.checker.self_pairs().len()), (8, 20));
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn load(sources: &RobotSources) -> Result<LoadedRobot, RobotCliError> {
    let started = Instant::now();
    let mut packages = PackageDirs::new();
    for (name, dir) in &sources.packages {
        packages.insert(name.clone(), dir.clone());
    }
    if let Some(roots) = &sources.ros_package_path {
        packages.with_ros_package_path(roots);
    }
    let robot = Robot::from_urdf_file(&sources.urdf, &packages)
        .map_err(|e| in_file(&sources.urdf, e, false))?;
    let allowed = match &sources.srdf {
        Some(path) => {
            AllowedCollisions::from_srdf_file(path, &robot).map_err(|e| in_file(path, e, true))?
        }
        None => AllowedCollisions::none(&robot),
    };
    let (scene, notes) = match &sources.scene {
        Some(path) => read_scene(path, &robot)?,
        None => (Scene::new(), Vec::new()),
    };
    let cache = match &sources.cache_dir {
        Some(dir) => ShapeCache::in_dir(dir),
        None => ShapeCache::disabled(),
    };
    let options = CheckerOptions {
        limits: sources.limits,
        mesh_shape: sources.mesh_shape,
        mesh_tolerance: sources.mesh_tolerance.unwrap_or(DEFAULT_MESH_TOLERANCE),
        ..CheckerOptions::default()
    };
    let mut checker = Checker::new(&robot, &scene, &allowed, &cache, options)?;
    if sources.padding != 0.0 {
        checker.set_padding(&LinkPadding::uniform(sources.padding))?;
    }
    Ok(LoadedRobot {
        robot,
        scene,
        notes,
        allowed,
        checker,
        cache,
        load_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Prefixes an error about the URDF's or SRDF's content with the file (a read error already
/// names it; a shape or mesh error names the link and the mesh).
fn in_file(path: &Path, e: RobotError, srdf: bool) -> RobotCliError {
    match e {
        RobotError::Read(source) => RobotCliError::Unreadable {
            what: if srdf { "SRDF" } else { "URDF" },
            source,
        },
        RobotError::NotUtf8 { .. }
        | RobotError::Shape(_)
        | RobotError::UnknownPackage { .. }
        | RobotError::BadMeshUri { .. } => RobotCliError::from(e),
        e if srdf => RobotCliError::Srdf {
            path: path.to_path_buf(),
            source: Box::new(e),
        },
        e => RobotCliError::Urdf {
            path: path.to_path_buf(),
            source: Box::new(e),
        },
    }
}

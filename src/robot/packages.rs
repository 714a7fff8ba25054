//! `package://NAME/…` and other mesh URIs of a URDF resolved to files.
//!
//! Where it sits: called by the URDF reader (`urdf`) for every `<mesh filename>`, through one
//! [`MeshResolver`] per URDF (so a `ROS_PACKAGE_PATH` tree is crawled once). The folders it
//! searches come from [`PackageDirs`], which the caller fills: the library reads no
//! environment variable unless asked to, through [`PackageDirs::from_env`].
//!
//! `package://NAME/FILE` is looked for, in this order (the first place holding the file wins):
//!
//! 1. `DIR/FILE` for the folder `DIR` given for NAME ([`PackageDirs::insert`], the CLI's
//!    `--package-dir NAME=DIR`);
//! 2. for each `ROS_PACKAGE_PATH` root in order ([`PackageDirs::with_ros_package_path`]):
//!    `ROOT/NAME/FILE`, then `PKG/FILE` for every folder `PKG` below `ROOT` whose
//!    `package.xml` says `<name>NAME</name>` (as rospack finds packages: the crawl stops at a
//!    folder with a `package.xml`, skips hidden folders and those holding `CATKIN_IGNORE`
//!    or `COLCON_IGNORE`, and goes at most [`CRAWL_DEPTH`] folders deep);
//! 3. for the URDF's folder and each folder above it, nearest first: `ANCESTOR/NAME/FILE`,
//!    and `ANCESTOR/FILE` when `ANCESTOR`'s own name is NAME (a URDF in
//!    `…/ur_description/urdf/` finds `package://ur_description/meshes/x.stl` in
//!    `…/ur_description/meshes/`, and `package://meshes/x.stl` in a `meshes/` folder beside it).
//!
//! When no place holds the file, the first place that is a package's folder (a folder given
//! for NAME, an existing `ROOT/NAME` or `ANCESTOR/NAME`, a `package.xml` named NAME, or an
//! ancestor named NAME) gives the path, and reading the mesh then says it is missing; when
//! there is none, the error ([`RobotError::UnknownPackage`]) lists every place tried, in order.

use super::RobotError;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// How many folders deep the `package.xml` crawl of a `ROS_PACKAGE_PATH` root goes (the root
/// is depth 0): `CRAWL_DEPTH = 8`.
pub const CRAWL_DEPTH: usize = 8;

/// At most this many folders are read in one crawl of all the roots (a bound on the work a
/// huge root can cost): `CRAWL_FOLDERS = 100_000`.
const CRAWL_FOLDERS: usize = 100_000;

/// Where ROS packages are, for resolving `package://NAME/FILE` mesh URIs. The URDF reader
/// looks for FILE in the folder given for NAME ([`PackageDirs::insert`]), then in each
/// `ROS_PACKAGE_PATH` root ([`PackageDirs::with_ros_package_path`]: `ROOT/NAME`, then
/// folders below ROOT whose `package.xml` is named NAME), then beside and above the URDF
/// (`ANCESTOR/NAME`, or `ANCESTOR` itself when named NAME), nearest first; the first place
/// holding the file wins, and when none does the error lists them all, in order.
///
/// ```
/// use polyquery::robot::PackageDirs;
/// use std::path::{Path, PathBuf};
///
/// let mut packages = PackageDirs::new();
/// packages.insert("arm", "/opt/arm").insert("arm", "/srv/arm");
/// assert_eq!(packages.get("arm"), Some(Path::new("/srv/arm")));
/// assert_eq!(packages.get("hand"), None);
/// packages.with_ros_package_path("/ws/src::/opt/ros/share");
/// assert_eq!(packages.ros_roots(), [PathBuf::from("/ws/src"), PathBuf::from("/opt/ros/share")]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageDirs {
    dirs: BTreeMap<String, PathBuf>,
    ros_roots: Vec<PathBuf>,
}

impl PackageDirs {
    /// No package folders and no `ROS_PACKAGE_PATH` roots: `package://` URIs resolve only
    /// through the URDF's folder and its parents (see [`Robot::from_urdf_file`](super::Robot::from_urdf_file)).
    /// `PackageDirs::new().get(name) = None` for every `name`.
    pub fn new() -> Self {
        Self::default()
    }

    /// The folders of the environment's `ROS_PACKAGE_PATH` (none when it is unset): the one
    /// place the library reads the environment, and only when called.
    /// `from_env() = PackageDirs::new().with_ros_package_path($ROS_PACKAGE_PATH)`.
    ///
    /// ```
    /// use polyquery::robot::PackageDirs;
    ///
    /// let packages = PackageDirs::from_env();
    /// assert_eq!(packages.ros_roots().is_empty(), std::env::var_os("ROS_PACKAGE_PATH").is_none_or(|v| v.is_empty()));
    /// ```
    pub fn from_env() -> Self {
        let mut packages = Self::new();
        if let Some(value) = std::env::var_os("ROS_PACKAGE_PATH") {
            packages.with_ros_package_path(value);
        }
        packages
    }

    /// Sets the folder of package `name` (replacing an earlier one): afterwards
    /// `self.get(name) = Some(dir)`. Returns `self` for chaining.
    pub fn insert(&mut self, name: impl Into<String>, dir: impl Into<PathBuf>) -> &mut Self {
        self.dirs.insert(name.into(), dir.into());
        self
    }

    /// Appends the roots of a `ROS_PACKAGE_PATH` value (folders separated by `:`; empty
    /// entries skipped), searched after the folders given by name, in order:
    /// `ros_roots() = old roots ++ value.split(':').filter(non-empty)`. Returns `self`.
    pub fn with_ros_package_path(&mut self, value: impl AsRef<OsStr>) -> &mut Self {
        self.ros_roots
            .extend(std::env::split_paths(value.as_ref()).filter(|p| !p.as_os_str().is_empty()));
        self
    }

    /// The folder of package `name`, if given: `get(name) = Some(dir)` for the last
    /// `insert(name, dir)`, else `None`.
    pub fn get(&self, name: &str) -> Option<&Path> {
        self.dirs.get(name).map(PathBuf::as_path)
    }

    /// The `ROS_PACKAGE_PATH` roots, in search order: `ros_roots()[k]` = the `k`-th non-empty
    /// entry given to [`PackageDirs::with_ros_package_path`].
    pub fn ros_roots(&self) -> &[PathBuf] {
        &self.ros_roots
    }
}

/// One place `package://NAME/FILE` may be: the file's path, and whether its folder is known
/// to be package NAME's (then it is the answer when no place holds the file).
struct Place {
    file: PathBuf,
    package_folder: bool,
}

/// Resolves the mesh URIs of one URDF: the packages, the URDF's folder, and the
/// `package.xml` index of the `ROS_PACKAGE_PATH` roots, crawled at the first `package://` URI
/// that needs it and kept for the others.
pub(crate) struct MeshResolver<'a> {
    packages: &'a PackageDirs,
    base_dir: Option<&'a Path>,
    /// Per root (indexed like `packages.ros_roots()`), the packages found by `package.xml`:
    /// `(name, folder)` in crawl order.
    index: OnceCell<Vec<Vec<(String, PathBuf)>>>,
}

impl<'a> MeshResolver<'a> {
    /// A resolver for a URDF whose folder is `base_dir` (`None` for a URDF given as text).
    pub(crate) fn new(packages: &'a PackageDirs, base_dir: Option<&'a Path>) -> Self {
        MeshResolver {
            packages,
            base_dir,
            index: OnceCell::new(),
        }
    }

    /// Resolves a mesh URI of link `link`: `package://NAME/FILE` (see the module notes),
    /// `file:///abs`, an absolute path, or a path relative to the URDF's folder.
    pub(crate) fn resolve(&self, uri: &str, link: &str) -> Result<PathBuf, RobotError> {
        let bad = |problem: &str| RobotError::BadMeshUri {
            link: link.to_string(),
            uri: uri.to_string(),
            problem: problem.to_string(),
        };
        if let Some(rest) = uri.strip_prefix("package://") {
            let (package, file) = rest.split_once('/').unwrap_or((rest, ""));
            if package.is_empty() || file.is_empty() {
                return Err(bad("expected package://NAME/PATH"));
            }
            let places = self.places(package, file);
            if let Some(found) = places.iter().find(|p| p.file.is_file()) {
                return Ok(found.file.clone());
            }
            if let Some(known) = places.iter().find(|p| p.package_folder) {
                return Ok(known.file.clone());
            }
            return Err(RobotError::UnknownPackage {
                link: link.to_string(),
                uri: uri.to_string(),
                package: package.to_string(),
                tried: places.into_iter().map(|p| p.file).collect(),
            });
        }
        if let Some(rest) = uri.strip_prefix("file://") {
            return if rest.starts_with('/') {
                Ok(PathBuf::from(rest))
            } else {
                Err(bad("a file:// URI must hold an absolute path"))
            };
        }
        if uri.contains("://") {
            return Err(bad(
                "only package://, file:// and plain paths are supported",
            ));
        }
        if uri.is_empty() {
            return Err(bad("the file name is empty"));
        }
        let path = Path::new(uri);
        if path.is_absolute() {
            return Ok(path.to_path_buf());
        }
        match self.base_dir {
            Some(dir) => Ok(dir.join(path)),
            None => Err(bad(
                "a relative path needs the URDF's folder (read the URDF from a file)",
            )),
        }
    }

    /// Every place `package://package/file` may be, in search order (see the module notes).
    fn places(&self, package: &str, file: &str) -> Vec<Place> {
        let mut places = Vec::new();
        if let Some(dir) = self.packages.get(package) {
            places.push(Place {
                file: dir.join(file),
                package_folder: true,
            });
        }
        let roots = self.packages.ros_roots();
        let index = self.index.get_or_init(|| crawl(roots));
        for (root, found) in roots.iter().zip(index) {
            let dir = root.join(package);
            places.push(Place {
                file: dir.join(file),
                package_folder: dir.is_dir(),
            });
            for (_, folder) in found
                .iter()
                .filter(|(name, f)| name == package && *f != dir)
            {
                places.push(Place {
                    file: folder.join(file),
                    package_folder: true,
                });
            }
        }
        if let Some(absolute) = self.base_dir.and_then(|d| std::path::absolute(d).ok()) {
            for ancestor in absolute.ancestors() {
                let dir = ancestor.join(package);
                places.push(Place {
                    file: dir.join(file),
                    package_folder: dir.is_dir(),
                });
                if ancestor.file_name() == Some(OsStr::new(package)) {
                    places.push(Place {
                        file: ancestor.join(file),
                        package_folder: true,
                    });
                }
            }
        }
        places
    }
}

/// The packages below each root, found by their `package.xml` (see the module notes): per
/// root, `(name, folder)` in crawl order (folders sorted by name, depth first).
fn crawl(roots: &[PathBuf]) -> Vec<Vec<(String, PathBuf)>> {
    let mut budget = CRAWL_FOLDERS;
    roots
        .iter()
        .map(|root| {
            let mut found = Vec::new();
            crawl_folder(root, 0, &mut budget, &mut found);
            found
        })
        .collect()
}

/// Crawls `folder` (at `depth`) for packages into `found`, reading at most `budget` folders.
fn crawl_folder(
    folder: &Path,
    depth: usize,
    budget: &mut usize,
    found: &mut Vec<(String, PathBuf)>,
) {
    if *budget == 0 || depth > CRAWL_DEPTH {
        return;
    }
    *budget -= 1;
    if ["CATKIN_IGNORE", "COLCON_IGNORE"]
        .iter()
        .any(|f| folder.join(f).exists())
    {
        return;
    }
    let manifest = folder.join("package.xml");
    if manifest.is_file() {
        if let Some(name) = package_name(&manifest) {
            found.push((name, folder.to_path_buf()));
        }
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    children.sort();
    for child in children {
        crawl_folder(&child, depth + 1, budget, found);
    }
}

/// The `<name>` of a `package.xml` (`<package><name>NAME</name>…`), if it has one; files
/// over 1 MiB or not XML give `None`.
fn package_name(manifest: &Path) -> Option<String> {
    let limits = crate::read::ReadLimits {
        max_input_bytes: 1 << 20,
    };
    let bytes = crate::read::read_bounded(manifest, &limits).ok()?;
    let text = std::str::from_utf8(crate::read::strip_bom(&bytes)).ok()?;
    let doc = roxmltree::Document::parse(text).ok()?;
    let root = doc.root_element();
    if root.tag_name().name() != "package" {
        return None;
    }
    let name = root
        .children()
        .find(|c| c.is_element() && c.tag_name().name() == "name")?
        .text()?
        .trim();
    (!name.is_empty()).then(|| name.to_string())
}

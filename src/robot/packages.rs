//! `package://NAME/…` and other mesh URIs of a URDF resolved to files.
//!
//! Where it sits: called by the URDF reader (`urdf`) for every `<mesh filename>`; the
//! folders it searches come from [`PackageDirs`], which the caller fills (the library reads
//! no environment variable unless asked to, through [`PackageDirs::from_env`]).

use super::RobotError;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The folders of ROS packages, for resolving `package://NAME/…` mesh URIs: NAME → folder.
///
/// ```
/// use polyquery::robot::PackageDirs;
/// use std::path::Path;
///
/// let mut packages = PackageDirs::new();
/// packages.insert("arm", "/opt/arm").insert("arm", "/srv/arm");
/// assert_eq!(packages.get("arm"), Some(Path::new("/srv/arm")));
/// assert_eq!(packages.get("hand"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageDirs {
    dirs: BTreeMap<String, PathBuf>,
}

impl PackageDirs {
    /// No package folders: `package://` URIs resolve only through the URDF's own folder (see
    /// [`Robot::from_urdf_file`]). `PackageDirs::new().get(name) = None` for every `name`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the folder of package `name` (replacing an earlier one): afterwards
    /// `self.get(name) = Some(dir)`. Returns `self` for chaining.
    pub fn insert(&mut self, name: impl Into<String>, dir: impl Into<PathBuf>) -> &mut Self {
        self.dirs.insert(name.into(), dir.into());
        self
    }

    /// The folder of package `name`, if given: `get(name) = Some(dir)` for the last
    /// `insert(name, dir)`, else `None`.
    pub fn get(&self, name: &str) -> Option<&Path> {
        self.dirs.get(name).map(PathBuf::as_path)
    }
}

/// Resolves a mesh URI: `package://NAME/rest`, `file:///abs`, an absolute path, or a path
/// relative to `base_dir`.
pub(crate) fn resolve_uri(
    uri: &str,
    link: &str,
    base_dir: Option<&Path>,
    packages: &PackageDirs,
) -> Result<PathBuf, RobotError> {
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
        let dir = packages
            .get(package)
            .map(Path::to_path_buf)
            .or_else(|| package_by_folder_name(package, base_dir))
            .ok_or_else(|| RobotError::UnknownPackage {
                link: link.to_string(),
                uri: uri.to_string(),
                package: package.to_string(),
            })?;
        return Ok(dir.join(file));
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
    match base_dir {
        Some(dir) => Ok(dir.join(path)),
        None => Err(bad(
            "a relative path needs the URDF's folder (read the URDF from a file)",
        )),
    }
}

/// The URDF's folder or the nearest folder above it whose name is `package`.
fn package_by_folder_name(package: &str, base_dir: Option<&Path>) -> Option<PathBuf> {
    let dir = base_dir?;
    let absolute = std::path::absolute(dir).ok()?;
    let mut found = None;
    let mut prefix = PathBuf::new();
    for c in absolute.components() {
        prefix.push(c);
        if let Component::Normal(name) = c
            && name == package
        {
            found = Some(prefix.clone());
        }
    }
    found
}

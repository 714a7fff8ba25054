//! The MotionBenchMaker folder layout: problem sets as folders of `sceneNNNN.yaml` (a
//! planning scene) and `requestNNNN.yaml` (a motion request), listed in a fixed order. A
//! leaf of `robot::moveit`: it names files, it does not read them.

use super::error::MoveItError;
use std::path::{Path, PathBuf};

/// One problem: its name `"<set>/NNNN"` and its two files.
///
/// ```
/// use polyquery::robot::MotionProblem;
/// use std::path::PathBuf;
///
/// let p = MotionProblem {
///     name: "box_panda/0001".to_string(),
///     scene: PathBuf::from("box_panda/scene0001.yaml"),
///     request: PathBuf::from("box_panda/request0001.yaml"),
/// };
/// assert_eq!(p.set(), "box_panda");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MotionProblem {
    /// `"<set>/NNNN"`: the set's folder name and the files' number, e.g.
    /// `name = "bookshelf_small_panda/0001"`.
    pub name: String,
    /// The planning scene: `scene = <set folder>/sceneNNNN.yaml`.
    pub scene: PathBuf,
    /// The motion request: `request = <set folder>/requestNNNN.yaml`.
    pub request: PathBuf,
}

impl MotionProblem {
    /// The set the problem belongs to: `set() = name` up to its last `/`.
    pub fn set(&self) -> &str {
        self.name.rsplit_once('/').map_or("", |(set, _)| set)
    }
}

/// Lists the problems under `dir`: every `sceneNNNN.yaml` with its `requestNNNN.yaml` in
/// `dir` itself (the set is then `dir`'s name) and in each folder directly below it (one set
/// each), sorted by set, then number: `name = "<set>/NNNN"`. A scene without its request, or
/// a request without its scene, is an error naming it; no problem at all is an error too.
///
/// ```
/// use polyquery::robot::list_motion_problems;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir(dir.path().join("box"))?;
/// for f in ["scene0002.yaml", "request0002.yaml", "scene0001.yaml", "request0001.yaml"] {
///     std::fs::write(dir.path().join("box").join(f), "{}")?;
/// }
/// let names: Vec<String> = list_motion_problems(dir.path())?.into_iter().map(|p| p.name).collect();
/// assert_eq!(names, ["box/0001", "box/0002"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn list_motion_problems(dir: &Path) -> Result<Vec<MotionProblem>, MoveItError> {
    let mut problems = set_problems(dir)?;
    for sub in sorted_entries(dir)? {
        if sub.is_dir() {
            problems.extend(set_problems(&sub)?);
        }
    }
    if problems.is_empty() {
        return Err(MoveItError::Problems {
            dir: dir.to_path_buf(),
            problem: "no sceneNNNN.yaml + requestNNNN.yaml here or in the folders below"
                .to_string(),
        });
    }
    problems.sort_by(|a, b| (a.set(), &a.name).cmp(&(b.set(), &b.name)));
    Ok(problems)
}

/// The entries of `dir`, sorted by path.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, MoveItError> {
    let fail = |e: std::io::Error| MoveItError::Problems {
        dir: dir.to_path_buf(),
        problem: format!("cannot list the folder: {e}"),
    };
    let mut entries = std::fs::read_dir(dir)
        .map_err(fail)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    entries.sort();
    Ok(entries)
}

/// The number `NNNN` of a file named `{prefix}NNNN.yaml` (one or more ASCII digits).
fn numbered<'a>(file: &'a str, prefix: &str) -> Option<&'a str> {
    let digits = file.strip_prefix(prefix)?.strip_suffix(".yaml")?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The problems of one set folder (none when it holds no numbered scene or request).
fn set_problems(dir: &Path) -> Result<Vec<MotionProblem>, MoveItError> {
    let set = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let files: Vec<String> = sorted_entries(dir)?
        .iter()
        .filter(|p| p.is_file())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let has = |name: &str| files.iter().any(|f| f == name);
    let mut problems = Vec::new();
    for file in &files {
        if let Some(n) = numbered(file, "request")
            && !has(&format!("scene{n}.yaml"))
        {
            return Err(MoveItError::Problems {
                dir: dir.to_path_buf(),
                problem: format!("{file} has no scene{n}.yaml"),
            });
        }
        let Some(n) = numbered(file, "scene") else {
            continue;
        };
        let request = format!("request{n}.yaml");
        if !has(&request) {
            return Err(MoveItError::Problems {
                dir: dir.to_path_buf(),
                problem: format!("{file} has no {request}"),
            });
        }
        problems.push(MotionProblem {
            name: format!("{set}/{n}"),
            scene: dir.join(file),
            request: dir.join(request),
        });
    }
    Ok(problems)
}

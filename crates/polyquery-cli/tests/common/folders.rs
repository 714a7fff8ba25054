//! Folders for the output tests: what a folder holds, read without following links, and a
//! file for links to lead to. Shared by the command line's integration tests
//! (`crate::common::folders`) and the unit tests of `src/atomic_file.rs` (included there by
//! path): one file, not a copy.

use std::fs::FileType;
use std::path::{Path, PathBuf};

/// The names of the entries of `dir`, sorted.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The type of the entry at `path` itself, a link not followed (`symlink_metadata`).
pub fn entry_type(path: &Path) -> FileType {
    std::fs::symlink_metadata(path).unwrap().file_type()
}

/// Makes the folder `dir/real` and in it `name` holding `old` with mode 0600 (a mode that
/// writing through a link must keep); returns the file's path.
#[cfg(unix)]
pub fn private_old_file(dir: &Path, name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let real = dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let target = real.join(name);
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    target
}

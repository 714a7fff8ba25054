//! Writing output files atomically: all or nothing.
//!
//! Where it sits: the last step of every command that writes a file (`hull --out`, `gen`).
//! The content goes to a temporary file in the destination's folder (same file system), which
//! is flushed, synced and renamed over `path` only when the writer succeeded. On any error
//! the temporary file is removed and `path` is untouched: either absent, or its old content.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes `path` through `write`, atomically (a temporary file in the same folder, renamed
/// into place only when `write` succeeds).
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if path.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{}' does not name a file", path.display()),
        ));
    }
    // Dropping `temp` on any early return deletes the temporary file.
    let temp = tempfile::Builder::new()
        .prefix(".polyquery-")
        .suffix(".tmp")
        .tempfile_in(folder)?;
    {
        let mut out = BufWriter::new(temp.as_file());
        write(&mut out)?;
        out.flush()?;
    }
    // The temporary file is created owner-only (0600); an output file is an ordinary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files in `dir`, by name.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn output_is_world_readable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |w| w.write_all(b"x")).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    #[test]
    fn writes_the_whole_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |w| w.write_all(b"hello\nworld\n")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello\nworld\n");
        assert_eq!(listing(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn replaces_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(listing(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn a_failing_writer_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let err = write_atomically(&path, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("the writer failed"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "the writer failed");
        assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
    }

    #[test]
    fn a_failing_writer_leaves_a_pre_existing_file_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "precious").unwrap();
        let result = write_atomically(&path, |w| {
            // More than the BufWriter's buffer, so some of it reaches the temporary file.
            w.write_all(&vec![b'x'; 100_000])?;
            Err(io::Error::other("the writer failed"))
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
        assert_eq!(listing(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn a_missing_folder_is_an_error_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no_such_folder").join("out.txt");
        assert!(write_atomically(&path, |w| w.write_all(b"x")).is_err());
        assert!(listing(dir.path()).is_empty());
    }

    #[test]
    fn a_folder_as_destination_is_an_error_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("sub");
        std::fs::create_dir(&folder).unwrap();
        assert!(write_atomically(&folder, |w| w.write_all(b"x")).is_err());
        assert_eq!(listing(dir.path()), vec!["sub"]);
        assert!(listing(&folder).is_empty());
    }
}

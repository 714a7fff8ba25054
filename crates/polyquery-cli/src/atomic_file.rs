//! Writing output files atomically: all or nothing, and only where a regular file belongs (after `write_atomically(path, f)`, `file = f's bytes` on success, `file = old file` on error).
//!
//! Where it sits: the last step of every command that writes a file (`hull --out`, `gen`,
//! `batch --out`, `robot check --out`, `robot motion --out`, `preprocess`, `report`). The
//! path `-` is standard output ([`is_stdout`]), written as it comes. The destination is
//! checked first ([`check_target`]): a character device (`/dev/null`, a terminal) is written
//! directly, as it is (nothing to replace, so no temporary file); a directory, FIFO, socket
//! or block device is refused (a [`RefusedTarget`] error, kind
//! [`io::ErrorKind::InvalidInput`]), and a symbolic link is followed to the file it names,
//! which is the file replaced (the link stays a link). The content goes to a temporary file in the folder of that file (same file
//! system), which is flushed, given the old file's permission bits (and owner, where the
//! process may set it; 0644 for a new file), synced and renamed over it only when the writer
//! succeeded. On any error the temporary file is removed and the destination is untouched:
//! either absent, or its old content.

use std::fs::{FileType, Metadata};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Whether `path` is `-`, which every `--out` takes as standard output:
/// `is_stdout(p) ⟺ p = "-"`.
///
/// ```
/// use polyquery_cli::atomic_file::is_stdout;
/// use std::path::Path;
///
/// assert!(is_stdout(Path::new("-")) && !is_stdout(Path::new("./-")));
/// ```
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// What a destination path names, as far as writing a file there goes: `TargetKind::of(&metadata(path)?.file_type())`, or `Missing`.
///
/// ```
/// use polyquery_cli::atomic_file::TargetKind;
///
/// let kind = TargetKind::of(&std::fs::metadata(env!("CARGO_MANIFEST_DIR")).unwrap().file_type());
/// assert_eq!(kind, TargetKind::Directory);
/// assert!(!kind.is_writable_target() && TargetKind::Missing.is_writable_target());
/// assert!(TargetKind::CharDevice.is_writable_target() && !TargetKind::Fifo.is_writable_target());
/// assert_eq!(kind.describe(), "a directory");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// Nothing yet: the file will be created (`is_writable_target() = true`).
    Missing,
    /// A regular file (possibly through symbolic links): it will be replaced (`is_writable_target() = true`).
    RegularFile,
    /// A directory: `file_type.is_dir() = true`.
    Directory,
    /// A named pipe: `file_type.is_fifo() = true`.
    Fifo,
    /// A Unix-domain socket: `file_type.is_socket() = true`.
    Socket,
    /// A character device node (`/dev/null`, a terminal), written directly:
    /// `file_type.is_char_device() = true`.
    CharDevice,
    /// A block device node: `file_type.is_block_device() = true`.
    BlockDevice,
    /// A symbolic link that leads nowhere (or in a loop): `symlink_metadata(p).is_ok() && metadata(p).is_err()` ⟹ `DanglingLink`.
    DanglingLink,
    /// Anything else the platform has: `is_writable_target() = false`.
    Other,
}

impl TargetKind {
    /// The kind of a file of type `file_type` (as `std::fs::metadata` reports it, links
    /// followed): `of(&metadata(p)?.file_type())`; `is_file() ⟹ RegularFile`, `is_dir() ⟹ Directory`.
    pub fn of(file_type: &FileType) -> TargetKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return TargetKind::Fifo;
            }
            if file_type.is_socket() {
                return TargetKind::Socket;
            }
            if file_type.is_char_device() {
                return TargetKind::CharDevice;
            }
            if file_type.is_block_device() {
                return TargetKind::BlockDevice;
            }
        }
        if file_type.is_file() {
            TargetKind::RegularFile
        } else if file_type.is_dir() {
            TargetKind::Directory
        } else {
            TargetKind::Other
        }
    }

    /// Whether an output file may be written there:
    /// `is_writable_target() = matches!(self, Missing | RegularFile | CharDevice)`.
    pub fn is_writable_target(self) -> bool {
        matches!(
            self,
            TargetKind::Missing | TargetKind::RegularFile | TargetKind::CharDevice
        )
    }

    /// A short description, for messages (`a FIFO`, `a directory` …): `Directory.describe() = "a directory"`.
    pub fn describe(self) -> &'static str {
        match self {
            TargetKind::Missing => "missing",
            TargetKind::RegularFile => "a regular file",
            TargetKind::Directory => "a directory",
            TargetKind::Fifo => "a FIFO (named pipe)",
            TargetKind::Socket => "a socket",
            TargetKind::CharDevice => "a character device",
            TargetKind::BlockDevice => "a block device",
            TargetKind::DanglingLink => "a symbolic link to nothing",
            TargetKind::Other => "not a regular file",
        }
    }
}

/// A destination that is not a regular file (nor missing): the error inside the
/// [`io::Error`] (kind [`io::ErrorKind::InvalidInput`]) that [`write_atomically`] and
/// [`check_target`] return for it: `io_error.kind() = InvalidInput`.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} is {}: output is written only to a regular file (or a symbolic link to one), a character device such as /dev/null, or - (standard output), never replacing anything else",
    path.display(),
    kind.describe()
)]
pub struct RefusedTarget {
    /// `path` = the path given.
    pub path: PathBuf,
    /// `kind` = what it names (`kind.is_writable_target() = false`).
    pub kind: TargetKind,
}

/// Whether `e` is a [`RefusedTarget`] refusal (a bad destination, not a failed write): `e.get_ref()` downcasts to `RefusedTarget` ⟺ `true`.
pub fn is_refused_target(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<RefusedTarget>())
}

/// The file a write to `path` replaces (`path`, or the regular file its symbolic links lead
/// to) with its metadata (`None`: it does not exist yet).
fn resolve(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    if path.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{}' does not name a file", path.display()),
        ));
    }
    let refuse = |kind| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            RefusedTarget {
                path: path.to_path_buf(),
                kind,
            },
        )
    };
    let link = match std::fs::symlink_metadata(path) {
        Ok(m) => m.file_type().is_symlink(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((path.to_path_buf(), None)),
        Err(e) => return Err(e),
    };
    let metadata = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if link && e.kind() == io::ErrorKind::NotFound => {
            return Err(refuse(TargetKind::DanglingLink));
        }
        Err(e) => return Err(e),
    };
    let kind = TargetKind::of(&metadata.file_type());
    if !kind.is_writable_target() {
        return Err(refuse(kind));
    }
    let target = if link {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    Ok((target, Some(metadata)))
}

/// Checks that an output file may be written at `path` (`-`, missing, a regular file, a
/// character device, or a symbolic link to one), without writing anything: the error
/// [`write_atomically`] would give, found before any work is done:
/// `check_target(p).is_ok() ⟺ p = "-" or kind of p ∈ {Missing, RegularFile, CharDevice}`.
pub fn check_target(path: &Path) -> io::Result<()> {
    if is_stdout(path) {
        return Ok(());
    }
    resolve(path).map(|_| ())
}

/// Writes `path` through `write`, atomically (a temporary file in the same folder as the
/// file replaced, renamed into place only when `write` succeeds). A symbolic link is written
/// through; an existing file keeps its permission bits (and owner where allowed); `-` is
/// standard output and a character device (`/dev/null`) is written directly, as `write`
/// goes (a closed standard output, e.g. piped into `head`, is not an error); anything else
/// but a regular file is refused (see the module notes): afterwards `file = write's bytes`,
/// or unchanged on error.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    if is_stdout(path) {
        let mut out = BufWriter::new(io::stdout().lock());
        return match write(&mut out).and_then(|()| out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        };
    }
    let (target, existing) = resolve(path)?;
    if existing
        .as_ref()
        .is_some_and(|m| TargetKind::of(&m.file_type()) == TargetKind::CharDevice)
    {
        let device = std::fs::OpenOptions::new().write(true).open(&target)?;
        let mut out = BufWriter::new(device);
        write(&mut out)?;
        return out.flush();
    }
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // Named here, or the error would name the temporary file that could not be created.
    if !folder.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "its folder '{}' does not exist (create it first)",
                folder.display()
            ),
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
    // The temporary file is created owner-only (0600): give it the replaced file's mode,
    // or an ordinary file's for a new one.
    match &existing {
        Some(old) => {
            temp.as_file().set_permissions(old.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                // Only root may give a file away; a group change may also be refused. The
                // content is still written (the owner becomes this user).
                let _ = std::os::unix::fs::fchown(temp.as_file(), Some(old.uid()), Some(old.gid()));
                // Ownership changes may clear set-id bits: set the mode again.
                let _ = temp.as_file().set_permissions(old.permissions());
            }
        }
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                temp.as_file()
                    .set_permissions(std::fs::Permissions::from_mode(0o644))?;
            }
        }
    }
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|e| e.error)?;
    Ok(())
}

/// The tests' `files_in(dir)` (the entries of `dir`, by name) and `entry_type(path)` (a link
/// not followed): one file with the integration tests' helpers.
#[cfg(test)]
#[path = "../tests/common/folders.rs"]
mod test_folders;

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_folders::{entry_type, files_in, private_old_file};

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
    fn a_missing_folder_is_named_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nodir").join("x.jsonl");
        // Checked before the work, the folder may still be made (a command that writes
        // several files creates their folder); at write time it must exist.
        assert!(check_target(&path).is_ok());
        let err = write_atomically(&path, |w| w.write_all(b"x")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let text = err.to_string();
        assert!(
            text.starts_with("its folder '")
                && text.ends_with("nodir' does not exist (create it first)"),
            "{text}"
        );
        assert!(!text.contains(".polyquery-"), "{text}");
        assert!(files_in(dir.path()).is_empty());
    }

    #[test]
    fn writes_the_whole_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |w| w.write_all(b"hello\nworld\n")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello\nworld\n");
        assert_eq!(files_in(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn replaces_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(files_in(dir.path()), vec!["out.txt"]);
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
        assert!(
            files_in(dir.path()).is_empty(),
            "{:?}",
            files_in(dir.path())
        );
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
        assert_eq!(files_in(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn a_missing_folder_is_an_error_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no_such_folder").join("out.txt");
        assert!(write_atomically(&path, |w| w.write_all(b"x")).is_err());
        assert!(files_in(dir.path()).is_empty());
    }

    #[test]
    fn a_folder_as_destination_is_an_error_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("sub");
        std::fs::create_dir(&folder).unwrap();
        assert!(write_atomically(&folder, |w| w.write_all(b"x")).is_err());
        assert_eq!(files_in(dir.path()), vec!["sub"]);
        assert!(files_in(&folder).is_empty());
    }

    #[cfg(unix)]
    fn refused_as(path: &Path, kind: TargetKind) {
        let err = write_atomically(path, |w| w.write_all(b"x")).unwrap_err();
        assert!(is_refused_target(&err), "{err}");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        let inner = err
            .get_ref()
            .unwrap()
            .downcast_ref::<RefusedTarget>()
            .unwrap();
        assert_eq!(inner.kind, kind);
        let msg = err.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains(kind.describe()), "{msg}");
        assert!(check_target(path).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_and_stays_a_fifo() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo on this system
        }
        refused_as(&fifo, TargetKind::Fifo);
        assert!(entry_type(&fifo).is_fifo());
        assert_eq!(files_in(dir.path()), vec!["pipe"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        refused_as(&path, TargetKind::Socket);
        assert_eq!(files_in(dir.path()), vec!["sock"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_character_device_is_written_directly_and_a_block_device_refused() {
        // /dev/null is written as it is (issue 20): no temporary file, no rename over it.
        check_target(Path::new("/dev/null")).unwrap();
        write_atomically(Path::new("/dev/null"), |w| w.write_all(b"discarded")).unwrap();
        // The classification itself, for every device kind the platform reports.
        let kind = TargetKind::of(&std::fs::metadata("/dev/null").unwrap().file_type());
        assert_eq!(kind, TargetKind::CharDevice);
        assert!(!TargetKind::BlockDevice.is_writable_target());
        assert!(TargetKind::CharDevice.is_writable_target());
    }

    #[test]
    fn a_dash_is_standard_output() {
        check_target(Path::new("-")).unwrap();
        assert!(is_stdout(Path::new("-")));
        assert!(!is_stdout(Path::new("-.txt")));
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("sub");
        std::fs::create_dir(&folder).unwrap();
        refused_as(&folder, TargetKind::Directory);
        // A link to the folder too.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&folder, &link).unwrap();
        refused_as(&link, TargetKind::Directory);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
        refused_as(&link, TargetKind::DanglingLink);
        assert_eq!(files_in(dir.path()), vec!["link"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_stays_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = private_old_file(dir.path(), "data.txt");
        let real_dir = dir.path().join("real");
        // A chain of two links, the first relative.
        let middle = dir.path().join("middle");
        std::os::unix::fs::symlink(&target, &middle).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("middle", &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        for l in [&link, &middle] {
            assert!(entry_type(l).is_symlink());
        }
        assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("middle"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o600);
        // The temporary file was made beside the target and is gone.
        assert_eq!(files_in(&real_dir), vec!["data.txt"]);
        assert_eq!(files_in(dir.path()), vec!["link", "middle", "real"]);
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        for mode in [0o600, 0o640, 0o755, 0o604, 0o444] {
            std::fs::write(&path, "old").unwrap_or_else(|_| {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
                std::fs::write(&path, "old").unwrap();
            });
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            write_atomically(&path, |w| w.write_all(b"new")).unwrap();
            let got = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            assert_eq!(got, mode, "mode {mode:o}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        }
    }
}

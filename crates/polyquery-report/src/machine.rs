//! The machine a report ran on (`cores = available_parallelism()`, CPU, memory, OS), the git commit (and whether the
//! working tree had uncommitted changes) and the date, read from `/proc`, `/etc/os-release`,
//! `uname` and `git`; anything unreadable is "unknown".
//!
//! Where it sits: read once by [`crate::run::measure`] and printed at the top of every output file.

use serde::Serialize;
use std::path::Path;
use std::process::Command;

/// Where and when a report was made: `Report::machine = MachineInfo::detect()` at the start.
#[derive(Clone, Debug, Serialize)]
pub struct MachineInfo {
    /// `cpu` = the CPU model name (`/proc/cpuinfo`).
    pub cpu: String,
    /// `cores = std::thread::available_parallelism()`: the logical CPUs available to this process.
    pub cores: usize,
    /// `memory` = total memory in GiB (`/proc/meminfo`), "unknown" if unreadable.
    pub memory: String,
    /// `os` = the operating system (`/etc/os-release` PRETTY_NAME) and kernel (`uname -srm`).
    pub os: String,
    /// `git_commit = git rev-parse HEAD`, or "unknown".
    pub git_commit: String,
    /// Whether the working tree differed from that commit (`git status --porcelain` printed
    /// anything, untracked files included); `None` (JSON `null`) when git could not tell: `git_dirty = Some(porcelain output ≠ "")`.
    pub git_dirty: Option<bool>,
    /// `date = utc_date_time(start)`: the UTC date and time the report started (`YYYY-MM-DD HH:MM:SS UTC`).
    pub date: String,
    /// `polyquery_version = CARGO_PKG_VERSION` of the library.
    pub polyquery_version: String,
    /// `peer = peers::description()`: the peer library and its version, or why there is none.
    pub peer: String,
}

impl MachineInfo {
    /// Reads everything now: `detect().date = utc_date_time(now)`.
    pub fn detect() -> MachineInfo {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let memory = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|kb| kb.parse::<f64>().ok())
            })
            .map(|kb| format!("{:.1} GiB", kb / (1024.0 * 1024.0)))
            .unwrap_or_else(|| "unknown".into());
        let pretty = std::fs::read_to_string("/etc/os-release")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("PRETTY_NAME="))
                    .map(|l| l["PRETTY_NAME=".len()..].trim_matches('"').to_string())
            })
            .unwrap_or_else(|| std::env::consts::OS.to_string());
        let kernel = command_output(Command::new("uname").arg("-srm"))
            .unwrap_or_else(|| "unknown kernel".into());
        let (git_commit, git_dirty) = git_state(Path::new("."));
        MachineInfo {
            cpu,
            cores,
            memory,
            os: format!("{pretty} ({kernel})"),
            git_commit,
            git_dirty,
            date: utc_date_time(std::time::SystemTime::now()),
            polyquery_version: env!("CARGO_PKG_VERSION").to_string(),
            peer: crate::peers::description(),
        }
    }

    /// The commit as the human-readable outputs show it: the hash, then ` (modified)` when
    /// the working tree had uncommitted changes (or a note when git could not tell): `commit_label() = git_commit + " (modified)"` when dirty.
    pub fn commit_label(&self) -> String {
        match self.git_dirty {
            Some(true) => format!("{} (modified)", self.git_commit),
            Some(false) => self.git_commit.clone(),
            None if self.git_commit == "unknown" => self.git_commit.clone(),
            None => format!("{} (uncommitted changes unknown)", self.git_commit),
        }
    }
}

/// The commit checked out in `dir` (`git rev-parse HEAD`, else "unknown") and whether its
/// working tree has uncommitted changes (`git status --porcelain` prints anything; `None`
/// when git is missing or `dir` is not in a repository).
fn git_state(dir: &Path) -> (String, Option<bool>) {
    let git = |args: &[&str]| {
        let mut command = Command::new("git");
        command.current_dir(dir).args(args);
        command
    };
    let commit = command_output(&mut git(&["rev-parse", "HEAD"]));
    let changes = command_stdout(&mut git(&["status", "--porcelain"]));
    (
        commit.unwrap_or_else(|| "unknown".into()),
        changes.map(|c| !c.trim().is_empty()),
    )
}

/// The stdout of a command that succeeded (possibly empty), else `None`.
fn command_stdout(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout).ok()
}

/// The trimmed stdout of a command that succeeded, `None` when it failed or printed nothing.
fn command_output(command: &mut Command) -> Option<String> {
    let text = command_stdout(command)?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// `YYYY-MM-DD hh:mm:ss UTC` of a point in time (RFC 3339 with a space and "UTC").
///
/// ```
/// use polyquery_report::machine::utc_date_time;
/// use std::time::{Duration, UNIX_EPOCH};
///
/// assert_eq!(utc_date_time(UNIX_EPOCH + Duration::from_secs(86_400 + 61)), "1970-01-02 00:01:01 UTC");
/// ```
pub fn utc_date_time(t: std::time::SystemTime) -> String {
    let rfc = humantime::format_rfc3339_seconds(t).to_string();
    format!("{} UTC", rfc.trim_end_matches('Z').replacen('T', " ", 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(commit: &str, dirty: Option<bool>) -> MachineInfo {
        MachineInfo {
            git_commit: commit.into(),
            git_dirty: dirty,
            ..MachineInfo::detect()
        }
    }

    #[test]
    fn the_commit_label_says_when_the_tree_was_modified() {
        let hash = "a7237e4240d5a33fcea92a8a7a8abe5b13f092ef";
        assert_eq!(machine(hash, Some(false)).commit_label(), hash);
        assert_eq!(
            machine(hash, Some(true)).commit_label(),
            format!("{hash} (modified)")
        );
        assert_eq!(
            machine(hash, None).commit_label(),
            format!("{hash} (uncommitted changes unknown)")
        );
        assert_eq!(machine("unknown", None).commit_label(), "unknown");
    }

    /// A fresh repository: clean after its first commit, modified after an edit, and
    /// "unknown" / `None` outside any repository.
    #[test]
    fn git_state_sees_uncommitted_changes() {
        let outside = tempfile::tempdir().expect("temporary folder");
        assert_eq!(git_state(outside.path()), ("unknown".to_string(), None));

        let repo = tempfile::tempdir().expect("temporary folder");
        let dir = repo.path();
        let git = |args: &[&str]| {
            let out = Command::new("git").current_dir(dir).args(args).output();
            assert!(out.is_ok_and(|o| o.status.success()), "git {args:?} failed");
        };
        git(&["init", "-q"]);
        std::fs::write(dir.join("a.txt"), "one").expect("write a.txt");
        git(&["add", "a.txt"]);
        git(&[
            "-c",
            "user.name=polyquery test",
            "-c",
            "user.email=test@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "one",
        ]);
        let (commit, dirty) = git_state(dir);
        assert_eq!(commit.len(), 40, "a full hash, not {commit:?}");
        assert_eq!(dirty, Some(false), "just committed");

        std::fs::write(dir.join("a.txt"), "two").expect("edit a.txt");
        assert_eq!(git_state(dir), (commit.clone(), Some(true)), "edited");
        git(&["checkout", "-q", "--", "a.txt"]);
        std::fs::write(dir.join("new.txt"), "untracked").expect("write new.txt");
        assert_eq!(git_state(dir), (commit, Some(true)), "untracked file");
    }
}

/// The machine's load around one section of the report: the 1-minute load average
/// (`/proc/loadavg`'s first field: runnable and waiting processes, averaged) read just before
/// and just after it, against the cores; `busy() ⟺ max(before, after) > cores`.
///
/// ```
/// use polyquery_report::machine::SectionLoad;
///
/// let load = SectionLoad { section: "robot".into(), before: Some(6.2), after: Some(5.9), cores: 2 };
/// assert!(load.busy());
/// assert_eq!(load.describe(), "load 6.2 before, 5.9 after, on 2 cores");
/// ```
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SectionLoad {
    /// `section` = `pair queries`, `robot` or `planning`.
    pub section: String,
    /// `before` = the 1-minute load average when the section started (`None`: unreadable).
    pub before: Option<f64>,
    /// `after` = the 1-minute load average when it ended.
    pub after: Option<f64>,
    /// `cores = MachineInfo::cores`.
    pub cores: usize,
}

impl SectionLoad {
    /// Starts a section: `start(name, cores).before = load_1min()`, `after = None`.
    pub fn start(section: &str, cores: usize) -> SectionLoad {
        SectionLoad {
            section: section.into(),
            before: load_1min(),
            after: None,
            cores,
        }
    }

    /// Ends it: `finish().after = load_1min()`.
    pub fn finish(mut self) -> SectionLoad {
        self.after = load_1min();
        self
    }

    /// More runnable processes than cores at either end: `busy() ⟺ max(before, after) > cores`.
    pub fn busy(&self) -> bool {
        [self.before, self.after]
            .into_iter()
            .flatten()
            .any(|l| l > self.cores as f64)
    }

    /// In words: `describe() = "load 6.2 before, 5.9 after, on 2 cores"` (`"load unknown"`
    /// when unreadable).
    pub fn describe(&self) -> String {
        let one = |x: Option<f64>| x.map_or("unknown".into(), |x| format!("{x:.1}"));
        if self.before.is_none() && self.after.is_none() {
            return "load unknown".into();
        }
        format!(
            "load {} before, {} after, on {} core{}",
            one(self.before),
            one(self.after),
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }
}

/// The 1-minute load average: `load_1min() = Some(first field of /proc/loadavg)` (`None` where
/// there is none).
pub fn load_1min() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
}

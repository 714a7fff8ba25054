//! The machine a report ran on (CPU, cores, memory, OS), the git commit and the date, read
//! from `/proc`, `/etc/os-release`, `uname` and `git`; anything unreadable is "unknown".
//!
//! Where it sits: read once by [`super::run`] and printed at the top of every output file.

use serde::Serialize;
use std::process::Command;

/// Where and when a report was made.
#[derive(Clone, Debug, Serialize)]
pub struct MachineInfo {
    /// CPU model name (`/proc/cpuinfo`).
    pub cpu: String,
    /// Logical CPUs available to this process.
    pub cores: usize,
    /// Total memory in GiB (`/proc/meminfo`), "unknown" if unreadable.
    pub memory: String,
    /// Operating system (`/etc/os-release` PRETTY_NAME) and kernel (`uname -srm`).
    pub os: String,
    /// `git rev-parse HEAD`, or "unknown".
    pub git_commit: String,
    /// UTC date and time the report started (`YYYY-MM-DD HH:MM:SS UTC`).
    pub date: String,
    /// The polyquery version.
    pub polyquery_version: String,
    /// The peer library and its version, or why there is none.
    pub peer: String,
}

impl MachineInfo {
    /// Reads everything now.
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
        let kernel = command_output("uname", &["-srm"]).unwrap_or_else(|| "unknown kernel".into());
        MachineInfo {
            cpu,
            cores,
            memory,
            os: format!("{pretty} ({kernel})"),
            git_commit: command_output("git", &["rev-parse", "HEAD"])
                .unwrap_or_else(|| "unknown".into()),
            date: utc_date_time(std::time::SystemTime::now()),
            polyquery_version: env!("CARGO_PKG_VERSION").to_string(),
            peer: super::peers::description(),
        }
    }
}

/// The trimmed stdout of a command that succeeded, else `None`.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// `YYYY-MM-DD hh:mm:ss UTC` of a point in time (RFC 3339 with a space and "UTC").
pub fn utc_date_time(t: std::time::SystemTime) -> String {
    let rfc = humantime::format_rfc3339_seconds(t).to_string();
    format!("{} UTC", rfc.trim_end_matches('Z').replacen('T', " ", 1))
}

//! pinocchio + coal's figures (`modes[i] = (mode, per second)`), read from the JSON
//! `benches/robot_pinocchio.py --out FILE` writes, to show beside ours; or measured by this
//! report itself ([`measure_pinocchio`]) when a Python that imports `pinocchio` and `coal`
//! is found.
//!
//! Where it sits: a leaf of the robot section; the bench reads the file, or runs the
//! script, once.

use super::plan::{CONFIGURATIONS_FILE, MOTIONS_FILE, PINOCCHIO_SCRIPT, PinocchioRun};
use super::section::{PinocchioFigures, PinocchioMode, Unit};
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

/// Measures pinocchio + coal with `run` on the report's inputs (`inputs` = the two files of
/// [`crate::robot::RobotSection::inputs`], written into `dir`, which is created and removed):
/// `Ok(figures)` with `figures.run_by_report`, or `Err(why)` in a few words when `run.python`
/// cannot be started, cannot import `pinocchio` and `coal`, or the script fails.
pub fn measure_pinocchio(
    run: &PinocchioRun,
    dir: &Path,
    inputs: &[(&str, String); 2],
    configurations: usize,
    motions: usize,
) -> Result<PinocchioFigures, String> {
    importable(run)?;
    in_scratch(dir, || {
        for (name, text) in inputs {
            std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
        }
        let args = [
            "--configs".into(),
            dir.join(CONFIGURATIONS_FILE).into_os_string(),
            "--motions".into(),
            dir.join(MOTIONS_FILE).into_os_string(),
        ];
        run_script(run, dir, &args, configurations, motions)
    })
}

/// Runs `work` in the scratch folder `dir`, created before and removed after (whatever
/// `work` returns): `in_scratch(d, w) = w()` once `d` exists.
fn in_scratch<T>(dir: &Path, work: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = work();
    let _ = std::fs::remove_dir_all(dir);
    result
}

/// Measures pinocchio + coal's checks of the UR5 with its **exact** meshes (triangle BVHs,
/// `--robot ur5 --meshes exact --skip-distance`: coal's exact-mesh distances take about a
/// minute) on `configs`, its configurations file with `n` lines; `dir` as in
/// [`measure_pinocchio`]: `Ok(figures)` with `figures.n = n` when it ran. The report calls
/// it after [`measure_pinocchio`] ran with the same `run`, so `run.python` is not asked
/// again whether it imports them (a Python that cannot fails in the script, with its error).
pub fn measure_pinocchio_ur5(
    run: &PinocchioRun,
    dir: &Path,
    configs: &Path,
) -> Result<PinocchioFigures, String> {
    let args = [
        "--robot".into(),
        "ur5".into(),
        "--meshes".into(),
        "exact".into(),
        "--skip-distance".into(),
        "--configs".into(),
        configs.as_os_str().to_os_string(),
    ];
    in_scratch(dir, || run_script(run, dir, &args, 0, 0))
}

/// `Ok` when `run.python` imports `pinocchio` and `coal` and the script is there; else why not.
fn importable(run: &PinocchioRun) -> Result<(), String> {
    let import = started(
        run,
        Command::new(&run.python).args(["-c", "import pinocchio, coal"]),
    )?;
    if !import.status.success() {
        return Err(format!("{} cannot import pinocchio and coal", run.python));
    }
    if !run.script.is_file() {
        return Err(format!("{} is missing", run.script.display()));
    }
    Ok(())
}

/// Runs `command` (`run.python` with its arguments; no stdin) to its end and returns its
/// output, or why it could not start. A program file that is still open for writing
/// somewhere (`ExecutableFileBusy`: another thread of this process forked while writing one, a
/// transient race on Linux) is tried again, up to 5 times 20 ms apart:
/// `started(r, c) = c.output()` once it starts.
fn started(run: &PinocchioRun, command: &mut Command) -> Result<std::process::Output, String> {
    command.stdin(Stdio::null());
    let mut tries = 0;
    loop {
        match command.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 5 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            done => return done.map_err(|e| format!("{} cannot be started ({e})", run.python)),
        }
    }
}

/// Runs the script with `args`, `--rounds` and `--out` (into `dir`), and reads its result.
fn run_script(
    run: &PinocchioRun,
    dir: &Path,
    args: &[OsString],
    configurations: usize,
    motions: usize,
) -> Result<PinocchioFigures, String> {
    let out = dir.join("pinocchio.json");
    let ran = started(
        run,
        Command::new(&run.python)
            .arg(&run.script)
            .args(args)
            .arg("--rounds")
            .arg(run.rounds.to_string())
            .arg("--out")
            .arg(&out),
    )?;
    if !ran.status.success() {
        let stderr = String::from_utf8_lossy(&ran.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!(
            "{PINOCCHIO_SCRIPT} failed: {}",
            last.unwrap_or("no message")
        ));
    }
    let mut figures = read_pinocchio(&out, configurations, motions)?;
    figures.file = run.command();
    figures.run_by_report = true;
    Ok(figures)
}

/// Reads the JSON `benches/robot_pinocchio.py --out FILE` wrote:
/// `read_pinocchio(path, n, m)?.same_configurations` ⟺ it ran on our `n` configurations.
///
/// ```
/// use polyquery_report::robot::read_pinocchio;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("pin.json");
/// std::fs::write(&path, r#"{"n": 2, "configurations": "report/robot_configurations.txt",
///   "colliding_fraction": 0.5, "tolerances": "pinocchio defaults",
///   "modes": {"check_loop": {"configurations_per_s": 1000.0}},
///   "versions": {"pinocchio": "3.7.0", "coal": "3.0.1"}}"#).unwrap();
/// let pin = read_pinocchio(&path, 2, 0).unwrap();
/// assert!(pin.same_configurations && pin.versions.contains("pinocchio 3.7.0"));
/// assert_eq!(pin.modes[0].per_second, 1000.0);
/// ```
pub fn read_pinocchio(
    path: &Path,
    configurations: usize,
    motions: usize,
) -> Result<PinocchioFigures, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let modes_obj = v["modes"]
        .as_object()
        .ok_or("no \"modes\" object: not a robot_pinocchio.py result")?;
    let mut modes = Vec::new();
    for (mode, m) in modes_obj {
        let (per, median, unit) = if let Some(x) = m["configurations_per_s"].as_f64() {
            (
                x,
                m["median_configurations_per_s"].as_f64(),
                Unit::Configurations,
            )
        } else if let Some(x) = m["motions_per_s"].as_f64() {
            (x, m["median_motions_per_s"].as_f64(), Unit::Motions)
        } else {
            continue;
        };
        if !(per.is_finite() && per > 0.0) {
            continue;
        }
        modes.push(PinocchioMode {
            mode: mode.clone(),
            per_second: per,
            median_per_second: median.filter(|x| x.is_finite()),
            threads: m["threads"].as_u64().map_or(1, |t| t as usize),
            unit,
        });
    }
    let versions = v["versions"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, x)| format!("{k} {}", x.as_str().unwrap_or("?")))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_else(|| "versions not recorded".into());
    let source = v["configurations"].as_str().unwrap_or("?").to_string();
    let n = v["n"].as_u64().unwrap_or(0) as usize;
    let motions_n = v["motions"]["n"].as_u64().map(|x| x as usize);
    let motions_file = v["motions"]["file"].as_str().unwrap_or("");
    Ok(PinocchioFigures {
        file: path.display().to_string(),
        run_by_report: false,
        versions,
        same_configurations: source.ends_with(CONFIGURATIONS_FILE) && n == configurations,
        configurations: source,
        n,
        colliding_fraction: v["colliding_fraction"].as_f64().filter(|x| x.is_finite()),
        modes,
        motions_colliding: v["motions"]["colliding"].as_u64().map(|x| x as usize),
        same_motions: motions_file.ends_with(MOTIONS_FILE) && motions_n == Some(motions),
        motions: motions_n,
        tolerances: v["tolerances"].as_str().unwrap_or("?").to_string(),
    })
}

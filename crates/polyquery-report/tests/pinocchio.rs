//! pinocchio + coal measured by the report itself ([`measure_pinocchio`]), both paths, with
//! fake Pythons (shell scripts), so that no test needs pinocchio: one that cannot import
//! them ("not measured" and why, nothing run), and one that can and writes the script's JSON
//! (the figures read, marked as run by the report, on the report's own input files).

use polyquery_report::robot::{
    CONFIGURATIONS_FILE, MOTIONS_FILE, PinocchioRun, Unit, measure_pinocchio,
};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Writes an executable shell script `name` into `dir` with `body`: its path.
fn fake_python(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// The report's two input files: two configurations of 8 values, one motion.
fn inputs() -> [(&'static str, String); 2] {
    [
        (
            CONFIGURATIONS_FILE,
            "0 0 0 0 0 0 0 0\n1 1 1 1 1 1 1 1\n".into(),
        ),
        (MOTIONS_FILE, "0 0 0 0 0 0 0 0 ; 1 1 1 1 1 1 1 1\n".into()),
    ]
}

#[test]
fn a_python_without_pinocchio_says_so_and_runs_nothing() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let ran = dir.path().join("ran");
    // Exits 1 on the import check, as python3 does without the modules; would leave `ran`
    // behind if it were asked to run the script.
    let python = fake_python(
        dir.path(),
        "python-without",
        &format!(
            "if [ \"$1\" = \"-c\" ]; then echo \"ModuleNotFoundError: No module named 'pinocchio'\" >&2; exit 1; fi\ntouch {}",
            ran.display()
        ),
    );
    let python = python.display().to_string();
    let run = PinocchioRun::new(python.clone(), dir.path().join("robot_pinocchio.py"), true);
    let work = dir.path().join("work");
    let err = measure_pinocchio(&run, &work, &inputs(), 2, 1).expect_err("not importable");
    assert_eq!(err, format!("{python} cannot import pinocchio and coal"));
    assert!(!ran.exists(), "the script was run");
    assert!(!work.exists(), "inputs were written");
    // A Python that cannot be started at all is said so too.
    let run = PinocchioRun::new(
        dir.path().join("no-such-python").display().to_string(),
        dir.path().join("robot_pinocchio.py"),
        true,
    );
    let err = measure_pinocchio(&run, &work, &inputs(), 2, 1).expect_err("no python");
    assert!(err.contains("cannot be started"), "{err}");
}

#[test]
fn a_python_with_pinocchio_runs_the_script_on_the_reports_inputs() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let script = dir.path().join("robot_pinocchio.py");
    std::fs::write(&script, "# stands for benches/robot_pinocchio.py\n").expect("script");
    let seen = dir.path().join("seen");
    let args = dir.path().join("args");
    // Imports fine; run on the script, it copies its input files aside (to show they were
    // the report's) and writes a result to --out, as the real script does.
    let python = fake_python(
        dir.path(),
        "python-with",
        &format!(
            r#"if [ "$1" = "-c" ]; then exit 0; fi
echo "$@" > {args}
while [ $# -gt 0 ]; do
  case "$1" in
    --configs) configs="$2"; shift ;;
    --motions) motions="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --out) out="$2"; shift ;;
  esac
  shift
done
cat "$configs" "$motions" > {seen}
echo "$rounds" >> {seen}
cat > "$out" <<JSON
{{"configurations": "$configs", "n": 2, "colliding_fraction": 0.5, "tolerances": "pinocchio defaults",
  "modes": {{"check_loop": {{"configurations_per_s": 1000.0}},
             "motion_sampled_loop": {{"motions_per_s": 10.0}}}},
  "motions": {{"file": "$motions", "n": 1, "resolution": 0.01, "colliding": 1}},
  "versions": {{"pinocchio": "4.1.0-fake", "coal": "3.0.3-fake"}}}}
JSON"#,
            seen = seen.display(),
            args = args.display()
        ),
    );
    let python = python.display().to_string();
    let run = PinocchioRun::new(python.clone(), script, true);
    let work = dir.path().join("work");
    let figures = measure_pinocchio(&run, &work, &inputs(), 2, 1).expect("measured");
    assert!(figures.run_by_report);
    assert_eq!(figures.file, format!("{python} benches/robot_pinocchio.py"));
    assert!(
        figures.same_configurations && figures.same_motions,
        "{figures:?}"
    );
    assert!(
        figures.versions.contains("pinocchio 4.1.0-fake"),
        "{figures:?}"
    );
    assert_eq!(figures.motions_colliding, Some(1));
    let modes: Vec<(&str, f64, Unit)> = figures
        .modes
        .iter()
        .map(|m| (m.mode.as_str(), m.per_second, m.unit))
        .collect();
    assert_eq!(
        modes,
        [
            ("check_loop", 1000.0, Unit::Configurations),
            ("motion_sampled_loop", 10.0, Unit::Motions)
        ]
    );
    let [(_, configs), (_, motions)] = inputs();
    assert_eq!(
        std::fs::read_to_string(&seen).expect("the script ran"),
        format!("{configs}{motions}1\n"),
        "the report's inputs, one round (quick)"
    );
    assert!(!work.exists(), "the working folder is removed");

    // The UR5 with its exact meshes: checks only, on its own configurations file.
    let configs = dir.path().join("configs_2000.txt");
    std::fs::write(&configs, "0 0 0 0 0 0\n").expect("configs");
    let ur5 =
        polyquery_report::robot::measure_pinocchio_ur5(&run, &work, &configs).expect("measured");
    assert!(ur5.run_by_report && !ur5.same_configurations, "{ur5:?}");
    let given = std::fs::read_to_string(&args).expect("the script ran");
    assert!(
        given.starts_with(&format!(
            "{} --robot ur5 --meshes exact --skip-distance --configs {} --rounds 1 --out ",
            run.script.display(),
            configs.display()
        )),
        "{given}"
    );
    assert!(!work.exists(), "the working folder is removed");

    // A script that fails: its last line of stderr is the reason.
    let failing = fake_python(
        dir.path(),
        "python-failing",
        "if [ \"$1\" = \"-c\" ]; then exit 0; fi\necho 'obstacle x: only box' >&2\nexit 1",
    );
    let run = PinocchioRun::new(
        failing.display().to_string(),
        dir.path().join("robot_pinocchio.py"),
        false,
    );
    let err = measure_pinocchio(&run, &work, &inputs(), 2, 1).expect_err("failed");
    assert_eq!(
        err,
        "benches/robot_pinocchio.py failed: obstacle x: only box"
    );
}

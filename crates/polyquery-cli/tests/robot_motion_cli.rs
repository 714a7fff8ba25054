//! `polyquery robot motion` on the bundled Panda (`data/robots/panda`, its SRDF and the
//! table-and-shelf scene): output order and format against the library's own motion checks,
//! certified against sampled checking, determinism (threads, seeds, shards), the motions
//! file round trip, and bad input (exit status 2, the message naming the line, side and
//! joint, and no output file left behind).

use crate::common;

use common::binary::{polyquery, s, stderr, stdout, stdout_json_lines, succeeds};
use polyquery::robot::{LimitCheck, MotionOptions};
use polyquery_cli::robot::{LoadedRobot, RobotSources, load, parse_motions};
use std::path::Path;

use common::panda::{
    configs, dir as panda_dir, fails_without_output, summary, with_bad_fifth_line, write,
};

/// `robot motion` on the Panda with its SRDF and the table-and-shelf scene, without a cache,
/// plus `extra`.
fn motion_args(extra: &[&str]) -> Vec<String> {
    common::panda::robot_args("motion", extra)
}

/// The same robot, loaded in-process (no cache).
fn panda_checker() -> LoadedRobot {
    load(&RobotSources {
        urdf: panda_dir().join("panda.urdf"),
        srdf: Some(panda_dir().join("panda.srdf")),
        scene: Some(panda_dir().join("scene_table_shelf.json")),
        ..RobotSources::default()
    })
    .unwrap()
}

/// (1) 30 motions between consecutive bundled configurations (a comment, a blank line and
/// tabs in between): one line per motion, in input order, with exactly the keys
/// `index, free, s, pair, distance_queries`; `s` and `pair` null iff free, `s ∈ [0, 1]`;
/// and every field equal to the library's `check_motion_with` on one workspace in input
/// order (the 30 motions are one block of 64, so the binary runs them exactly so).
#[test]
fn output_order_and_format_equal_the_library() {
    let c = configs();
    let mut text = String::from("# q0 ; q1\n\n");
    for k in 0..30 {
        let sep = if k % 2 == 0 { " ; " } else { "\t;\t" };
        text.push_str(&format!("{}{sep}{}  # motion {k}\n", c[k], c[k + 1]));
        if k == 10 {
            text.push_str("   \n# a comment line\n");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "motions.txt", &text);
    let out = succeeds(motion_args(&["--motions", &file]));
    let lines = stdout_json_lines(&out);
    assert_eq!(lines.len(), 30);

    let loaded = panda_checker();
    let checker = &loaded.checker;
    let motions =
        parse_motions(text.as_bytes(), "m", checker.robot(), LimitCheck::Enforce).unwrap();
    let mut ws = checker.workspace();
    let (mut free, mut colliding) = (0, 0);
    for (i, (line, (q0, q1))) in lines.iter().zip(&motions).enumerate() {
        let mut keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["distance_queries", "free", "index", "pair", "s"]);
        assert_eq!(line["index"], i, "{line}");
        let expected = checker
            .check_motion_with(&mut ws, q0, q1, &MotionOptions::default())
            .unwrap();
        assert_eq!(line["free"], expected.free, "motion {i}: {line}");
        assert_eq!(
            line["distance_queries"], expected.distance_queries,
            "{line}"
        );
        if expected.free {
            free += 1;
            assert!(line["s"].is_null() && line["pair"].is_null(), "{line}");
        } else {
            colliding += 1;
            let s = line["s"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&s), "{line}");
            assert_eq!(Some(s), expected.s, "{line}");
            let (a, b) = expected.pair.unwrap();
            assert_eq!(
                line["pair"],
                serde_json::json!([checker.name(a), checker.name(b)])
            );
        }
    }
    // Consecutive random configurations: long motions, most of them colliding somewhere.
    assert!(colliding > 0, "{free} free, {colliding} colliding");
    let v = summary(&succeeds(motion_args(&["--motions", &file, "--json"])));
    assert_eq!(v["motions"], 30);
    assert_eq!(v["colliding"], colliding);
    assert_eq!(v["mode"], "certified");
    assert_eq!(v["contact_tolerance"], 1e-6);
    assert!(v["resolution"].is_null() && v["shard"].is_null());
    let queries: u64 = lines
        .iter()
        .map(|l| l["distance_queries"].as_u64().unwrap())
        .sum();
    assert_eq!(v["distance_queries"], queries);
    for key in ["seconds", "motions_per_second", "load_seconds"] {
        assert!(v[key].as_f64().unwrap() >= 0.0, "{key}: {v}");
    }
    // The text summary says the same.
    let text = stderr(&succeeds(motion_args(&["--motions", &file])));
    assert!(
        text.contains(&format!("30 motions, {colliding} colliding")) && text.contains("certified"),
        "{text}"
    );
}

/// (2) Certified against sampled at a resolution of 0.01 rad on 300 random motions (steps up
/// to 1 rad per joint, seed 5): certified is never free where sampled collides, and where
/// both collide certified's first contact comes no later than the first colliding sample
/// (up to 1e-9 in `s`: both are exact parameters, the sample's `k/n`); every contact
/// certified is real: at `q(s)` the robot is within 1e-4 m of touching (absolute: the Panda
/// is about 1 m across; the contact tolerance is 1e-6 m, and the certified distance is a
/// lower bound that GJK stopped at a relative 1e-3). The motions sampled mode calls free but
/// certified finds a contact on are counted and printed.
#[test]
fn certified_never_free_where_sampled_collides() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("random.txt");
    let random = ["--random", "300", "--max-step", "1", "--seed", "5"];
    let mut args = random.to_vec();
    args.extend(["--save-motions", saved.to_str().unwrap()]);
    let certified = stdout_json_lines(&succeeds(motion_args(&args)));
    let mut args = random.to_vec();
    args.extend(["--resolution", "0.01", "--json"]);
    let sampled_run = succeeds(motion_args(&args));
    let sampled = stdout_json_lines(&sampled_run);
    assert_eq!(summary(&sampled_run)["mode"], "sampled");
    assert_eq!(summary(&sampled_run)["resolution"], 0.01);
    assert_eq!((certified.len(), sampled.len()), (300, 300));

    let loaded = panda_checker();
    let checker = &loaded.checker;
    let motions = parse_motions(
        &std::fs::read(&saved).unwrap(),
        "random.txt",
        checker.robot(),
        LimitCheck::Enforce,
    )
    .unwrap();
    let mut ws = checker.workspace();
    let (mut both, mut missed, mut worst) = (0, Vec::new(), 0.0f64);
    for (i, (c, p)) in certified.iter().zip(&sampled).enumerate() {
        assert_eq!(
            (c["index"].as_u64(), p["index"].as_u64()),
            (Some(i as u64), Some(i as u64))
        );
        if p["free"] == false {
            assert_eq!(
                c["free"], false,
                "sampled collides, certified free: {c} {p}"
            );
            let (sc, sp) = (c["s"].as_f64().unwrap(), p["s"].as_f64().unwrap());
            assert!(
                sc <= sp + 1e-9,
                "certified contact after the sample's: {c} {p}"
            );
            both += 1;
        } else if c["free"] == false {
            missed.push(i);
        }
        if c["free"] == false {
            let s = c["s"].as_f64().unwrap();
            let (q0, q1) = &motions[i];
            let q: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect();
            let d = checker
                .distance_with(&mut ws, &q)
                .unwrap()
                .distance
                .max(0.0);
            worst = worst.max(d);
            assert!(
                d <= 1e-4,
                "motion {i}: {d} m apart at the certified contact {c}"
            );
        }
    }
    eprintln!(
        "300 motions (--max-step 1 --seed 5): {both} colliding in both, {} colliding that \
         sampling at 0.01 rad calls free (motions {missed:?}); largest distance at a certified \
         contact {worst:e} m",
        missed.len()
    );
    assert!(both > 0);
}

/// (3) One thread and two give byte-identical output, certified and sampled.
#[test]
fn threads_do_not_change_the_output() {
    for extra in [&[][..], &["--resolution", "0.05"][..]] {
        let run = |threads: &str| {
            let mut args = vec!["--random", "150", "--max-step", "0.8", "--threads", threads];
            args.extend(extra);
            succeeds(motion_args(&args)).stdout
        };
        assert_eq!(run("1"), run("2"));
    }
}

/// (4) `--random` is deterministic: the same seed twice gives the same output (and the same
/// saved motions), another seed another one; the motions are free at both ends, within the
/// limits and at most `--max-step` apart per joint.
#[test]
fn random_motions_are_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let run = |seed: &str, saved: &str| {
        let saved = s(&dir.path().join(saved));
        let args = ["--random", "100", "--max-step", "0.5", "--seed", seed];
        let mut args = args.to_vec();
        args.extend(["--save-motions", &saved, "--resolution", "0.1"]);
        let out = succeeds(motion_args(&args));
        (out.stdout, std::fs::read_to_string(saved).unwrap())
    };
    let a = run("7", "a.txt");
    assert_eq!(a, run("7", "b.txt"));
    assert_ne!(a.1, run("8", "c.txt").1);
    let loaded = panda_checker();
    let checker = &loaded.checker;
    let motions = parse_motions(a.1.as_bytes(), "a", checker.robot(), LimitCheck::Enforce).unwrap();
    assert_eq!(motions.len(), 100);
    for (q0, q1) in &motions {
        assert!(q0.iter().zip(q1).all(|(x, y)| (x - y).abs() <= 0.5));
        assert!(!checker.check(q0).unwrap().collides && !checker.check(q1).unwrap().collides);
    }
}

/// (5) A motions file round trip: `--random 200 --save-motions F` then `--motions F` checks
/// the very same motions (values written in their shortest round-trip form) and prints the
/// very same lines.
#[test]
fn saved_motions_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let saved = s(&dir.path().join("motions.txt"));
    let first = succeeds(motion_args(&[
        "--random",
        "200",
        "--max-step",
        "1",
        "--seed",
        "11",
        "--save-motions",
        &saved,
    ]));
    let again = succeeds(motion_args(&["--motions", &saved]));
    assert_eq!(stdout(&first), stdout(&again));
    assert_eq!(stdout_json_lines(&again).len(), 200);
}

/// (6) `--shard K/3` on 200 random motions (so the last block is short and goes to shard 1):
/// the shards' lines sorted by index are exactly the whole run's; each shard draws the same
/// global motions (motion i from stream i) and the summary names the shard.
#[test]
fn shards_merge_into_the_whole_run() {
    let args = motion_args(&["--random", "200", "--max-step", "1", "--seed", "2"]);
    let whole: Vec<String> = stdout(&succeeds(&args)).lines().map(String::from).collect();
    assert_eq!(whole.len(), 200);
    let mut shards = Vec::new();
    for k in 1..=3u64 {
        let mut sharded = args.clone();
        sharded.extend(["--shard".into(), format!("{k}/3"), "--json".into()]);
        let out = succeeds(&sharded);
        let v = summary(&out);
        assert_eq!(v["shard"], serde_json::json!({"k": k, "n": 3, "of": 200}));
        shards.push(stdout(&out));
        assert_eq!(v["motions"], [72, 64, 64][k as usize - 1]);
    }
    common::shards::assert_merge_into_whole(&shards, &whole);
    // The text summary says which shard.
    let mut sharded = args.clone();
    sharded.extend(["--shard".into(), "2/3".into()]);
    assert!(stderr(&succeeds(&sharded)).contains("shard 2/3"));
}

/// Runs `args` plus `--out F` and expects exit status 2, stderr containing every one of
/// `needles`, and F never written. Returns stderr.
fn fails_cleanly(args: &[String], needles: &[&str]) -> String {
    let failed = fails_without_output(args, needles);
    assert_eq!(
        common::binary::files_in(failed.dir.path()),
        Vec::<String>::new()
    );
    failed.message
}

/// Three good motions, then `bad` as line 5 (line 4 a comment), then 100 good lines.
fn motions_with(dir: &Path, bad: &str) -> String {
    let c = configs();
    let good: Vec<String> = (0..103)
        .map(|k| format!("{} ; {}", c[k], c[k + 1]))
        .collect();
    write(dir, "motions.txt", &with_bad_fifth_line(&good, bad))
}

/// (7) Bad motions: no `;`, two `;`, the wrong count on either side (naming the side and
/// the count), NaN and a value outside the limits (naming the side and the joint), not a
/// number — each naming the file and line 5, with `--out` left absent;
/// --allow-outside-limits checks the last anyway. Bad arguments: a malformed --shard, a
/// contact tolerance or resolution that is not positive, --random without --max-step.
#[test]
fn bad_motions_are_errors_naming_line_and_joint() {
    let dir = tempfile::tempdir().unwrap();
    let home = "0 -0.785 0 -2.356 0 1.571 0.785 0.02";
    let cases: Vec<(String, Vec<&str>)> = vec![
        (home.to_string(), vec!["no `;`", "q0 ; q1"]),
        (format!("{home} ; {home} ; {home}"), vec!["2 `;`"]),
        (
            format!("0 0 0 -1 0 1 0 ; {home}"),
            vec!["q0: 7 values", "has 8"],
        ),
        (
            format!("{home} ; 0 0 0 -1 0 1 0 0.02 0"),
            vec!["q1: 9 values", "has 8"],
        ),
        (
            format!("{home} ; 0 0 NaN -1 0 1 0 0.02"),
            vec!["q1:", "panda_joint3", "NaN"],
        ),
        (
            format!("{home} ; 0 0 0 -1 0 1 zero 0.02"),
            vec!["q1:", "'zero' is not a number"],
        ),
        (
            format!("0 0 0 -1 0 1 0 0.05 ; {home}"),
            vec![
                "q0:",
                "panda_finger_joint1",
                "outside its limits",
                "--allow-outside-limits",
            ],
        ),
    ];
    for (bad, needles) in &cases {
        let file = motions_with(dir.path(), bad);
        let mut needles = needles.clone();
        needles.push("motions.txt:5:");
        fails_cleanly(&motion_args(&["--motions", &file]), &needles);
    }
    let file = motions_with(dir.path(), &format!("0 0 0 -1 0 1 0 0.05 ; {home}"));
    let out = succeeds(motion_args(&[
        "--motions",
        &file,
        "--allow-outside-limits",
        "--resolution",
        "0.1",
    ]));
    let lines = stdout_json_lines(&out);
    assert_eq!(lines.len(), 104);
    assert_eq!(lines[103]["index"], 103);

    for (extra, needle) in [
        (vec!["--shard", "0/3"], "is not a shard"),
        (vec!["--shard", "4/3"], "is not a shard"),
        (vec!["--shard", "x/y"], "is not a shard"),
        (vec!["--contact-tolerance", "0"], "not a positive"),
        (vec!["--resolution=-0.01"], "not a positive"),
        (vec!["--resolution", "nan"], "not a positive"),
    ] {
        let mut args = vec!["--random", "10", "--max-step", "1"];
        args.extend(&extra);
        fails_cleanly(&motion_args(&args), &[needle]);
    }
    fails_cleanly(&motion_args(&["--random", "10"]), &["--max-step"]);
    fails_cleanly(
        &motion_args(&["--random", "10", "--max-step", "0"]),
        &["not a positive"],
    );
}

/// (8) `robot motion --help` says what "free" guarantees, that sampling may miss contacts,
/// and gives examples.
#[test]
fn help_explains_free_and_sampling() {
    let out = succeeds(["robot", "motion", "--help"]);
    let text = stdout(&out);
    common::binary::assert_mentions(
        &text,
        &[
            "is a guarantee",
            "not only at samples",
            "NOT certified",
            "missed",
            "--contact-tolerance",
            "--resolution",
            "--shard",
            "Examples:",
        ],
    );
    assert!(polyquery(["robot", "--help"]).status.success());
}

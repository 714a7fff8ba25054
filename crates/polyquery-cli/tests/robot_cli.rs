//! `polyquery robot check` and `polyquery robot info` on the bundled Panda
//! (`data/robots/panda`): verdicts and distances against pinocchio + coal's answers, output
//! order and determinism (threads, seeds), the JSON summary, the shape cache, the info
//! report, and bad input (exit status 2, the message naming the line, joint, link, path or
//! element, and no output file left behind).

use crate::common;

use common::binary::{exits_with, polyquery, s, stderr, stdout_json_lines, succeeds};
use serde_json::Value;
use std::path::Path;

use common::panda::{
    configs, dir as panda_dir, fails_without_output, file as panda, summary, with_bad_fifth_line,
    write,
};

/// `robot check` on the Panda with its SRDF and the table-and-shelf scene, without a cache,
/// plus `extra`.
fn check_args(extra: &[&str]) -> Vec<String> {
    common::panda::robot_args("check", extra)
}

/// `(collides, max(min_distance, 0))` per line of `expected_1000.txt`.
fn expected() -> Vec<(bool, f64)> {
    std::fs::read_to_string(panda_dir().join("expected_1000.txt"))
        .unwrap()
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let collides = f[0] == "1" || f[1] == "1";
            (collides, f[2].parse::<f64>().unwrap().max(0.0))
        })
        .collect()
}

/// (1) The 1,000 bundled configurations: the verdicts equal pinocchio + coal's (collides =
/// self or scene; no configuration is within 1e-6 m of contact, so they must agree exactly),
/// one line per configuration in input order; with --distance the distances are within
/// 1e-6 m of max(min_distance, 0) (absolute: the Panda is about 1 m across and coal ran with
/// GJK/EPA tolerances of 1e-10), and `pair` is always a pair of names.
#[test]
fn verdicts_and_distances_equal_pinocchio_and_coal() {
    let expected = expected();
    assert_eq!(expected.len(), 1000);
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("verdicts.jsonl");
    let configs = panda("configs_1000.txt");
    succeeds(check_args(&["--configs", &configs, "--out", &s(&out_file)]));
    let lines: Vec<Value> = std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1000);
    for (i, (line, &(collides, _))) in lines.iter().zip(&expected).enumerate() {
        assert_eq!(line["index"], i, "{line}");
        assert_eq!(line["collides"], collides, "configuration {i}: {line}");
        assert_eq!(line["pair"].is_array(), collides, "{line}");
        assert!(line["distance"].is_null(), "{line}");
        let mut keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["collides", "distance", "index", "pair"]);
    }

    let out = succeeds(check_args(&["--configs", &configs, "--distance"]));
    let lines = stdout_json_lines(&out);
    assert_eq!(lines.len(), 1000);
    let mut worst: f64 = 0.0;
    for (i, (line, &(collides, distance))) in lines.iter().zip(&expected).enumerate() {
        assert_eq!(line["index"], i);
        assert_eq!(line["collides"], collides, "configuration {i}: {line}");
        let d = line["distance"].as_f64().unwrap();
        worst = worst.max((d - distance).abs());
        assert!(
            (d - distance).abs() <= 1e-6,
            "configuration {i}: {d} vs {distance}"
        );
        assert_eq!(d == 0.0, collides, "{line}");
        let pair = line["pair"].as_array().expect("a pair with --distance");
        assert!(pair.iter().all(|n| n.is_string()) && pair.len() == 2);
    }
    assert!(worst <= 1e-6, "largest distance difference {worst}");
}

/// (2) The --json summary parses and counts the 339 colliding configurations.
#[test]
fn json_summary_counts_the_colliding() {
    let configs = panda("configs_1000.txt");
    let out = succeeds(check_args(&["--configs", &configs, "--json"]));
    let v = summary(&out);
    assert_eq!(v["configurations"], 1000);
    assert_eq!(v["colliding"], 339);
    assert!((v["colliding_fraction"].as_f64().unwrap() - 0.339).abs() < 1e-12);
    for key in ["seconds", "configurations_per_second", "load_seconds"] {
        assert!(v[key].as_f64().unwrap() >= 0.0, "{key}: {v}");
    }
    assert!(v["threads"].as_u64().unwrap() >= 1);
    assert!(v["cache"]["dir"].is_null(), "--no-cache: {v}");
    assert_eq!(v["cache"]["built"], 9);
    assert_eq!(stdout_json_lines(&out).len(), 1000);
    // The text summary says the same.
    let out = succeeds(check_args(&["--configs", &configs]));
    assert!(stderr(&out).contains("1000 configurations, 339 colliding (33.9 %)"));
}

/// (3) One thread and two give byte-identical output, distances included (the blocks that
/// share a workspace do not depend on the thread count).
#[test]
fn threads_do_not_change_the_output() {
    let configs = panda("configs_1000.txt");
    let one = succeeds(check_args(&[
        "--configs",
        &configs,
        "--distance",
        "--threads",
        "1",
    ]));
    let two = succeeds(check_args(&[
        "--configs",
        &configs,
        "--distance",
        "--threads",
        "2",
    ]));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        summary(&succeeds(check_args(&[
            "--configs",
            &configs,
            "--threads",
            "1",
            "--json"
        ])))["threads"],
        1
    );
}

/// (4) `--random 500 --seed 7` twice gives the same output; another seed another one.
#[test]
fn random_configurations_are_reproducible() {
    let run = |seed: &str| {
        succeeds(check_args(&[
            "--random",
            "500",
            "--seed",
            seed,
            "--distance",
        ]))
    };
    let a = run("7");
    let b = run("7");
    assert_eq!(a.stdout, b.stdout);
    let lines = stdout_json_lines(&a);
    assert_eq!(lines.len(), 500);
    assert!(lines.iter().enumerate().all(|(i, l)| l["index"] == i));
    assert_ne!(a.stdout, run("8").stdout);
    // A few collide and a few do not: the draws span the workspace.
    let colliding = lines.iter().filter(|l| l["collides"] == true).count();
    assert!(
        colliding > 50 && colliding < 450,
        "{colliding} of 500 collide"
    );
}

/// A folder with a copy of the Panda (URDF, SRDF, meshes).
fn panda_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in ["panda.urdf", "panda.srdf", "scene_table_shelf.json"] {
        std::fs::copy(panda_dir().join(file), dir.path().join(file)).unwrap();
    }
    let meshes = dir.path().join("meshes/collision");
    std::fs::create_dir_all(&meshes).unwrap();
    for entry in std::fs::read_dir(panda_dir().join("meshes/collision")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), meshes.join(entry.file_name())).unwrap();
    }
    dir
}

/// Runs `args` plus `--out F`, twice: with F absent (it must stay absent) and with F holding
/// old content (it must keep it); exit status 2 and stderr containing every one of `needles`
/// both times. Returns stderr.
fn fails_cleanly(args: &[String], needles: &[&str]) -> String {
    let failed = fails_without_output(args, needles);
    let message = failed.message;
    assert!(message.starts_with("error: "), "{message}");
    std::fs::write(&failed.out, "old\n").unwrap();
    let again = exits_with(&failed.args, 2);
    assert_eq!(stderr(&again), message);
    assert_eq!(std::fs::read_to_string(&failed.out).unwrap(), "old\n");
    assert_eq!(
        common::binary::files_in(failed.dir.path()),
        ["out.jsonl"],
        "a temporary file was left"
    );
    message
}

/// The first three bundled configurations, then `bad` as line 5 (line 4 a comment), then
/// 900 good lines: nothing is checked or written.
fn configs_with(dir: &Path, bad: &str) -> String {
    let text = with_bad_fifth_line(&configs()[..903], bad);
    write(dir, "configs.txt", &text)
}

/// (5a) Bad configurations: the wrong count (naming the file, the line and the count), NaN
/// and a value outside the limits (naming the joint), not a number; --allow-outside-limits
/// checks the last anyway.
#[test]
fn bad_configurations_are_errors_naming_line_and_joint() {
    let dir = tempfile::tempdir().unwrap();
    let configs = configs_with(dir.path(), "0 0 0 -1 0 1 0");
    fails_cleanly(
        &check_args(&["--configs", &configs]),
        &["configs.txt:5:", "7 values", "has 8"],
    );
    let configs = configs_with(dir.path(), "0 0 NaN -1 0 1 0 0.02");
    fails_cleanly(
        &check_args(&["--configs", &configs]),
        &["configs.txt:5:", "panda_joint3", "NaN"],
    );
    let configs = configs_with(dir.path(), "0 0 0 -1 0 1 zero 0.02");
    fails_cleanly(
        &check_args(&["--configs", &configs]),
        &["configs.txt:5:", "'zero' is not a number"],
    );
    let configs = configs_with(dir.path(), "0 0 0 -1 0 1 0 0.05");
    fails_cleanly(
        &check_args(&["--configs", &configs]),
        &[
            "configs.txt:5:",
            "panda_finger_joint1",
            "outside its limits",
            "--allow-outside-limits",
        ],
    );
    let out = succeeds(check_args(&[
        "--configs",
        &configs,
        "--allow-outside-limits",
    ]));
    let lines = stdout_json_lines(&out);
    assert_eq!(lines.len(), 904);
    assert_eq!(lines[903]["index"], 903);
}

/// (5b) Bad robots and scenes: a missing mesh (naming the link and the path), malformed
/// URDF XML, a joint naming a missing link, an unknown package, an unknown obstacle kind, a
/// flat mesh (naming the link); and bad arguments.
#[test]
fn bad_robots_and_scenes_are_errors_naming_the_culprit() {
    let copy = panda_copy();
    let missing = copy.path().join("meshes/collision/link3.stl");
    std::fs::remove_file(&missing).unwrap();
    let mut args = check_args(&["--random", "5"]);
    args[2] = s(&copy.path().join("panda.urdf"));
    let message = fails_cleanly(&args, &["panda_link3", "link3.stl"]);
    assert_eq!(message.matches("link3.stl").count(), 1, "{message}");

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let urdf = |name: &str, text: &str| write(d, name, text);
    let robot_check = |urdf: String, extra: &[&str]| {
        let mut args = vec![
            "robot".to_string(),
            "check".into(),
            urdf,
            "--no-cache".into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        args.extend(["--random".to_string(), "3".into()]);
        args
    };
    let bad_xml = urdf("bad.urdf", "<robot name=\"r\"><link name=\"a\"></robot>");
    fails_cleanly(
        &robot_check(bad_xml, &[]),
        &["bad.urdf", "malformed XML", "1:"],
    );

    write(
        d,
        "flat.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n",
    );
    let tiny = |mesh: &str, child: &str| {
        format!(
            r#"<robot name="tiny"><link name="base"/>
  <link name="flat_link"><collision><geometry><mesh filename="{mesh}"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="{child}"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#
        )
    };
    let flat = urdf("flat.urdf", &tiny("flat.obj", "flat_link"));
    fails_cleanly(
        &robot_check(flat, &[]),
        &["link `flat_link`", "flat.obj", "coplanar"],
    );
    let no_link = urdf("nolink.urdf", &tiny("flat.obj", "elbow"));
    fails_cleanly(&robot_check(no_link, &[]), &["joint `j`", "`elbow`"]);
    let package = urdf("package.urdf", &tiny("package://nopkg/m.obj", "flat_link"));
    fails_cleanly(
        &robot_check(package, &[]),
        &["unknown package `nopkg`", "flat_link"],
    );

    let scene = write(
        d,
        "prism.json",
        r#"{"obstacles": [{"name": "witch_hat", "prism": {"radius": 1}, "pose": {"translation": [0, 0, 0]}}]}"#,
    );
    let mut args = check_args(&["--random", "3"]);
    args[6] = scene;
    fails_cleanly(
        &args,
        &["prism.json", "witch_hat", "unknown obstacle kind `prism`"],
    );

    // Arguments: both inputs, neither, --seed without --random, a malformed --package-dir.
    let configs = panda("configs_1000.txt");
    exits_with(check_args(&["--configs", &configs, "--random", "3"]), 2);
    exits_with(check_args(&[]), 2);
    exits_with(check_args(&["--configs", &configs, "--seed", "3"]), 2);
    let out = exits_with(
        check_args(&["--random", "3", "--package-dir", "nofolder"]),
        2,
    );
    assert!(stderr(&out).contains("NAME=DIR"));
    // --threads 0 is refused (not silently "one per core"); an output in a missing folder
    // is named as the user wrote it (not a temporary file).
    let out = exits_with(check_args(&["--random", "3", "--threads", "0"]), 2);
    assert!(stderr(&out).contains("--threads 0"), "{}", stderr(&out));
    let missing = d.join("nodir").join("x.jsonl");
    let out = exits_with(check_args(&["--random", "3", "--out", &s(&missing)]), 1);
    let message = stderr(&out);
    for needle in [
        "cannot write",
        "nodir/x.jsonl: its folder",
        "nodir' does not exist",
    ] {
        assert!(message.contains(needle), "{message}");
    }
    assert!(!message.contains(".polyquery-"), "{message}");
    assert!(!d.join("nodir").exists());
}

/// (5c) A file that cannot be read is named by what it was for (URDF, SRDF, scene,
/// configurations), its path printed once; a malformed scene's error starts with "scene".
#[test]
fn unreadable_files_are_named_by_their_role() {
    let dir = tempfile::tempdir().unwrap();
    let missing = s(&dir.path().join("missing.txt"));
    let swap = |index: usize| {
        let mut args = check_args(&["--random", "3"]);
        args[index] = missing.clone();
        args
    };
    for (args, role) in [
        (swap(2), "URDF"),
        (swap(4), "SRDF"),
        (swap(6), "scene"),
        (check_args(&["--configs", &missing]), "configurations file"),
    ] {
        let message = stderr(&exits_with(&args, 2));
        assert!(
            message.starts_with(&format!("error: cannot read the {role} {missing}: ")),
            "{message}"
        );
        assert_eq!(message.matches("missing.txt").count(), 1, "{message}");
    }
    let scene = write(
        dir.path(),
        "bad.json",
        r#"{"obstacles": [{"name": "m", "box": 3}]}"#,
    );
    let mut args = check_args(&["--random", "3"]);
    args[6] = scene.clone();
    let message = stderr(&exits_with(&args, 2));
    assert!(
        message.starts_with(&format!("error: scene {scene}: obstacles[0]")),
        "{message}"
    );
}

/// (5d) Without --srdf every Panda configuration collides (neighbouring links touch): the
/// summary names the pairs that collide in every configuration and suggests --srdf; with the
/// SRDF there is no such line.
#[test]
fn all_colliding_run_names_the_pair_and_suggests_the_srdf() {
    let args = |srdf: bool| {
        let mut args = vec!["robot".to_string(), "check".into(), panda("panda.urdf")];
        if srdf {
            args.extend(["--srdf".to_string(), panda("panda.srdf")]);
        }
        args.extend(["--no-cache", "--random", "40", "--out", "-"].map(String::from));
        args
    };
    let out = succeeds(args(false));
    let text = stderr(&out);
    assert!(text.contains("40 configurations, 40 colliding"), "{text}");
    assert!(
        text.contains("every configuration collides: panda_link"),
        "{text}"
    );
    assert!(text.contains("collide in all 40 examined"), "{text}");
    assert!(
        text.contains("pass the robot's SRDF (--srdf FILE)"),
        "{text}"
    );
    let mut json = args(false);
    json.push("--json".into());
    let summary = summary(&succeeds(json));
    let hint = &summary["hint"];
    assert_eq!(hint["examined"], 40);
    assert_eq!(hint["srdf"], false);
    let always = hint["always"].as_array().unwrap();
    assert!(!always.is_empty(), "{hint}");
    // Each pair named is one the SRDF allows (neighbours that always touch).
    let srdf = std::fs::read_to_string(panda_dir().join("panda.srdf")).unwrap();
    for pair in always {
        let (a, b) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        assert!(
            srdf.contains(&format!(r#"link1="{a}" link2="{b}""#))
                || srdf.contains(&format!(r#"link1="{b}" link2="{a}""#)),
            "{a}–{b} is not allowed by the SRDF"
        );
    }
    let text = stderr(&succeeds(args(true)));
    assert!(!text.contains("every configuration collides"), "{text}");
}

/// (6) The shape cache: the first run builds the 9 mesh hulls and writes them, the second
/// reads all 9 and builds none; the answers are the same.
#[test]
fn shape_cache_builds_once_then_hits() {
    let cache = tempfile::tempdir().unwrap();
    let dir = s(&cache.path().join("shapes"));
    let run = || {
        let mut args = check_args(&[
            "--random",
            "200",
            "--seed",
            "1",
            "--json",
            "--cache-dir",
            &dir,
        ]);
        args.retain(|a| a != "--no-cache");
        succeeds(args)
    };
    let built_and_hits = |v: &Value| (v["cache"]["built"].as_u64(), v["cache"]["hits"].as_u64());
    let first = run();
    let v = summary(&first);
    assert_eq!(built_and_hits(&v), (Some(9), Some(0)), "{v}");
    assert_eq!(v["cache"]["dir"], dir.as_str());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 9);
    let second = run();
    let v = summary(&second);
    assert_eq!(built_and_hits(&v), (Some(0), Some(9)), "{v}");
    assert_eq!(first.stdout, second.stdout);
}

/// A cache folder that cannot be written is a warning, not an error.
#[test]
fn unwritable_cache_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let cache_dir = s(&blocker.join("shapes"));
    let mut args = check_args(&["--random", "10", "--json", "--cache-dir", &cache_dir]);
    args.retain(|a| a != "--no-cache");
    let out = succeeds(args);
    assert!(
        stderr(&out).starts_with("warning: cannot write the shape cache"),
        "{}",
        stderr(&out)
    );
    assert_eq!(summary(&out)["cache"]["built"], 9);
}

/// (7) `robot info`: the 8 configuration joints in order with their limits, the mimic
/// finger, 20 active self pairs (the data README's list), 50 scene pairs; --json parses.
#[test]
fn info_lists_joints_shapes_and_pairs() {
    let args = |json: bool| common::panda::robot_args("info", if json { &["--json"] } else { &[] });
    // Written out, not read through the library: a misread URDF must fail here too.
    let joints = [
        "panda_joint1",
        "panda_joint2",
        "panda_joint3",
        "panda_joint4",
        "panda_joint5",
        "panda_joint6",
        "panda_joint7",
        "panda_finger_joint1",
    ];
    let text = common::binary::stdout(&succeeds(args(false)));
    let mut at = 0;
    for (i, joint) in joints.iter().enumerate() {
        let line = text[at..]
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(joint))
            .unwrap_or_else(|| panic!("{joint} not listed after the previous joint:\n{text}"));
        assert_eq!(
            line.split_whitespace().next(),
            Some(i.to_string().as_str()),
            "{line}"
        );
        at = text.find(line).unwrap();
    }
    assert!(text.contains("panda_finger_joint2") && text.contains("follows panda_finger_joint1"));
    assert!(text.contains("active self pairs: 20"), "{text}");
    assert!(text.contains("active scene pairs: 50"), "{text}");
    assert!(text.contains("allowed link pairs (SRDF): 35"), "{text}");

    let v: Value = serde_json::from_slice(&succeeds(args(true)).stdout).unwrap();
    let names: Vec<&str> = v["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, joints);
    assert_eq!(v["joints"][3]["upper"], -0.0698);
    assert_eq!(v["mimic_joints"][0]["name"], "panda_finger_joint2");
    assert_eq!(v["active_self_pairs"].as_array().unwrap().len(), 20);
    assert!(
        v["active_self_pairs"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(["panda_link5", "panda_leftfinger"]))
    );
    assert_eq!(v["active_scene_pairs"].as_array().unwrap().len(), 50);
    // The 9 meshes: hulls keep every vertex (102 or 152) and hold the mesh (max outside ≤
    // 1e-12 m, relative to a link about 0.2 m across); boxes are the fingers'.
    let shapes = v["shapes"].as_array().unwrap();
    assert_eq!(shapes.len(), 11);
    let mut meshes = 0;
    for link in shapes {
        for shape in link["shapes"].as_array().unwrap() {
            if shape["kind"] == "hull" {
                meshes += 1;
                assert_eq!(shape["hull_vertices"], shape["mesh_vertices"], "{shape}");
                assert!(shape["max_outside"].as_f64().unwrap() <= 1e-12, "{shape}");
                let ratio = shape["volume_ratio"].as_f64().unwrap();
                assert!((0.999..=1.0 + 1e-9).contains(&ratio), "{shape}");
            } else {
                assert_eq!(shape["kind"], "box");
            }
        }
    }
    assert_eq!(meshes, 9);
    assert_eq!(v["obstacles"].as_array().unwrap().len(), 5);
}

/// `robot check --help` explains the output and the flags, with an example.
#[test]
fn help_explains_the_output() {
    let out = succeeds(["robot", "check", "--help"]);
    let text = common::binary::stdout(&out);
    common::binary::assert_mentions(
        &text,
        &[
            "--distance",
            "closest pair",
            "--allow-outside-limits",
            "Examples:",
            "--random",
            "--cache-dir",
        ],
    );
    let out = polyquery(["robot", "info", "--help"]);
    assert!(common::binary::stdout(&out).contains("Examples:"));
}

/// Runs `args` once whole and once per shard `K/3` (`--shard K/3` appended), and checks that
/// the shards' lines, merged and sorted by `index`, are byte for byte the whole run's, that
/// each shard holds exactly the blocks of 64 dealt to it, and that the summary names the
/// shard. Shared shape with `robot_motion_cli.rs` and `batch.rs`.
fn shards_merge_into_the_whole_run(args: &[String], items: usize) {
    let whole = succeeds(args);
    let whole_lines: Vec<String> = common::binary::stdout(&whole)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(whole_lines.len(), items);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let mut sharded = args.to_vec();
        sharded.extend([
            "--shard".to_string(),
            format!("{k}/3"),
            "--json".to_string(),
        ]);
        let out = succeeds(&sharded);
        let v = summary(&out);
        assert_eq!(
            (v["shard"]["k"].as_u64(), v["shard"]["n"].as_u64()),
            (Some(k), Some(3))
        );
        assert_eq!(v["shard"]["of"], items);
        shards.push(common::binary::stdout(&out));
    }
    common::shards::assert_merge_into_whole(&shards, &whole_lines);
}

/// (9) `--shard K/3` on 500 random configurations with distances: the three shards' lines,
/// sorted by index, are exactly the whole run's (distances to the last digit: a shard runs
/// the whole run's blocks of 64 on the same fresh workspaces); a malformed shard is exit 2.
#[test]
fn shards_merge_into_the_whole_check() {
    let args = check_args(&["--random", "500", "--seed", "3", "--distance"]);
    shards_merge_into_the_whole_run(&args, 500);
    for bad in ["0/3", "4/3", "x/y", "3", "1/0", "1/3/3"] {
        let mut a = args.clone();
        a.extend(["--shard".to_string(), bad.to_string()]);
        let out = exits_with(&a, 2);
        assert!(stderr(&out).contains("is not a shard"), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

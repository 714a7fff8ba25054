//! The examples and figures of the pages that `python/tests/test_docs.py` does not run, held
//! to what the code does: docs/cli.md's `not run` transcripts (error examples and a batch run
//! on files of yours) run here on files the test writes, their every shown line compared;
//! docs/robots.md's motion the sampled check misses (its lines of the two output files, the
//! sampled run's count and the interval of the segment that collides); docs/planning.md's
//! number of problems one page shows. Runs in about 4 s (the Panda's shapes built once, its
//! 2,000 motions checked twice).

use crate::common::binary::{s, stdout, succeeds};
use crate::common::panda;
use crate::quoted;
use polyquery::robot::LimitCheck;
use polyquery_cli::robot::{MAX_PAGE_PROBLEMS, RobotSources, load, parse_motions};
use std::path::Path;
use std::process::Command;

/// The console blocks of `page` marked `<!-- not run: … -->`, each as its lines.
fn not_run_blocks(page: &str) -> Vec<Vec<String>> {
    let text = quoted::page(page);
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("<!-- not run") && lines.get(i + 1) == Some(&"```console") {
            let body = lines[i + 2..].iter().take_while(|l| **l != "```");
            blocks.push(body.map(|l| l.to_string()).collect());
        }
    }
    blocks
}

/// The commands of a transcript (the text after `$ `, without a trailing `# comment`), each
/// with the output lines shown after it.
fn transcript(block: &[String]) -> Vec<(String, Vec<String>)> {
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    for line in block {
        match (line.strip_prefix("$ "), runs.last_mut()) {
            (Some(command), _) => {
                let command = command.split(" # ").next().unwrap_or(command).trim();
                runs.push((command.to_string(), Vec::new()));
            }
            (None, Some((_, shown))) => shown.push(line.clone()),
            (None, None) => panic!("output before a command: {line}"),
        }
    }
    runs
}

/// Runs `command` (`polyquery …`, split at spaces) in `dir`: its stdout and stderr lines.
fn run_in(dir: &Path, command: &str) -> Vec<String> {
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args[0], "polyquery", "{command}");
    let out = Command::new(env!("CARGO_BIN_EXE_polyquery"))
        .args(&args[1..])
        .current_dir(dir)
        .output()
        .expect("the polyquery binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines().map(String::from).collect()
}

/// docs/cli.md's `not run` transcripts, run on the files they stand for: four points in the
/// plane z = 0 (`flat.obj`), the unit cube as `a.obj` and `b.obj`, and a batch file whose
/// lines 1, 4 and 5 give the lines shown (a cube 3 apart, a ray from x = −5, a missing file).
/// Every line a transcript shows is printed, in order (the batch's lines 2 and 3 are not
/// shown); and these are all of the page's `not run` commands.
#[test]
fn cli_page_not_run_examples_print_what_it_shows() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n");
    let mut cube = String::new();
    for i in 0..8 {
        cube += &format!("v {} {} {}\n", i & 1, i >> 1 & 1, i >> 2 & 1);
    }
    for name in ["a.obj", "b.obj", "cube.obj"] {
        write(name, &cube);
    }
    let far = r#""pose_b": {"translation": [3, 0, 0]}"#;
    write(
        "queries.jsonl",
        &[
            format!(r#"{{"id": 1, "op": "intersects", "a": "cube.obj", "b": "cube.obj", {far}}}"#),
            format!(r#"{{"id": 2, "op": "distance", "a": "cube.obj", "b": "cube.obj", {far}}}"#),
            r#"{"id": 3, "op": "penetration_depth", "a": "cube.obj", "b": "cube.obj"}"#.into(),
            r#"{"id": 4, "op": "raycast", "a": "cube.obj", "origin": [-5, 0.5, 0.5], "direction": [1, 0, 0]}"#.into(),
            r#"{"id": 5, "op": "distance", "a": "cube.obj", "b": "nowhere.obj"}"#.into(),
        ]
        .join("\n"),
    );
    let mut commands = Vec::new();
    for block in not_run_blocks("docs/cli.md") {
        for (command, shown) in transcript(&block) {
            let printed = run_in(dir.path(), &command);
            let mut rest = printed.iter();
            for line in &shown {
                assert!(
                    rest.any(|p| p == line),
                    "`{command}` does not print, in this order, {line}\nit prints:\n{}",
                    printed.join("\n")
                );
            }
            commands.push(command);
        }
    }
    assert_eq!(
        commands,
        [
            "polyquery hull flat.obj",
            "polyquery query distance a.obj b.obj --pose-b 3,0,0,2,0,0,0",
            "polyquery batch queries.jsonl --threads 2",
        ]
    );
}

/// docs/planning.md quotes how many problems one `--html` page shows.
#[test]
fn planning_page_quotes_the_problems_one_page_shows() {
    quoted::assert_quotes(
        "docs/planning.md",
        &format!("one page holds the first {MAX_PAGE_PROBLEMS} problems behind a picker"),
    );
}

/// docs/robots.md's 2,000 random Panda motions (`--random 2000 --max-step 1`, default seed):
/// the lines it shows of the certified and sampled (0.01 rad) outputs are the binary's;
/// motion 846 is the only one sampling calls free where the certified check finds a contact,
/// so the sampled run counts one collision less (the page's count); and on a grid of `s`
/// 1e-5 apart around the contact the configurations `q(s)` at distance 0 (as `robot check
/// --distance` reports them) are one run from `s ≈ 0.6952` to `0.6957` (rounded to 4 decimals,
/// as the page writes them), about 5e-4 of the segment.
#[test]
fn robots_page_motion_sampling_misses() {
    const PAGE: &str = "docs/robots.md";
    let dir = tempfile::tempdir().unwrap();
    let saved = s(&dir.path().join("motions.txt"));
    // One shape cache for the three loads: the first builds the shapes, the others read them.
    let cache = dir.path().join("cache");
    let run = |extra: &[&str]| {
        let mut args: Vec<String> = panda::robot_args("motion", &[]);
        args.retain(|a| a != "--no-cache");
        args.extend(["--cache-dir".to_string(), s(&cache)]);
        let more = ["--random", "2000", "--max-step", "1"].iter().chain(extra);
        args.extend(more.map(|a| a.to_string()));
        let lines = stdout(&succeeds(args));
        lines.lines().map(String::from).collect::<Vec<_>>()
    };
    let certified = run(&["--save-motions", &saved]);
    let sampled = run(&["--resolution", "0.01"]);
    for shown in [&certified[3], &certified[846], &sampled[846]] {
        quoted::assert_quotes(PAGE, shown);
    }
    let free = |line: &str| line.contains(r#""free":true"#);
    let missed: Vec<usize> = (0..certified.len())
        .filter(|&i| !free(&certified[i]) && free(&sampled[i]))
        .collect();
    assert_eq!(missed, [846]);
    let colliding = sampled.iter().filter(|l| !free(l)).count();
    quoted::assert_quotes(PAGE, &format!("2000 motions, {colliding} colliding"));

    let loaded = load(&RobotSources {
        urdf: panda::dir().join("panda.urdf"),
        srdf: Some(panda::dir().join("panda.srdf")),
        scene: Some(panda::dir().join("scene_table_shelf.json")),
        cache_dir: Some(cache.clone()),
        ..RobotSources::default()
    })
    .unwrap();
    let checker = &loaded.checker;
    let text = std::fs::read(&saved).unwrap();
    let motions =
        parse_motions(&text, "motions.txt", checker.robot(), LimitCheck::Enforce).unwrap();
    let (q0, q1) = &motions[846];
    let mut ws = checker.workspace();
    // As `robot check --distance` says: distance 0 (some pair collides) or more.
    let mut collides = |s: f64| {
        let q: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect();
        checker.distance_with(&mut ws, &q).unwrap().distance == 0.0
    };
    let grid: Vec<f64> = (0..=1000).map(|k| 0.69 + k as f64 * 1e-5).collect();
    let hits: Vec<f64> = grid.iter().copied().filter(|&s| collides(s)).collect();
    let (first, last) = (hits[0], hits[hits.len() - 1]);
    assert!(
        first > grid[0] && last < grid[grid.len() - 1],
        "{first} {last}"
    );
    // One run: every grid point between the first and the last collides.
    assert_eq!(hits.len(), ((last - first) / 1e-5).round() as usize + 1);
    quoted::assert_quotes(
        PAGE,
        &format!("colliding from `s ≈ {first:.4}` to `{last:.4}`"),
    );
    // Each grid point stands for a cell of 1e-5.
    let span = hits.len() as f64 * 1e-5;
    quoted::assert_quotes(PAGE, &format!("for about {span:.0e} of the segment"));
}

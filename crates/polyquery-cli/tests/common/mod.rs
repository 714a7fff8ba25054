//! Helpers shared by the command line's integration tests: running the built `polyquery`
//! binary (`cli`, `nvm_cli`, `batch`, `io`, `magnitude_cli`), bundled and written mesh files
//! (`cli`, `nvm_cli`), and the bundled Panda's arguments (`robot_cli`, `robot_motion_cli`).
//!
//! Every test module of `tests/tests.rs` reaches it as `crate::common`.
#![allow(dead_code)] // Each test binary uses a different subset of these helpers.

pub mod binary {
    //! Running the built `polyquery` binary and reading what it printed and wrote.

    use serde_json::Value;
    use std::ffi::{OsStr, OsString};
    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Output, Stdio};

    pub use super::folders::files_in;

    /// Runs the binary with `args` and returns its output, whatever the exit status.
    pub fn polyquery<I, S>(args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Command::new(env!("CARGO_BIN_EXE_polyquery"))
            .args(args)
            .output()
            .expect("the polyquery binary runs")
    }

    /// Runs the binary with `args`, writing `input` to its standard input.
    pub fn polyquery_with_stdin<I, S>(args: I, input: &[u8]) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_polyquery"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the polyquery binary starts");
        child
            .stdin
            .take()
            .expect("a piped stdin")
            .write_all(input)
            .expect("stdin written");
        child.wait_with_output().expect("the polyquery binary runs")
    }

    /// Standard output as text (invalid UTF-8 replaced, for messages).
    pub fn stdout(out: &Output) -> String {
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Standard error as text (invalid UTF-8 replaced, for messages).
    pub fn stderr(out: &Output) -> String {
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// Asserts that the run exited with `code` (0: success), showing both streams if not.
    pub fn assert_exit(out: &Output, code: i32) {
        assert_eq!(
            out.status.code(),
            Some(code),
            "status {:?}\nstdout: {}\nstderr: {}",
            out.status,
            stdout(out),
            stderr(out)
        );
    }

    /// Runs the binary with `args` and expects exit status `code` (0: success), whatever it
    /// printed; returns the output.
    pub fn exits_with<I, S>(args: I, code: i32) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = polyquery(args);
        assert_exit(&out, code);
        out
    }

    /// Runs the binary with `args` and expects success; returns the output.
    pub fn succeeds<I, S>(args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        exits_with(args, 0)
    }

    /// Standard output parsed as one JSON value per line; it must be valid UTF-8.
    pub fn stdout_json_lines(out: &Output) -> Vec<Value> {
        std::str::from_utf8(&out.stdout)
            .expect("UTF-8 stdout")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }

    /// `path` as a command-line argument.
    pub fn s(path: &Path) -> String {
        path.display().to_string()
    }

    /// A JSON number.
    pub fn f(v: &Value) -> f64 {
        v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
    }

    /// A JSON array of exactly three numbers.
    pub fn triple(v: &Value) -> [f64; 3] {
        let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
        assert_eq!(a.len(), 3);
        [f(&a[0]), f(&a[1]), f(&a[2])]
    }

    /// Runs and expects success; returns stdout.
    pub fn ok<I, S>(args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        stdout(&succeeds(args))
    }

    /// Runs with `--json` appended and expects success; returns the parsed object.
    pub fn ok_json<I, S>(args: I) -> Value
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut all: Vec<OsString> = args.into_iter().map(|a| a.as_ref().into()).collect();
        all.push("--json".into());
        let text = ok(&all);
        let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(value.is_object(), "{text}");
        value
    }

    /// `query OP ARGS… --json` (bodies, then flags), expecting success: [`ok_json`] of
    /// `["query", op] ++ args`.
    pub fn query_json(op: &str, args: &[&str]) -> Value {
        ok_json(["query", op].iter().chain(args))
    }

    /// Runs and expects failure with `code`, nothing on stdout and stderr `error: …`; returns
    /// stderr.
    pub fn fails<I, S>(args: I, code: i32) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = exits_with(args, code);
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{err}");
        assert!(out.stdout.is_empty(), "stdout: {}", stdout(&out));
        err
    }

    /// [`fails`], and stderr contains every one of `needles`; returns stderr.
    pub fn fails_naming<I, S>(args: I, code: i32, needles: &[&str]) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().into()).collect();
        let err = fails(&args, code);
        for needle in needles {
            assert!(err.contains(needle), "{needle:?} not in ({args:?}): {err}");
        }
        err
    }

    /// `text` contains every one of `words`.
    pub fn assert_mentions(text: &str, words: &[&str]) {
        for word in words {
            assert!(text.contains(word), "{word} missing from:\n{text}");
        }
    }

    /// `command --help` names every one of `words`, and `help command` prints the same text.
    pub fn assert_help_mentions(command: &str, words: &[&str]) {
        let help = ok([command, "--help"]);
        assert_mentions(&help, words);
        assert_eq!(help, ok(["help", command]), "help {command}");
    }
}

pub mod browser;
pub mod folders;

pub mod meshes {
    //! Mesh files for the command line: the bundled ones in `data/` and small written ones.

    use std::path::{Path, PathBuf};

    /// The path of a bundled mesh in `data/`.
    pub fn data(name: &str) -> String {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("data")
            .join(name)
            .display()
            .to_string()
    }

    /// Writes an OBJ with the 8 corners of `[lo, hi]³` (points only).
    pub fn write_cube(dir: &Path, name: &str, lo: f64, hi: f64) -> PathBuf {
        let path = dir.join(name);
        let mut text = String::new();
        for i in 0..8 {
            let c = |bit: u32| if i >> bit & 1 == 1 { hi } else { lo };
            text += &format!("v {} {} {}\n", c(0), c(1), c(2));
        }
        std::fs::write(&path, text).unwrap();
        path
    }
}

pub mod shards {
    //! `--shard K/N` runs (`batch`, `robot check`, `robot motion`): their lines merge back
    //! into the whole run's.

    use serde_json::Value;

    /// Asserts that `shards[k - 1]`, the standard output of `--shard k/N` with
    /// `N = shards.len()`, holds only JSON lines whose `index` lies in a block of 64 dealt to
    /// shard k (`⌊index / 64⌋ mod N + 1 = k`), and that the shards' lines sorted by `index`
    /// are exactly `whole`, the whole run's lines.
    pub fn assert_merge_into_whole(shards: &[String], whole: &[String]) {
        let n = shards.len() as u64;
        let mut merged: Vec<(u64, &str)> = Vec::new();
        for (k, out) in (1..).zip(shards) {
            for line in out.lines() {
                let index = serde_json::from_str::<Value>(line).unwrap()["index"]
                    .as_u64()
                    .unwrap();
                assert_eq!((index / 64) % n + 1, k, "{line} in shard {k}");
                merged.push((index, line));
            }
        }
        merged.sort_by_key(|(i, _)| *i);
        let merged: Vec<&str> = merged.into_iter().map(|(_, l)| l).collect();
        assert_eq!(merged, whole);
    }
}

/// The library's test helpers for special files (FIFOs fed forever, random meshes), shared
/// with the command line's tests: one file, not a copy.
#[path = "../../../../tests/common/files.rs"]
pub mod files;

pub mod panda {
    //! The bundled Franka Panda (`data/robots/panda/`) as command-line arguments.

    use super::binary::{exits_with, s, stderr};
    use serde_json::Value;
    use std::path::{Path, PathBuf};

    /// `data/robots/panda` of this repository.
    pub fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda")
    }

    /// The path of a file of the bundled Panda, as an argument.
    pub fn file(name: &str) -> String {
        s(&dir().join(name))
    }

    /// `robot COMMAND` on the Panda with its SRDF and the table-and-shelf scene, without a
    /// cache (nothing written to the user's cache folder), plus `extra`.
    pub fn robot_args(command: &str, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = vec![
            "robot".into(),
            command.into(),
            file("panda.urdf"),
            "--srdf".into(),
            file("panda.srdf"),
            "--scene".into(),
            file("scene_table_shelf.json"),
            "--no-cache".into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        args
    }

    /// The bundled configurations' lines (`configs_1000.txt`, 8 values each).
    pub fn configs() -> Vec<String> {
        std::fs::read_to_string(dir().join("configs_1000.txt"))
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    /// The first three of `good`, then a comment (line 4), `bad` (line 5) and the rest of
    /// `good`, as one text.
    pub fn with_bad_fifth_line(good: &[String], bad: &str) -> String {
        let mut text = good[..3].join("\n");
        text.push_str("\n# a comment\n");
        text.push_str(bad);
        text.push('\n');
        text.push_str(&good[3..].join("\n"));
        text
    }

    /// Writes `text` as `dir/name` and returns the path as an argument.
    pub fn write(dir: &Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        s(&path)
    }

    /// A robot command's summary object: the last line of stderr (warnings may come first).
    pub fn summary(out: &std::process::Output) -> Value {
        let text = stderr(out);
        let last = text
            .lines()
            .last()
            .unwrap_or_else(|| panic!("empty stderr"));
        serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// A failed run of a robot command: its stderr, the arguments it ran with (`--out F`
    /// added), `F`, and the folder holding `F` (removed when dropped).
    pub struct Failed {
        pub message: String,
        pub args: Vec<String>,
        pub out: PathBuf,
        pub dir: tempfile::TempDir,
    }

    /// Runs `args` plus `--out F` (F in a fresh folder) and expects exit status 2, stderr
    /// containing every one of `needles`, nothing on stdout and F never written.
    pub fn fails_without_output(args: &[String], needles: &[&str]) -> Failed {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.jsonl");
        let mut with_out = args.to_vec();
        with_out.extend(["--out".to_string(), s(&out)]);
        let run = exits_with(&with_out, 2);
        let message = stderr(&run);
        for needle in needles {
            assert!(message.contains(needle), "{needle:?} not in: {message}");
        }
        assert!(!out.exists(), "--out written although the run failed");
        assert!(run.stdout.is_empty());
        Failed {
            message,
            args: with_out,
            out,
            dir,
        }
    }
}

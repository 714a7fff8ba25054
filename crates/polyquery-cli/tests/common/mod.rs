//! Helpers shared by the command line's integration tests: running the built `polyquery`
//! binary (`cli`, `batch`, `io`, `magnitude_cli`), and writing mesh files.
//!
//! Each test file is its own crate and uses only part of this module (`mod common;`).
#![allow(dead_code)] // Each test binary uses a different subset of these helpers.

pub mod binary {
    //! Running the built `polyquery` binary and reading what it printed and wrote.

    use serde_json::Value;
    use std::ffi::OsStr;
    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Output, Stdio};

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

    /// The names of the entries of `dir`, sorted.
    pub fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
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
}

pub mod files {
    //! Special files for the input and output tests: FIFOs fed forever, random meshes.

    use polyquery::mesh::write_obj;
    use polyquery::{Point, Polytope};
    use std::io::Write as _;
    use std::path::{Path, PathBuf};

    /// Makes a FIFO at `path` with the `mkfifo` command; `false` when the system has none.
    pub fn mkfifo(path: &Path) -> bool {
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Makes a FIFO at `path` and a thread that writes `chunk` into it forever: it blocks
    /// until a reader opens the FIFO, and stops when the reader closes it (the write fails).
    /// `false` when the system has no `mkfifo`.
    pub fn endless_fifo(path: &Path, chunk: &'static [u8]) -> bool {
        if !mkfifo(path) {
            return false;
        }
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) else {
                return;
            };
            while f.write_all(chunk).is_ok() {}
        });
        true
    }

    /// Writes the box `[lo, hi]³` as an OBJ file `dir/name`.
    pub fn write_box(dir: &Path, name: &str, lo: f64, hi: f64) -> PathBuf {
        let p = Polytope::axis_aligned_box(Point::new(lo, lo, lo), Point::new(hi, hi, hi))
            .expect("a proper box");
        let path = dir.join(name);
        let mut bytes = Vec::new();
        write_obj(&p, &mut bytes).expect("OBJ text");
        std::fs::write(&path, bytes).expect("OBJ written");
        path
    }

    /// Triangles (corner triples) of the faces of `p`, fanned.
    pub fn triangles(p: &Polytope) -> Vec<[Point; 3]> {
        let mut out = Vec::new();
        for f in p.face_ids() {
            let v: Vec<Point> = p.face_vertices(f).iter().map(|&v| *p.point(v)).collect();
            for k in 1..v.len().saturating_sub(1) {
                out.push([v[0], v[k], v[k + 1]]);
            }
        }
        out
    }

    /// A binary STL of `triangles` (coordinates rounded to `f32`), with `header` (padded to
    /// 80 bytes).
    pub fn binary_stl(triangles: &[[[f32; 3]; 3]], header: &[u8]) -> Vec<u8> {
        let mut bytes = vec![0u8; 80];
        bytes[..header.len().min(80)].copy_from_slice(&header[..header.len().min(80)]);
        bytes.extend_from_slice(&(triangles.len() as u32).to_le_bytes());
        for t in triangles {
            bytes.extend_from_slice(&[0u8; 12]);
            for v in t {
                for c in v {
                    bytes.extend_from_slice(&c.to_le_bytes());
                }
            }
            bytes.extend_from_slice(&[0u8; 2]);
        }
        bytes
    }

    /// An ASCII STL of `triangles`, each coordinate written as `text(x)`.
    pub fn ascii_stl(triangles: &[[Point; 3]], text: impl Fn(f64) -> String) -> String {
        let mut s = String::from("solid test\n");
        for t in triangles {
            s.push_str("  facet normal 0 0 0\n    outer loop\n");
            for v in t {
                s.push_str(&format!(
                    "      vertex {} {} {}\n",
                    text(v.x),
                    text(v.y),
                    text(v.z)
                ));
            }
            s.push_str("    endloop\n  endfacet\n");
        }
        s.push_str("endsolid test\n");
        s
    }
}

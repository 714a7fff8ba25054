//! Loading a `.nvm` file streamed: the file is read once, front to back, straight into the
//! map's arrays, so a load never holds the file beside the map (checked by the peak resident
//! memory of a child process); a stream of unknown length (a pipe), delivered in pieces of
//! any size, loads bit-identically and is refused with the same typed errors as a file.

use crate::common::answers::assert_same_answers;
use polyquery::format::{self, FormatError, Metadata};
use polyquery::hull::convex_hull;
use polyquery::input::{self, Input};
use polyquery::read::{ReadError, ReadLimits};
use polyquery::{NormalVectorMap, Vector};
use polyquery_synth::{self as synth, Shape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

fn sphere_map(n: usize, seed: u64) -> NormalVectorMap {
    let points = synth::generate(Shape::Sphere, n, seed).unwrap();
    NormalVectorMap::build_located(convex_hull(&points).expect("hull")).expect("map")
}

fn metadata() -> Metadata {
    Metadata::new("stream.obj", 1, 1.0, 1.0)
}

fn here() -> PathBuf {
    PathBuf::from("streamed.nvm")
}

/// A stream of unknown length that hands out its bytes in pieces of 1 to 13 bytes (and
/// sometimes a large piece), as a pipe may.
struct Pieces<'a> {
    bytes: &'a [u8],
    rng: ChaCha8Rng,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let most = if self.rng.random_bool(0.1) {
            4096
        } else {
            self.rng.random_range(1..=13)
        };
        let n = most.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn stream(bytes: &[u8], seed: u64, cap: u64) -> Result<format::SavedMap, FormatError> {
    let pieces = Pieces {
        bytes,
        rng: ChaCha8Rng::seed_from_u64(seed),
    };
    format::decode_reader(pieces, None, cap, &here())
}

fn random_directions(rng: &mut ChaCha8Rng, n: usize) -> Vec<Vector> {
    (0..n)
        .map(|_| {
            Vector::new(
                rng.random::<f64>() - 0.5,
                rng.random::<f64>() - 0.5,
                rng.random::<f64>() - 0.5,
            )
        })
        .filter(|d| d.norm() > 1e-3)
        .collect()
}

/// Every support query on random directions gives the built map's vertex, bit for bit.
fn assert_same_random_answers(built: &NormalVectorMap, loaded: &NormalVectorMap, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    assert_same_answers(built, loaded, &random_directions(&mut rng, 3000), "");
}

#[test]
fn a_stream_in_pieces_loads_bit_identically() {
    for (n, seed) in [(200, 31), (2500, 32), (9000, 33)] {
        let built = sphere_map(n, seed);
        let meta = metadata();
        let bytes = format::encode(&built, &meta);
        let saved = stream(&bytes, seed, u64::MAX).unwrap();
        assert_eq!(saved.file_bytes, bytes.len() as u64);
        assert_eq!(saved.metadata, meta);
        // Every stored array came back as it was.
        assert_eq!(format::encode(&saved.map, &meta), bytes);
        assert_same_random_answers(&built, &saved.map, seed + 100);
    }
}

#[test]
fn a_damaged_stream_is_refused_like_a_damaged_file() {
    let bytes = format::encode(&sphere_map(150, 41), &metadata());
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    // Cut anywhere: the stream ends early.
    for k in 0..60 {
        let cut = bytes.len() * k / 60;
        let err = stream(&bytes[..cut], k as u64, u64::MAX).unwrap_err();
        assert!(
            matches!(err, FormatError::Truncated { .. }),
            "cut at {cut}: {err}"
        );
        assert!(err.to_string().contains("streamed.nvm"), "{err}");
    }
    // Flipped bytes: a typed error, and one flipped bit in the body is a checksum mismatch
    // (the rest of the stream is still hashed when the content looks wrong).
    for seed in 0..200 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + seed % 3 {
            let at = rng.random_range(0..damaged.len());
            damaged[at] ^= rng.random_range(1..=255u8);
        }
        assert!(stream(&damaged, seed, u64::MAX).is_err(), "seed {seed}");
    }
    for at in (40..bytes.len() - 4).step_by(97) {
        let mut one = bytes.clone();
        one[at] ^= 0x04;
        match stream(&one, at as u64, u64::MAX) {
            Err(FormatError::ChecksumMismatch { .. }) => {}
            other => panic!("bit flipped at {at}: {:?}", other.map(|_| ())),
        }
    }
    // Bytes after the declared end.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        stream(&longer, 1, u64::MAX),
        Err(FormatError::Corrupt { .. })
    ));
    // A header declaring more than the cap is refused before the body is read.
    let cap = bytes.len() as u64 - 1;
    match stream(&bytes, 2, cap) {
        Err(FormatError::Read(ReadError::TooLarge { limit, .. })) => assert_eq!(limit, cap),
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(stream(&bytes, 3, bytes.len() as u64).is_ok());
}

/// Makes a FIFO and a thread writing `bytes` into it once; `false` without `mkfifo`.
fn fifo_with(path: &Path, bytes: Vec<u8>) -> bool {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) {
                let _ = f.write_all(&bytes);
            }
        });
    }
    made
}

#[test]
fn a_pipe_is_streamed_under_the_cap() {
    let built = sphere_map(700, 51);
    let bytes = format::encode(&built, &metadata());
    let dir = tempfile::tempdir().unwrap();
    let limits = ReadLimits::new(1 << 30);
    // Told by its magic bytes (no extension), through the input loader.
    let pipe = dir.path().join("map-pipe");
    if !fifo_with(&pipe, bytes.clone()) {
        return;
    }
    match input::load(&pipe, &limits).unwrap() {
        Input::Nvm(saved) => assert_same_random_answers(&built, &saved.map, 52),
        Input::Mesh { .. } => panic!("a .nvm stream read as a mesh"),
    }
    // Through the format loader, with a cap below its size.
    let pipe = dir.path().join("capped.nvm");
    assert!(fifo_with(&pipe, bytes.clone()));
    let small = ReadLimits::new(bytes.len() as u64 / 2);
    let err = format::load_with(&pipe, &small).unwrap_err();
    assert!(
        matches!(err, FormatError::Read(ReadError::TooLarge { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("capped.nvm"), "{err}");
    // /dev/zero is no .nvm file, found at its first byte.
    let zero = Path::new("/dev/zero");
    if zero.exists() {
        let err = format::load_with(zero, &limits).unwrap_err();
        assert!(matches!(err, FormatError::NotAnNvmFile { .. }), "{err}");
    }
}

/// A `kB` field of `/proc/self/status`, in bytes.
#[cfg(target_os = "linux")]
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// The child half of [`a_load_holds_the_file_once`]: loads the file named by the
/// environment and prints its peak resident memory before and after.
#[cfg(target_os = "linux")]
#[test]
fn load_in_child_process() {
    let Ok(path) = std::env::var("POLYQUERY_TEST_LOAD_CHILD") else {
        return;
    };
    // A small map first: the loader's code pages (file-backed, counted in the resident
    // memory, more of them in a bigger test binary) are then in before the peak is read.
    // Its own data is counted back in (`before` less it), so the ratio cannot flatter.
    let warm = std::env::var("POLYQUERY_TEST_LOAD_WARM").unwrap();
    let small = format::load(Path::new(&warm)).unwrap().map;
    let small_bytes = (small.memory_bytes() + small.polytope_bytes()) as u64;
    drop(small);
    let before = status_bytes("VmHWM:") - small_bytes;
    let saved = format::load(Path::new(&path)).unwrap();
    let after = status_bytes("VmHWM:");
    let structure = saved.map.memory_bytes() + saved.map.polytope_bytes();
    println!("PEAK {before} {after} {structure}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_load_holds_the_file_once() {
    // A map of about 8.6 MB (22,000 sphere points at about 393 bytes a vertex), loaded in a
    // fresh process: the peak resident memory the load adds stays within 1.15× the loaded
    // structure (reading the file whole, then decoding it, took 2×). The margin covers the
    // loader's scratch (a byte per record entry, the record starts, the polytope's adjacency
    // rebuilt from its faces) and the allocator's slack; the process's own start-up memory
    // and the loader's code pages are excluded by measuring the peak after loading a small
    // map first.
    let built = sphere_map(22_000, 61);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("peak.nvm");
    format::save(&path, &built, &metadata()).unwrap();
    let warm = dir.path().join("warm.nvm");
    format::save(&warm, &sphere_map(200, 62), &metadata()).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "nvm_stream::load_in_child_process",
            "--nocapture",
        ])
        .env("POLYQUERY_TEST_LOAD_CHILD", &path)
        .env("POLYQUERY_TEST_LOAD_WARM", &warm)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        // The harness may print the test's name on the same line, before the PEAK line.
        .find_map(|l| l.split_once("PEAK ").map(|(_, rest)| rest))
        .unwrap_or_else(|| {
            panic!(
                "no PEAK line: {text} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let v: Vec<f64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
    let (before, after, structure) = (v[0], v[1], v[2]);
    assert!(
        structure > 8e6,
        "a structure large enough to measure: {structure}"
    );
    let ratio = (after - before) / structure;
    assert!(
        ratio <= 1.15,
        "the load's peak is {ratio:.3}× the structure ({after} − {before} bytes for {structure})"
    );
}

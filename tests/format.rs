//! The saved `.nvm` file: round trips answer bit for bit like the built map, and every kind of
//! damaged or crafted file is a typed error (never a panic), in process.

use crate::common::answers::assert_same_answers;
use polyquery::format::{self, FormatError, Metadata};
use polyquery::hull::convex_hull;
use polyquery::mesh::Mesh;
use polyquery::{LinearScan, NormalVectorMap, Point, SupportMap, Vector};
use polyquery_synth::{self as synth, Shape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

fn map_of(points: &[Point]) -> NormalVectorMap {
    NormalVectorMap::build(convex_hull(points).expect("hull")).expect("map")
}

fn data_map(name: &str) -> NormalVectorMap {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    map_of(&Mesh::load(&path).expect("mesh").points)
}

fn metadata() -> Metadata {
    Metadata::new("test.obj", 1234, 12.5, 3.25)
}

fn here() -> PathBuf {
    PathBuf::from("crafted.nvm")
}

/// Axis directions, their diagonals, and `random` Gaussian directions.
fn directions(rng: &mut ChaCha8Rng, random: usize) -> Vec<Vector> {
    let mut out = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    out.push(Vector::new(x as f64, y as f64, z as f64));
                }
            }
        }
    }
    for _ in 0..random {
        let d = Vector::new(
            rng.random::<f64>() - 0.5,
            rng.random::<f64>() - 0.5,
            rng.random::<f64>() - 0.5,
        );
        if d != Vector::zeros() {
            out.push(d);
        }
    }
    out
}

/// A small map (a few kB) for the exhaustive damage tests. Built to answer by point location
/// (`build` would answer by a linear scan at this size), so that loaded damage reaches the
/// locators and the polish.
fn small_map() -> NormalVectorMap {
    let points = synth::generate(Shape::Sphere, 60, 3).unwrap();
    let map = NormalVectorMap::build_located(convex_hull(&points).expect("hull")).expect("map");
    assert!(!map.answers_by_scan());
    map
}

fn decode(bytes: &[u8]) -> Result<format::SavedMap, FormatError> {
    format::decode(bytes, &here())
}

/// Recomputes the trailing CRC-32 after an edit (a crafted file with a valid checksum).
fn rechecksum(bytes: &mut [u8]) {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// The payload offsets of the three sections `[META, POLY, NVMS]`.
fn section_payloads(bytes: &[u8]) -> [usize; 3] {
    let mut at = 32;
    let mut out = [0; 3];
    for slot in &mut out {
        let len = u64_at(bytes, at + 8) as usize;
        *slot = at + 16;
        at += 16 + len;
    }
    out
}

#[test]
fn round_trip_answers_bit_identically_and_rebuilds_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let maps = vec![
        ("bunny", data_map("bunny_npm.obj")),
        ("g1_head", data_map("g1_head_link.obj")),
        (
            "sphere",
            map_of(&synth::generate(Shape::Sphere, 3000, 1).unwrap()),
        ),
        ("box", map_of(&synth::generate(Shape::Box, 500, 2).unwrap())),
        (
            "needle",
            map_of(&synth::generate(Shape::Needle, 800, 4).unwrap()),
        ),
        (
            "disk",
            map_of(&synth::generate(Shape::Disk, 300, 5).unwrap()),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, built) in maps {
        let path = dir.path().join(format!("{name}.nvm"));
        let meta = metadata();
        let written = format::save(&path, &built, &meta).unwrap();
        let saved = format::load(&path).unwrap();
        assert_eq!(saved.file_bytes, written);
        assert_eq!(saved.format_version, format::FORMAT_VERSION);
        // The build times are the original's: the loader called no builder.
        assert_eq!(saved.metadata, meta, "{name}");
        let loaded = &saved.map;
        let (p, q) = (built.polytope(), loaded.polytope());
        assert_eq!(
            (p.num_vertices(), p.num_edges(), p.num_faces()),
            (q.num_vertices(), q.num_edges(), q.num_faces()),
            "{name}"
        );
        assert_eq!(built.num_segments(), loaded.num_segments(), "{name}");
        assert_eq!(built.num_nodes(), loaded.num_nodes(), "{name}");
        assert_eq!(built.num_slabs(), loaded.num_slabs(), "{name}");
        assert_eq!(built.num_cells(), loaded.num_cells(), "{name}");
        assert_eq!(built.answers_by_scan(), loaded.answers_by_scan(), "{name}");
        // Capacities may differ (the loader allocates exactly), never more than the built map.
        assert!(loaded.memory_bytes() <= built.memory_bytes(), "{name}");
        // Encoding the loaded map gives the same bytes: every stored array came back as it was.
        assert_eq!(
            format::encode(loaded, &meta),
            std::fs::read(&path).unwrap(),
            "{name}"
        );
        assert_same_answers(&built, loaded, &directions(&mut rng, 2000), name);
    }
}

#[test]
fn file_bytes_per_vertex_stay_flat() {
    // The loader reads every byte once (each section must end exactly at its length, or it
    // is corrupt), so its work is linear in the file size; the file size per vertex stays
    // flat as n grows, so loading is O(n).
    let per_vertex: Vec<f64> = [500usize, 4000, 32000]
        .iter()
        .map(|&n| {
            let map = map_of(&synth::generate(Shape::Sphere, n, 9).unwrap());
            let bytes = format::encode(&map, &metadata());
            let loaded = decode(&bytes).unwrap();
            assert_eq!(loaded.map.polytope().points(), map.polytope().points());
            bytes.len() as f64 / map.polytope().num_vertices() as f64
        })
        .collect();
    // Node copying stores O(1) expected nodes per segment: allow 25 % drift over 64× the size.
    assert!(
        per_vertex[2] < per_vertex[0] * 1.25,
        "bytes per vertex grow: {per_vertex:?}"
    );
}

#[test]
fn truncated_at_every_fiftieth_is_a_truncation_error() {
    let bytes = format::encode(&data_map("bunny_npm.obj"), &metadata());
    for k in 0..50 {
        let cut = bytes.len() * k / 50;
        match decode(&bytes[..cut]) {
            Err(FormatError::Truncated {
                path,
                needed,
                available,
                ..
            }) => {
                assert_eq!(path, here());
                assert_eq!(available, cut as u64);
                assert!(needed > available);
            }
            other => panic!("cut at {cut}: {:?}", other.map(|_| ())),
        }
    }
    // Also through a real file: an empty file.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.nvm");
    std::fs::write(&empty, b"").unwrap();
    let err = format::load(&empty).unwrap_err();
    assert!(
        matches!(err, FormatError::Truncated { available: 0, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("empty.nvm"), "{err}");
}

#[test]
fn flipped_bytes_are_detected() {
    let bytes = format::encode(&small_map(), &metadata());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for seed in 0..400 {
        let mut damaged = bytes.clone();
        let flips = 1 + seed % 4;
        for _ in 0..flips {
            let at = rng.random_range(0..damaged.len());
            damaged[at] ^= rng.random_range(1..=255u8);
        }
        let err = match decode(&damaged) {
            Err(e) => e,
            Ok(_) => panic!("seed {seed}: damage not detected"),
        };
        assert!(
            matches!(
                err,
                FormatError::ChecksumMismatch { .. }
                    | FormatError::NotAnNvmFile { .. }
                    | FormatError::UnsupportedVersion { .. }
                    | FormatError::Truncated { .. }
                    | FormatError::Corrupt { .. }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("crafted.nvm"), "{err}");
    }
    // One flipped bit in the body is always a checksum mismatch.
    let mut one = bytes.clone();
    let mid = one.len() / 2;
    one[mid] ^= 0x10;
    assert!(matches!(
        decode(&one),
        Err(FormatError::ChecksumMismatch { .. })
    ));
}

#[test]
fn wrong_version_wrong_magic_random_bytes() {
    let bytes = format::encode(&small_map(), &metadata());
    // 1 to 6 are earlier layouts: refused, not misread.
    for version in [0u32, 1, 2, 3, 4, 5, 6, 8, 99, u32::MAX] {
        let mut other = bytes.clone();
        other[8..12].copy_from_slice(&version.to_le_bytes());
        match decode(&other) {
            Err(FormatError::UnsupportedVersion {
                found, supported, ..
            }) => assert_eq!((found, supported), (version, format::FORMAT_VERSION)),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
    let mut magic = bytes.clone();
    magic[1] = b'X';
    assert!(matches!(
        decode(&magic),
        Err(FormatError::NotAnNvmFile { .. })
    ));
    assert!(matches!(
        decode(b"v 0 0 0\nv 1 0 0\n"),
        Err(FormatError::NotAnNvmFile { .. })
    ));
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..200 {
        let n = rng.random_range(0..4000);
        let mut noise: Vec<u8> = (0..n).map(|_| rng.random()).collect();
        assert!(decode(&noise).is_err());
        // Noise behind a valid magic and version, with and without a valid checksum.
        if n > 40 {
            noise[..8].copy_from_slice(&format::MAGIC);
            noise[8..12].copy_from_slice(&format::FORMAT_VERSION.to_le_bytes());
            noise[16..24].copy_from_slice(&(n as u64).to_le_bytes());
            assert!(decode(&noise).is_err());
            rechecksum(&mut noise);
            assert!(decode(&noise).is_err());
        }
    }
    // Trailing bytes after the declared end.
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 7]);
    assert!(matches!(decode(&longer), Err(FormatError::Corrupt { .. })));
}

#[test]
fn crafted_files_with_valid_checksums_are_rejected() {
    let map = small_map();
    let p = map.polytope();
    let (nv, nf) = (p.num_vertices(), p.num_faces());
    let first_corner = p.face_vertices(polyquery::FaceId(0))[0].0;
    let bytes = format::encode(&map, &metadata());
    let [_, poly, nvms] = section_payloads(&bytes);
    let edit = |at: usize, value: &[u8]| {
        let mut b = bytes.clone();
        b[at..at + value.len()].copy_from_slice(value);
        rechecksum(&mut b);
        decode(&b)
    };
    let corrupt = |r: Result<format::SavedMap, FormatError>, word: &str| match r {
        Err(FormatError::Corrupt { what, .. }) => assert!(what.contains(word), "{what}"),
        other => panic!("expected Corrupt({word}): {:?}", other.map(|_| ())),
    };
    // POLY: points (8 + 24 nv), face offsets (8 + 4 (nf + 1)), then the face corners.
    let offsets = poly + 8 + 24 * nv;
    corrupt(
        edit(offsets + 8 + 4, &u32::MAX.to_le_bytes()),
        "face corner offsets",
    );
    let corners = offsets + 8 + 4 * (nf + 1);
    corrupt(
        edit(corners + 8, &(nv as u32).to_le_bytes()),
        "names vertex",
    );
    // A corner moved to another vertex: the faces no longer close up.
    let moved = if first_corner == 0 { 1u32 } else { 0 };
    corrupt(edit(corners + 8, &moved.to_le_bytes()), "polytope faces");
    // A non-finite coordinate.
    corrupt(edit(poly + 8, &f64::NAN.to_le_bytes()), "not finite");
    // A huge count is refused before anything is allocated.
    match edit(poly, &(1u64 << 60).to_le_bytes()) {
        Err(FormatError::Truncated { needed, .. }) => assert!(needed > 1 << 60),
        other => panic!("{:?}", other.map(|_| ())),
    }
    // NVMS: segments (8), linear flag (1), polish records (8 + 16 R units), chart count (4),
    // then chart 0: persistence (1), segments used (8), grid origin and scales (4 × 8), k (8),
    // cells (8 + 8 C), slab ends (8 + 8 S), slab words (8 + 4 S), node form (1: 3 for
    // rounded), tree nodes (8 + 24 N).
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let f64_at = |at: usize| f64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let linear = nvms + 8;
    let records = linear + 1;
    let num_records = u64_at(&bytes, records) as usize;
    let padded: usize = p
        .vertex_ids()
        .map(|w| (32 + 10 * p.neighbors(w).len()).div_ceil(16))
        .sum();
    assert_eq!(
        num_records, padded,
        "a 32-byte head per vertex, 10 bytes per neighbour, padded to 16 bytes per vertex"
    );
    let entry = |i: usize| records + 8 + 16 * i;
    let chart_count = entry(num_records);
    let grid = chart_count + 4 + 1 + 8;
    let k_at = grid + 32;
    let k = u64_at(&bytes, k_at) as usize;
    let cells = k_at + 8;
    let num_cells = u64_at(&bytes, cells) as usize;
    assert_eq!(num_cells, k * k + 1);
    // Cross-cell cases below need a grid with more than one cell.
    assert!(k >= 2, "chart 0 has a {k} × {k} grid");
    let cell = |c: usize| cells + 8 + 8 * c;
    let slabs = cell(num_cells);
    let num_slabs = u64_at(&bytes, slabs) as usize;
    let slab = |i: usize| slabs + 8 + 8 * i;
    let words = slab(num_slabs);
    assert_eq!(u64_at(&bytes, words) as usize, num_slabs, "a word per slab");
    let word = |i: usize| words + 8 + 4 * i;
    let links = word(num_slabs);
    assert_eq!(bytes[links], 3, "rounded tree nodes");
    let nodes = links + 1;
    let num_nodes = u64_at(&bytes, nodes) as usize;
    let node = |i: usize| nodes + 8 + 24 * i;
    assert_eq!(bytes[node(num_nodes)], 1, "chart 1 starts (node copying)");
    // Per slab and per node: the node range of its cell.
    let node_ranges: Vec<(usize, usize)> = (0..k * k)
        .map(|c| {
            (
                u32_at(cell(c) + 4) as usize,
                u32_at(cell(c + 1) + 4) as usize,
            )
        })
        .collect();
    let cell_of_slab = |i: usize| {
        (0..k * k)
            .find(|&c| (u32_at(cell(c)) as usize..u32_at(cell(c + 1)) as usize).contains(&i))
            .unwrap()
    };
    // A node of chart 0 outside the range `(lo, hi)`, if there is one.
    let outside = |(lo, hi): (usize, usize)| {
        if lo > 0 {
            Some(0u32)
        } else if hi < num_nodes {
            Some(hi as u32)
        } else {
            None
        }
    };
    let nil = u32::MAX;
    // A slab's word: its root, or (bit 31 set) its owner.
    let tag = 1u32 << 31;

    corrupt(edit(linear, &[2]), "linear");
    corrupt(edit(chart_count, &7u32.to_le_bytes()), "chart count");
    // Polish records: each record must be what the polytope gives. Units 0 and 1 are vertex
    // 0's head (x, y; z, id, degree and scale word), unit 2 starts its first neighbour's link
    // (three `i16` offsets, then the record start at byte 6).
    corrupt(
        edit(records, &(num_records as u64 - 1).to_le_bytes()),
        "polish records",
    );
    let record = "polish record of vertex 0";
    corrupt(edit(entry(1) + 8, &(nv as u32).to_le_bytes()), record);
    corrupt(edit(entry(1) + 8, &1u32.to_le_bytes()), record);
    corrupt(edit(entry(0), &f64::NAN.to_le_bytes()), record);
    corrupt(edit(entry(0) + 8, &0.5f64.to_le_bytes()), record);
    corrupt(edit(entry(1) + 12, &0u32.to_le_bytes()), record);
    // The word without a filter (bit 31) and vertex 0's degree is not what the build makes.
    let degree = p.neighbors(polyquery::VertexId(0)).len() as u32;
    corrupt(
        edit(entry(1) + 12, &(1u32 << 31 | degree).to_le_bytes()),
        record,
    );
    // -32768 is never stored (offsets stay within ±32767).
    corrupt(edit(entry(2), &i16::MIN.to_le_bytes()), record);
    corrupt(edit(entry(2) + 4, &i16::MIN.to_le_bytes()), record);
    // Unit 1 is half a head and unit 2 a link: no record starts there.
    corrupt(edit(entry(2) + 6, &1u32.to_le_bytes()), record);
    corrupt(edit(entry(2) + 6, &2u32.to_le_bytes()), record);
    corrupt(edit(entry(2) + 6, &u32::MAX.to_le_bytes()), record);
    // The padding after vertex 0's last link is zero.
    let used = 32 + 10 * degree as usize;
    assert_ne!(used % 16, 0, "vertex 0's record has padding");
    corrupt(edit(entry(0) + used, &[1]), record);
    // Grid.
    corrupt(edit(k_at, &0u64.to_le_bytes()), "cells per side");
    corrupt(edit(k_at, &4096u64.to_le_bytes()), "cells per side");
    corrupt(edit(grid + 16, &(-1.0f64).to_le_bytes()), "scale");
    corrupt(edit(grid, &f64::NAN.to_le_bytes()), "not finite");
    corrupt(
        edit(cells, &(num_cells as u64 + 1).to_le_bytes()),
        "grid cells",
    );
    // Cell offsets: from 0, increasing, ending at the array lengths.
    corrupt(edit(cell(0), &1u32.to_le_bytes()), "cell offsets");
    corrupt(edit(cell(1), &u32::MAX.to_le_bytes()), "cell offsets");
    corrupt(edit(cell(1) + 4, &u32::MAX.to_le_bytes()), "cell offsets");
    corrupt(edit(cell(k * k), &0u32.to_le_bytes()), "cell offsets");
    corrupt(
        edit(cell(k * k) + 4, &(num_nodes as u32 - 1).to_le_bytes()),
        "cell offsets",
    );
    // Slabs: a word count that is not the slab count, a root out of range or in another
    // cell, an owner that is no record start.
    corrupt(
        edit(words, &(num_slabs as u64 - 1).to_le_bytes()),
        "slab words",
    );
    let rooted = (0..num_slabs)
        .find(|&i| u32_at(word(i)) & tag == 0)
        .expect("a slab crossed by a segment");
    corrupt(
        edit(word(rooted), &(num_nodes as u32).to_le_bytes()),
        "root",
    );
    corrupt(edit(word(rooted), &0x7000_0000u32.to_le_bytes()), "root");
    let mut cross_cell_cases = 0;
    for i in (0..num_slabs).filter(|&i| u32_at(word(i)) & tag == 0) {
        if let Some(other) = outside(node_ranges[cell_of_slab(i)]) {
            corrupt(edit(word(i), &other.to_le_bytes()), "root");
            cross_cell_cases += 1;
            break;
        }
    }
    let empty = (0..num_slabs)
        .find(|&i| u32_at(word(i)) & tag != 0)
        .expect("a slab crossed by no segment");
    assert_ne!(u32_at(word(empty)), nil, "empty slabs have owners");
    corrupt(edit(word(empty), &(tag | 1).to_le_bytes()), "owner");
    corrupt(
        edit(word(empty), &(tag | num_records as u32).to_le_bytes()),
        "owner",
    );
    // Slab ends: no NaN, strictly increasing within a cell, the cell's last one +∞.
    corrupt(edit(slab(0), &f64::NAN.to_le_bytes()), "end");
    let inner = (0..num_slabs - 1)
        .find(|&i| f64_at(slab(i)).is_finite() && f64_at(slab(i + 1)).is_finite())
        .expect("a cell with three slabs");
    corrupt(
        edit(slab(inner), &bytes[slab(inner + 1)..slab(inner + 1) + 8]),
        "end",
    );
    let last = (0..num_slabs)
        .find(|&i| f64_at(slab(i)).is_infinite())
        .unwrap();
    corrupt(edit(slab(last), &1e300f64.to_le_bytes()), "end");
    // Tree nodes: their form, lines, payloads, children, spare slots (rounded nodes: a, c as
    // f32, upper, lower, then left, right, spare, stamp as cell-local u16 at 16, 18, 20, 22).
    corrupt(edit(links, &[5]), "tree node form");
    corrupt(edit(node(0), &f32::NAN.to_le_bytes()), "not finite");
    corrupt(
        edit(node(0) + 4, &f32::INFINITY.to_le_bytes()),
        "not finite",
    );
    corrupt(
        edit(node(0) + 8, &(num_records as u32).to_le_bytes()),
        "payload",
    );
    corrupt(edit(node(0) + 12, &1u32.to_le_bytes()), "payload");
    corrupt(edit(node(0) + 16, &0xFFFEu16.to_le_bytes()), "child");
    corrupt(edit(node(0) + 18, &0x7000u16.to_le_bytes()), "child");
    // A local index one past its cell names the next cell's first node.
    for &range in &node_ranges {
        if let (true, Some(_)) = (range.0 < range.1, outside(range)) {
            let past = (range.1 - range.0) as u16;
            corrupt(edit(node(range.0) + 16, &past.to_le_bytes()), "child");
            cross_cell_cases += 1;
            break;
        }
    }
    assert_eq!(cross_cell_cases, 2, "chart 0 has nodes in two cells");
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
    let unstamped = (0..num_nodes)
        .find(|&i| u16_at(node(i) + 22) == u16::MAX)
        .expect("a node with a free spare slot");
    corrupt(edit(node(unstamped) + 20, &0u16.to_le_bytes()), "spare");
    corrupt(
        edit(node(unstamped) + 22, &0x7000u16.to_le_bytes()),
        "spare",
    );
    if let Some(stamped) = (0..num_nodes).find(|&i| u16_at(node(i) + 22) != u16::MAX) {
        corrupt(edit(node(stamped) + 20, &0xFFFEu16.to_le_bytes()), "spare");
    }
    // A huge node count is refused before anything is allocated.
    match edit(nodes, &(1u64 << 60).to_le_bytes()) {
        Err(FormatError::Truncated { needed, .. }) => assert!(needed > 1 << 60),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn any_crafted_word_loads_safely_or_fails_cleanly() {
    // Overwrite every 4-byte word (in turn) with values likely to break indices, re-checksum,
    // and load: either a typed error or a map whose queries and accessors do not panic.
    let map = small_map();
    let bytes = format::encode(&map, &metadata());
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let dirs = directions(&mut rng, 20);
    let mut loaded_ok = 0;
    for at in (32..bytes.len() - 8).step_by(4) {
        for value in [u32::MAX, 0x8000_0000, 1] {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&value.to_le_bytes());
            rechecksum(&mut b);
            if let Ok(saved) = decode(&b) {
                loaded_ok += 1;
                let q = saved.map.polytope();
                let (lo, hi) = q.bounding_box();
                assert!(q.points().iter().all(|p| lo <= *p && *p <= hi));
                assert!(!q.volume().is_nan());
                assert_eq!(q.adjacency_graph().node_count(), q.num_vertices());
                for f in q.face_ids() {
                    assert!(q.face_vertices(f).len() >= 3);
                }
                let scan = LinearScan::new(q);
                for d in &dirs {
                    // The scan is the maximum; the map answers a vertex at its position,
                    // never beyond that maximum.
                    let best = scan.support(d);
                    let got = saved.map.support(d);
                    assert!(
                        q.points()
                            .iter()
                            .all(|p| d.dot(&p.coords) <= d.dot(&best.point.coords))
                    );
                    assert_eq!(*q.point(best.vertex), best.point);
                    assert_eq!(*q.point(got.vertex), got.point);
                    assert!(d.dot(&got.point.coords) <= d.dot(&best.point.coords));
                }
            }
        }
    }
    // Some words are free (coordinates' low bits, spare slots): the test exercised loads too.
    assert!(loaded_ok > 0);
}

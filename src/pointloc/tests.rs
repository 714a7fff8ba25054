//! The locator against a brute-force scan of the segments, on random non-crossing
//! subdivisions, with both persistence techniques.

use super::locator::*;
use super::types::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerocopy::IntoBytes;

/// Brute force within the grid cell `rect` answering the point: among the non-vertical
/// segments with `u0 ≤ u < u1` whose height at `u` lies in the cell's `v` range, the highest
/// with value `≤ v` and the lowest with value `> v`; `None` when the point or such a height is
/// within `margin` of a segment or a cell side (then rounding may decide either way and the
/// case is skipped).
fn brute(
    segs: &[Segment],
    u: f64,
    v: f64,
    rect: [f64; 4],
    margin: f64,
) -> Option<(Option<u32>, Option<u32>)> {
    let mut below: Option<(f64, u32)> = None;
    let mut above: Option<(f64, u32)> = None;
    if (u - rect[0]).abs() < margin || (u - rect[1]).abs() < margin {
        return None;
    }
    for s in segs {
        let (u0, v0, u1, v1) = if s.u0 < s.u1 {
            (s.u0, s.v0, s.u1, s.v1)
        } else {
            (s.u1, s.v1, s.u0, s.v0)
        };
        if !(u0 <= u && u < u1) {
            continue;
        }
        let y = v0 + (v1 - v0) * (u - u0) / (u1 - u0);
        if (y - v).abs() < margin || (y - rect[2]).abs() < margin || (y - rect[3]).abs() < margin {
            return None;
        }
        if y < rect[2] || y > rect[3] {
            continue;
        }
        if y <= v {
            if below.is_none_or(|(b, _)| y > b) {
                below = Some((y, s.upper));
            }
        } else if above.is_none_or(|(a, _)| y < a) {
            above = Some((y, s.lower));
        }
    }
    Some((below.map(|b| b.1), above.map(|a| a.1)))
}

/// Rows of random polylines, each row confined to `[j − 0.4, j + 0.4]`, some pieces dropped.
fn rows(rng: &mut ChaCha8Rng) -> Vec<Segment> {
    let mut segs = Vec::new();
    let rows = rng.random_range(1..12);
    for j in 0..rows {
        let k = rng.random_range(2..12);
        let mut us: Vec<f64> = (0..k).map(|_| rng.random_range(0.0..1.0)).collect();
        us.sort_by(f64::total_cmp);
        // Shared breakpoints between rows make many segments end on one boundary.
        if rng.random_bool(0.3) {
            us[0] = 0.0;
        }
        let vs: Vec<f64> = (0..k)
            .map(|_| j as f64 + rng.random_range(-0.4..0.4))
            .collect();
        for i in 0..k - 1 {
            if rng.random_bool(0.75) {
                segs.push(Segment {
                    u0: us[i],
                    v0: vs[i],
                    u1: us[i + 1],
                    v1: vs[i + 1],
                    upper: segs.len() as u32,
                    lower: segs.len() as u32,
                });
            }
        }
        // A vertical segment now and then: it must be ignored.
        if rng.random_bool(0.3) {
            segs.push(Segment {
                u0: us[0],
                v0: j as f64 - 0.1,
                u1: us[0],
                v1: j as f64 + 0.1,
                upper: 9999,
                lower: 9999,
            });
        }
    }
    segs
}

/// A star: rays from a centre, and the chords joining consecutive ray ends (a triangulated
/// star-shaped polygon; many segments share the centre).
fn star(rng: &mut ChaCha8Rng) -> Vec<Segment> {
    let k = rng.random_range(3..40);
    let mut angles: Vec<f64> = (0..k)
        .map(|_| rng.random_range(0.0..std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    let ends: Vec<(f64, f64)> = angles
        .iter()
        .map(|&a| {
            let r = rng.random_range(0.1..1.0);
            (0.5 + r * a.cos(), 0.5 + r * a.sin())
        })
        .collect();
    let mut segs = Vec::new();
    for (i, &(u, v)) in ends.iter().enumerate() {
        segs.push(Segment {
            u0: 0.5,
            v0: 0.5,
            u1: u,
            v1: v,
            upper: segs.len() as u32,
            lower: segs.len() as u32,
        });
        let next = (i + 1) % k;
        let mut gap = angles[next] - angles[i];
        if gap <= 0.0 {
            gap += std::f64::consts::TAU;
        }
        if gap < 3.0 {
            let (u1, v1) = ends[next];
            segs.push(Segment {
                u0: u,
                v0: v,
                u1,
                v1,
                upper: segs.len() as u32,
                lower: segs.len() as u32,
            });
        }
    }
    segs
}

fn check(segs: &[Segment], rng: &mut ChaCha8Rng, persistence: Persistence) -> usize {
    check_in(segs, rng, persistence, (-0.2, 1.2), (-1.0, 13.0))
}

/// Locates 300 random points of `us × vs` against the brute force; returns how many were
/// far enough from every segment and cell side to be checked.
fn check_in(
    segs: &[Segment],
    rng: &mut ChaCha8Rng,
    persistence: Persistence,
    us: (f64, f64),
    vs: (f64, f64),
) -> usize {
    let loc = PointLocator::build_with(segs, persistence).unwrap();
    let mut checked = 0;
    for _ in 0..300 {
        let u = rng.random_range(us.0..us.1);
        let v = rng.random_range(vs.0..vs.1);
        if let Some((below, above)) = brute(segs, u, v, loc.cell_rect(u, v), 1e-9) {
            let got = loc.locate(u, v);
            assert_eq!(
                (got.below, got.above),
                (below, above),
                "at ({u}, {v}) with {persistence:?}"
            );
            checked += 1;
        }
    }
    // Queries exactly at segment ends and slab boundaries must not panic.
    for s in segs {
        let _ = loc.locate(s.u0, s.v0);
        let _ = loc.locate(s.u1, s.v1);
    }
    checked
}

#[test]
fn matches_brute_force_on_random_subdivisions() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let segs = if seed % 2 == 0 {
            rows(&mut rng)
        } else {
            star(&mut rng)
        };
        for p in [Persistence::PathCopying, Persistence::NodeCopying] {
            checked += check(&segs, &mut rng, p);
        }
    }
    // Nearly every query is away from the segments: the test really compares answers.
    assert!(checked > 150_000, "only {checked} queries checked");
}

#[test]
fn node_copying_stores_fewer_nodes_than_path_copying() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Many long rows: a big tree whose paths are long.
    let mut segs = Vec::new();
    for j in 0..2000 {
        let u0 = rng.random_range(0.0..0.5);
        let u1 = rng.random_range(0.5..1.0);
        segs.push(Segment {
            u0,
            v0: j as f64,
            u1,
            v1: j as f64 + 0.5,
            upper: j,
            lower: j,
        });
    }
    let path = PointLocator::build_with(&segs, Persistence::PathCopying).unwrap();
    let node = PointLocator::build_with(&segs, Persistence::NodeCopying).unwrap();
    // Path copying copies ~log n nodes per update; node copying O(1) amortised.
    assert!(
        node.num_nodes() * 2 < path.num_nodes(),
        "node copying {} vs path copying {}",
        node.num_nodes(),
        path.num_nodes()
    );
    assert!(node.num_nodes() < 6 * segs.len());
    for _ in 0..2000 {
        let (u, v) = (rng.random_range(0.0..1.0), rng.random_range(-1.0..2001.0));
        assert_eq!(path.locate(u, v), node.locate(u, v));
    }
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let empty = PointLocator::build(&[]).unwrap();
    assert_eq!(empty.locate(0.0, 0.0), Location::default());
    let bad = [
        Segment {
            u0: f64::NAN,
            v0: 0.0,
            u1: 1.0,
            v1: 0.0,
            upper: 0,
            lower: 0,
        },
        Segment {
            u0: 0.0,
            v0: 0.0,
            u1: 0.0,
            v1: 1.0,
            upper: 1,
            lower: 1,
        },
        Segment {
            u0: 0.0,
            v0: 0.0,
            u1: 1.0,
            v1: 0.0,
            upper: 2,
            lower: 2,
        },
        // A duplicate and a crossing segment.
        Segment {
            u0: 0.0,
            v0: 0.0,
            u1: 1.0,
            v1: 0.0,
            upper: 3,
            lower: 3,
        },
        Segment {
            u0: 0.0,
            v0: -1.0,
            u1: 1.0,
            v1: 1.0,
            upper: 4,
            lower: 4,
        },
    ];
    let loc = PointLocator::build(&bad).unwrap();
    assert_eq!(loc.num_segments(), 3);
    for (u, v) in [
        (0.5, 0.5),
        (f64::NAN, 0.0),
        (0.5, f64::INFINITY),
        (-5.0, 0.0),
        (1.0, 0.0),
    ] {
        let _ = loc.locate(u, v);
    }
    assert_eq!(loc.locate(0.5, 5.0).above, None);
}

/// A fan of long segments from one centre: every segment crosses many grid cells, so the
/// grid must coarsen (at most 1.5 pieces per segment) and memory stays linear; answers still
/// match the brute force per cell.
#[test]
fn fan_of_long_segments_keeps_memory_linear() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let n = 3000;
    let segs = fan(n);
    let loc = PointLocator::build(&segs).unwrap();
    // Node copying stores O(1) expected nodes per piece (4–6 on these inputs).
    assert!(
        loc.num_nodes() <= 9 * n as usize,
        "{} nodes for {n} segments",
        loc.num_nodes()
    );
    let checked = check_in(
        &segs,
        &mut rng,
        Persistence::NodeCopying,
        (-1.1, 1.1),
        (-1.1, 1.1),
    );
    assert!(checked > 100, "only {checked} points checked");
}

/// Coordinates near the f64 range: the domain's width overflows; building, listing empty
/// slabs and locating must still not panic, and a point far above the one segment is above it.
#[test]
fn huge_coordinates_do_not_panic() {
    let segs = [
        Segment {
            u0: -1e308,
            v0: -1e308,
            u1: 1e308,
            v1: -1e308,
            upper: 0,
            lower: 1,
        },
        Segment {
            u0: 1e300,
            v0: 1e308,
            u1: 1e300,
            v1: 1.5e308,
            upper: 2,
            lower: 2,
        },
    ];
    let mut loc = PointLocator::build(&segs).unwrap();
    for (slab, u, v) in loc.empty_slabs() {
        let _ = loc.locate(u, v);
        loc.set_owner(slab, 7);
    }
    for (u, v) in [(0.0, 0.0), (1e308, 1e308), (-1e308, 0.0), (f64::NAN, 1.0)] {
        let _ = loc.locate(u, v);
    }
    assert_eq!(loc.locate(0.0, 1e307).below, Some(0));
}

/// A fan of `n` segments from one centre (payload = index).
fn fan(n: u32) -> Vec<Segment> {
    (0..n)
        .map(|i| {
            let t = (f64::from(i) + 0.5) / f64::from(n) * std::f64::consts::TAU;
            Segment {
                u0: 0.0,
                v0: 0.0,
                u1: t.cos(),
                v1: t.sin(),
                upper: i,
                lower: i,
            }
        })
        .collect()
}

/// Tree nodes are compact (32 bytes, cell-local `u16` links) while every cell fits, and
/// wide (40 bytes) when one does not; both answer alike (the compact fan against the brute
/// force: `fan_of_long_segments_keeps_memory_linear`), and both survive a save and load
/// unchanged. (A real cell too large for compact nodes needs tens
/// of thousands of segments through one cell, whose build takes minutes: the wide form is
/// made here by widening a built locator, and the choice is tested on a cell directory.)
#[test]
fn compact_and_wide_nodes_answer_alike() {
    use crate::codec::{ByteReader, ByteWriter};
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let n = 3000;
    let segs = fan(n);
    let compact = PointLocator::build(&segs).unwrap();
    assert_eq!(compact.node_bytes(), PointLocator::NODE_BYTES);
    assert_eq!(PointLocator::NODE_BYTES, 32);
    let Nodes::Compact(nodes) = &compact.nodes else {
        panic!("a fan of {n} fits compact nodes");
    };
    let mut widened = Vec::with_capacity(nodes.len());
    for w in compact.cells.windows(2) {
        let cell = &nodes[w[0].first_node as usize..w[1].first_node as usize];
        widened.extend(
            cell.iter()
                .map(|c| c.widen(w[0].first_node, w[0].first_slab)),
        );
    }
    // Widening inverts compacting.
    let again = Nodes::freeze(widened.clone(), &compact.cells);
    let Nodes::Compact(again) = again else {
        panic!("the same cells fit again");
    };
    assert_eq!(again.as_slice().as_bytes(), nodes.as_slice().as_bytes());
    let wide = PointLocator {
        nodes: Nodes::Wide(widened),
        ..compact.clone()
    };
    assert_eq!(wide.node_bytes(), 40);
    for loc in [&compact, &wide] {
        let mut w = ByteWriter::new();
        loc.encode(&mut w);
        let bytes = w.into_bytes();
        let mut r = ByteReader::new(&bytes[..], bytes.len() as u64);
        let back = PointLocator::decode(&mut r, &|x| x < n).unwrap();
        assert_eq!(
            (back.node_bytes(), back.num_nodes(), back.num_slabs()),
            (loc.node_bytes(), loc.num_nodes(), loc.num_slabs())
        );
        for _ in 0..2000 {
            let (u, v) = (rng.random_range(-1.1..1.1), rng.random_range(-1.1..1.1));
            assert_eq!(back.locate(u, v), compact.locate(u, v), "at ({u}, {v})");
            assert_eq!(wide.locate(u, v), compact.locate(u, v), "at ({u}, {v})");
        }
    }
    // A cell of 70,000 nodes or of 40,000 slabs keeps the wide form.
    let blank = widened_blank(70_000);
    for (slabs, nodes) in [(1, 70_000), (40_000, 10)] {
        let cells = [
            Cell {
                first_slab: 0,
                first_node: 0,
            },
            Cell {
                first_slab: slabs,
                first_node: nodes,
            },
        ];
        let frozen = Nodes::freeze(blank[..nodes as usize].to_vec(), &cells);
        assert!(
            matches!(frozen, Nodes::Wide(_)),
            "{slabs} slabs, {nodes} nodes"
        );
    }
}

/// `count` leaf nodes.
fn widened_blank(count: usize) -> Vec<Node> {
    vec![
        Node {
            a: 0.0,
            b: 0.0,
            upper: 0,
            lower: 0,
            left: NIL,
            right: NIL,
            spare: NIL,
            spare_stamp: NO_SPARE,
        };
        count
    ]
}

/// `segs` mapped by `(u, v) ↦ (su·u + ou, sv·v + ov)` (positive scales keep them apart and
/// their sides as they were).
fn scaled(segs: &[Segment], [su, ou, sv, ov]: [f64; 4]) -> Vec<Segment> {
    segs.iter()
        .map(|s| Segment {
            u0: su * s.u0 + ou,
            v0: sv * s.v0 + ov,
            u1: su * s.u1 + ou,
            v1: sv * s.v1 + ov,
            ..*s
        })
        .collect()
}

/// The smallest `|v − h| − k·(|h| + |a|·big_u)` over the segments over `u` (`h` the
/// segment's height at `u`, `a` its slope): positive when the point is farther than that
/// tolerance from all of them.
fn clearance(segs: &[Segment], u: f64, v: f64, big_u: f64, k: f64) -> f64 {
    let mut least = f64::INFINITY;
    for s in segs {
        let (u0, v0, u1, v1) = if s.u0 < s.u1 {
            (s.u0, s.v0, s.u1, s.v1)
        } else {
            (s.u1, s.v1, s.u0, s.v0)
        };
        if !(u0 <= u && u <= u1) || u0 == u1 {
            continue;
        }
        let a = (v1 - v0) / (u1 - u0);
        let h = v0 + a * (u - u0);
        least = least.min((v - h).abs() - k * (h.abs() + a.abs() * big_u));
    }
    least
}

/// The exact locator's own comparison of `(u, v)` with segment `s`'s line: on or above it.
fn exact_side(s: &Segment, u: f64, v: f64) -> bool {
    let (u0, v0, u1, v1) = if s.u0 <= s.u1 {
        (s.u0, s.v0, s.u1, s.v1)
    } else {
        (s.u1, s.v1, s.u0, s.v0)
    };
    let (a, b) = super::grid::line_of(u0, v0, u1, v1);
    v >= a * u + b
}

/// The tolerance of a rounded locator's plain answers, and of its answers with the exact
/// comparison as `side` (relative to `|a·u + b| + |a|·U`).
const ROUNDED_TOLERANCE: f64 = 1.0 / (1u64 << 22) as f64;
const SIDED_TOLERANCE: f64 = 1.0 / (1u64 << 44) as f64;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A locator with rounded lines answers exactly like the exact one at every point of the
    /// domain farther from each segment over it than the stated tolerance
    /// `2⁻²²·(|a·u + b| + |a|·U)`, `U = max(|u_lo|, |u_hi|, u_hi − u_lo)`, and, given the
    /// exact comparison for its close calls (`locate_with_side`), farther than
    /// `2⁻⁴⁴·(|a·u + b| + |a|·U)`. Tolerances relative to the input's scale: the
    /// subdivisions are scaled by 10⁻³…10³ and shifted by up to 10³ of their size, so
    /// slopes range over 10⁻⁶…10⁶ times the originals. Two thirds of the points are put just
    /// outside one of the two tolerances of a segment (2 to 3 times it), where a coarser
    /// rounding or a missed close call would answer differently.
    #[test]
    fn rounded_lines_answer_like_exact_ones_away_from_segments(
        seed in 0u64..1_000_000,
        su in -3.0f64..3.0,
        sv in -3.0f64..3.0,
        ou in -1e3f64..1e3,
        ov in -1e3f64..1e3,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let base = if seed % 2 == 0 { rows(&mut rng) } else { star(&mut rng) };
        // `rows` may keep no segment at all (each is kept with probability 3/4): no domain.
        proptest::prop_assume!(!base.is_empty());
        let (su, sv) = (10f64.powf(su), 10f64.powf(sv));
        let segs = scaled(&base, [su, ou * su, sv, ov * sv]);
        let exact = PointLocator::build(&segs).unwrap();
        let rounded = exact.clone().with_rounded_lines();
        proptest::prop_assert!(rounded.has_rounded_lines());
        proptest::prop_assert_eq!(rounded.node_bytes(), PointLocator::ROUNDED_NODE_BYTES);
        let lines: Vec<&Segment> = segs.iter().filter(|s| s.u0 != s.u1).collect();
        let (mut lo, mut hi) = ((f64::INFINITY, f64::INFINITY), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        for s in &segs {
            lo = (lo.0.min(s.u0.min(s.u1)), lo.1.min(s.v0.min(s.v1)));
            hi = (hi.0.max(s.u0.max(s.u1)), hi.1.max(s.v0.max(s.v1)));
        }
        let big_u = lo.0.abs().max(hi.0.abs()).max(hi.0 - lo.0);
        let (mut plain, mut sided) = (0, 0);
        for i in 0..600 {
            let u = rng.random_range(lo.0..=hi.0);
            let v = if i % 3 == 0 || lines.is_empty() {
                rng.random_range(lo.1..=hi.1)
            } else {
                // Just beyond one tolerance of a segment over `u` (if `u` is over it).
                let k = if i % 3 == 1 { ROUNDED_TOLERANCE } else { SIDED_TOLERANCE };
                let s = lines[rng.random_range(0..lines.len())];
                let a = (s.v1 - s.v0) / (s.u1 - s.u0);
                let h = s.v0 + a * (u - s.u0);
                let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                h + side * k * (h.abs() + a.abs() * big_u) * rng.random_range(2.0..3.0)
            };
            if !(lo.1..=hi.1).contains(&v) {
                continue;
            }
            let want = exact.locate(u, v);
            if clearance(&segs, u, v, big_u, ROUNDED_TOLERANCE) > 0.0 {
                proptest::prop_assert_eq!(rounded.locate(u, v), want, "at ({}, {})", u, v);
                plain += 1;
            }
            if clearance(&segs, u, v, big_u, SIDED_TOLERANCE) > 0.0 {
                let got = rounded.locate_with_side(u, v, |upper, _| {
                    segs.get(upper as usize).is_some_and(|s| exact_side(s, u, v))
                });
                proptest::prop_assert_eq!(got, want, "at ({}, {}) with the exact side", u, v);
                sided += 1;
            }
        }
        // Most points are checked (a few land too near another segment or off the domain).
        proptest::prop_assert!(plain >= 150 && sided >= 200, "only {} and {} points checked", plain, sided);
    }
}

/// A locator with rounded lines survives a save and load unchanged; wide nodes, and compact
/// ones with a line beyond `f32`'s range, stay exact when asked to round.
#[test]
fn rounded_nodes_survive_save_and_load() {
    use crate::codec::{ByteReader, ByteWriter};
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let n = 3000;
    let exact = PointLocator::build(&fan(n)).unwrap();
    let rounded = exact.clone().with_rounded_lines();
    assert!(rounded.has_rounded_lines() && !exact.has_rounded_lines());
    assert_eq!(rounded.node_bytes(), 24);
    assert_eq!(
        rounded.memory_bytes() + 8 * rounded.num_nodes(),
        exact.memory_bytes()
    );
    let mut w = ByteWriter::new();
    rounded.encode(&mut w);
    let bytes = w.into_bytes();
    let mut r = ByteReader::new(&bytes[..], bytes.len() as u64);
    let back = PointLocator::decode(&mut r, &|x| x < n).unwrap();
    assert!(back.has_rounded_lines());
    let (Nodes::Rounded(a), Nodes::Rounded(b)) = (&back.nodes, &rounded.nodes) else {
        panic!("rounded nodes load as rounded nodes");
    };
    assert_eq!(a.as_slice().as_bytes(), b.as_slice().as_bytes());
    for _ in 0..2000 {
        let (u, v) = (rng.random_range(-1.1..1.1), rng.random_range(-1.1..1.1));
        assert_eq!(back.locate(u, v), rounded.locate(u, v), "at ({u}, {v})");
    }
    // A wide locator is returned as it is.
    let wide = PointLocator {
        nodes: Nodes::Wide(widened_blank(exact.num_nodes())),
        ..exact.clone()
    };
    assert_eq!(wide.with_rounded_lines().node_bytes(), 40);
    // A slope of 10⁴⁰ does not fit f32: the locator stays exact.
    let steep = PointLocator::build(&[Segment {
        u0: 0.0,
        v0: 0.0,
        u1: 1e-40,
        v1: 1.0,
        upper: 0,
        lower: 0,
    }])
    .unwrap();
    assert!(!steep.with_rounded_lines().has_rounded_lines());
}

//! The report's first screen (`speed-up = other time / polyquery time`): the conclusion in plain words, generated from the measured
//! rows (what is faster than what, by how much, on which sizes; where the peer is faster;
//! where answers disagree and who is wrong), and the glossary of every term the report uses.
//!
//! Where it sits: [`crate::writers`] prints [`summary`] at the top of `index.html` and
//! `report.md`, then [`GLOSSARY`]. Nothing here is hard-coded but the words: every number
//! comes from the rows.

use crate::config::Report;
use crate::format::{format_time, group, ratio};
use crate::results::{AGREEMENT_TOLERANCE, Family, HEADLINES, Method, ResultRow, sphere_row};
use crate::robot::summary_lines;
use crate::status::Status;

/// One glossary entry: (term, definition); `GLOSSARY[i] = (term, definition)`.
pub const GLOSSARY: &[(&str, &str)] = &[
    (
        "support query S(P, d)",
        "The point of a convex polytope P farthest in direction d (the vertex maximising d·x). Every query below is built from support queries.",
    ),
    (
        "support function h_P(d)",
        "d·S(P, d): how far P reaches in direction d.",
    ),
    (
        "linear scan",
        "Answering S(P, d) by checking every vertex: O(n) per query, exact. Plain GJK uses it.",
    ),
    (
        "hill-climb (cold)",
        "Answering S(P, d) by walking from vertex to better neighbouring vertex until none is better, started from a fixed vertex (cold: no hint from a previous query).",
    ),
    (
        "normal vector map (NVM)",
        "Our preprocessed structure: the polytope's Gauss map (which vertex is extreme for which directions) on the six faces of a cube, with a point-location structure per face, so S(P, d) is found exactly in O(log n).",
    ),
    (
        "D = A ⊖ B",
        "The Minkowski difference {a − b : a in A, b in B} of two posed bodies. A and B intersect exactly when D holds the origin; h_D(u) = h_A(u) + h_B(−u).",
    ),
    (
        "size of D",
        "4 × half the diagonal of the hull's bounding box (both bodies are the same hull): the scale that differences between answers are divided by.",
    ),
    (
        "GJK",
        "Gilbert–Johnson–Keerthi: finds the point of D nearest the origin with support queries only. Answers intersection (is the origin in D?) and distance. Plain GJK: GJK on linear-scan support, the textbook baseline.",
    ),
    (
        "Nio",
        "The intersection and directional-penetration algorithm this project implements: it walks D's boundary along a ray with support queries, and proves its verdict with a certificate (a separating plane or a tetrahedron of D holding the origin).",
    ),
    (
        "δ_d (directional penetration)",
        "How far B must move along the unit direction d to stop overlapping A: the distance from the origin to D's boundary along d.",
    ),
    (
        "EPA depth",
        "Expanding Polytope Algorithm: the minimum penetration depth, min over unit u of h_D(u), with the normal u attaining it. A correct (depth, normal) has h_D(normal) = depth.",
    ),
    (
        "time of impact",
        "The first time B, moving with a constant velocity, touches A.",
    ),
    (
        "pose pair",
        "A random rotation and position for each of the two bodies. Half of every source's pose pairs overlap, half do not; penetration and EPA are timed on the overlapping ones, time of impact on the disjoint ones.",
    ),
    (
        "n",
        "Hull vertices of each body (both bodies of a pair are the same hull).",
    ),
    (
        "sphere, ellipsoid",
        "Synthetic hulls: n random points on a sphere, or on an ellipsoid with semi-axes 1, 0.5 and 0.25; every point is a hull vertex.",
    ),
    (
        "mean time per query",
        "Time of one pass over every timed input (directions or pose pairs) divided by their number; the median over the timing passes. Random inputs spread the queries over the whole structure, so caches do not flatter the big hulls.",
    ),
    (
        "± (spread)",
        "Half the interquartile range of the passes' times, as a percentage of the mean time.",
    ),
    (
        "(k of N)",
        "A slow baseline or the peer timed on the first k of the N shuffled inputs only (a random sample), to keep the report short.",
    ),
    (
        "speed-up",
        "The other method's mean time divided by ours: 10× means ours takes a tenth of the time; below 1× the other is faster.",
    ),
    (
        "exact oracle",
        "The explicit Minkowski difference (hull of all n² differences) with exact predicates: the true answer, computed for small hulls only (n_A·n_B ≤ the oracle limit).",
    ),
    (
        "disagrees, ⚠",
        "An answer differing from the family's first method, the exact oracle, or (EPA) from h_D along its own normal, by more than the agreement tolerance of the size of D.",
    ),
    (
        "parry3d",
        "A widely used Rust collision library, the peer we compare with, given our exact hull as its shape.",
    ),
    (
        "configuration (robot)",
        "One value per movable joint of the robot (the Panda: 7 arm joints and one finger). A configuration collides when some active pair of bodies (link–link pairs not allowed by the SRDF, and link–obstacle pairs) intersects.",
    ),
    (
        "configurations per second",
        "1 / the median time per configuration: boolean (check: stop at the first colliding pair) or distance (minimum distance over the active pairs). The same random configurations for every method and scene.",
    ),
    (
        "plain GJK checker",
        "polyquery's robot checker with every hull answering support queries by scanning its vertices: the same broad phase and GJK, without the normal vector map.",
    ),
    (
        "certified motion check",
        "Whether the straight joint-space segment between two configurations is free, by conservative advancement: it never calls a colliding motion free.",
    ),
    (
        "sampled motion check",
        "The segment's configurations every 0.01 rad of its largest joint move, checked one by one, stopping at the first colliding one, as planners commonly do; contacts between samples are missed.",
    ),
    (
        "warm load",
        "Loading the robot a second time: URDF, SRDF, scene and checker, with every mesh's hull read from the shape cache instead of being rebuilt.",
    ),
];

/// Ours (time `o`) against another method (time `b`) said plainly: `12× faster than X`,
/// `1.4× slower than X`, `about as fast as X`.
fn faster(b: f64, o: f64, other: &str) -> String {
    let r = b / o;
    if (0.95..1.05).contains(&r) {
        format!("about as fast as {other}")
    } else if r >= 1.0 {
        format!("{} faster than {other}", ratio(r))
    } else {
        format!("{} slower than {other}", ratio(1.0 / r))
    }
}

/// A source as the text names it: `sphere n = 4,096` or `bunny_npm (319 vertices)`.
pub fn source_label(r: &ResultRow) -> String {
    if r.kind == "synthetic" {
        format!("{} n = {}", r.source, group(r.vertices))
    } else {
        format!(
            "{} ({} vertices)",
            r.source.trim_end_matches(".obj"),
            group(r.vertices)
        )
    }
}

/// The row of `method` for `family` on the same source as `like`.
fn sibling<'a>(
    rows: &'a [ResultRow],
    like: &ResultRow,
    family: Family,
    method: Method,
) -> Option<&'a ResultRow> {
    rows.iter().find(|r| {
        r.source == like.source
            && r.kind == like.kind
            && r.vertices == like.vertices
            && r.query == family
            && r.method == method
    })
}

/// A row's usable mean time.
fn time(r: Option<&ResultRow>) -> Option<f64> {
    r.filter(|r| !r.status.is_unusable())
        .and_then(|r| r.timing.median_ns)
        .filter(|t| t.is_finite() && *t > 0.0)
}

/// The sphere sizes measured, ascending.
fn sphere_sizes(rows: &[ResultRow]) -> Vec<usize> {
    let mut sizes: Vec<usize> = rows
        .iter()
        .filter(|r| r.kind == "synthetic" && r.source == "sphere")
        .map(|r| r.vertices)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// The conclusion, as paragraphs and bullet lists: `summary(report)[i] = (heading, lines)`.
pub fn summary(report: &Report) -> Vec<(String, Vec<String>)> {
    let rows = &report.rows;
    let mut out = Vec::new();
    let sizes = sphere_sizes(rows);
    let at = |family: Family, method: Method, n: usize| time(sphere_row(rows, family, method, n));
    // 1. What is faster than what, by how much, on which sizes.
    let mut speed = Vec::new();
    if let (Some(&lo), Some(&hi)) = (sizes.first(), sizes.last()) {
        for &(family, ours, plain, peer) in HEADLINES {
            let Some(t_hi) = at(family, ours, hi) else {
                continue;
            };
            let mut parts = Vec::new();
            for other in [plain, peer].into_iter().flatten() {
                if let Some(b) = at(family, other, hi) {
                    parts.push(format!(
                        "{} ({})",
                        faster(b, t_hi, &other.prose()),
                        format_time(b)
                    ));
                }
            }
            let mut line = format!(
                "{}: {} takes {} per query at n = {}",
                capitalise(family.name()),
                ours.prose(),
                format_time(t_hi),
                group(hi)
            );
            if !parts.is_empty() {
                line.push_str(&format!(" — {}", parts.join(" and ")));
            }
            if lo != hi {
                let small: Vec<String> = [plain, peer]
                    .into_iter()
                    .flatten()
                    .filter_map(|other| {
                        Some(faster(
                            at(family, other, lo)?,
                            at(family, ours, lo)?,
                            &other.prose(),
                        ))
                    })
                    .collect();
                if !small.is_empty() {
                    line.push_str(&format!("; at n = {}: {}", group(lo), small.join(", ")));
                }
                // From which size on ours wins against each comparison.
                for other in [plain, peer].into_iter().flatten() {
                    let wins: Vec<(usize, bool)> = sizes
                        .iter()
                        .filter_map(|&n| Some((n, at(family, other, n)? > at(family, ours, n)?)))
                        .collect();
                    if let Some(first_win) = crossover(&wins)
                        && first_win != wins[0].0
                    {
                        line.push_str(&format!(
                            "; faster than {} from n = {} up",
                            other.prose(),
                            group(first_win)
                        ));
                    }
                }
            }
            line.push('.');
            speed.push(line);
        }
    }
    if !speed.is_empty() {
        out.push((
            format!(
                "How fast (sphere hulls, n = {} … {} vertices per body)",
                group(sizes[0]),
                group(*sizes.last().unwrap_or(&0))
            ),
            speed,
        ));
    }
    // 2. Where the peer (or the baseline) is faster than ours.
    let mut peer_wins = Vec::new();
    let mut compared = 0usize;
    for &(family, ours, _, peer) in HEADLINES {
        let Some(peer) = peer else { continue };
        for r in rows
            .iter()
            .filter(|r| r.query == family && r.method == ours)
        {
            let (Some(o), Some(p)) = (time(Some(r)), time(sibling(rows, r, family, peer))) else {
                continue;
            };
            compared += 1;
            if p < o {
                peer_wins.push((r.vertices, family, r, o, p));
            }
        }
    }
    if compared > 0 {
        let mut lines = Vec::new();
        if peer_wins.is_empty() {
            lines.push(format!(
                "Nowhere: ours is faster than parry3d in all {compared} comparisons (every query family on every hull)."
            ));
        } else {
            let largest = peer_wins.iter().map(|w| w.0).max().unwrap_or(0);
            lines.push(format!(
                "parry3d is faster in {} of {compared} comparisons (query family × hull), all on hulls of at most {} vertices; there the fixed cost per query dominates, not the support queries:",
                peer_wins.len(),
                group(largest)
            ));
            peer_wins.sort_by(|a, b| (a.3 / a.4).total_cmp(&(b.3 / b.4)).reverse());
            const SHOWN: usize = 12;
            for (_, family, r, o, p) in peer_wins.iter().take(SHOWN) {
                lines.push(format!(
                    "{} on {}: parry3d {}, {} {} — parry3d {} faster.",
                    capitalise(family.name()),
                    source_label(r),
                    format_time(*p),
                    r.method.prose(),
                    format_time(*o),
                    ratio(o / p)
                ));
            }
            if peer_wins.len() > SHOWN {
                lines.push(format!(
                    "… and {} more with smaller margins (the tables below have them all).",
                    peer_wins.len() - SHOWN
                ));
            }
        }
        out.push(("Where parry3d is faster".into(), lines));
    }
    // 3. Where answers disagree, and who is wrong.
    out.push(("Where answers disagree".into(), disagreements(rows)));
    // 0. First the robots and planning (what a robotics engineer compares first), then the
    // pair queries' bottom line.
    let short = bottom_line(rows, &sizes);
    if !short.is_empty() {
        out.insert(0, ("Pair queries, in short".into(), short));
    }
    if let Some(planning) = &report.planning {
        let lines = crate::planning::summary_lines(planning);
        if !lines.is_empty() {
            out.insert(0, ("Planning".into(), lines));
        }
    }
    let robot = report
        .robot
        .as_ref()
        .map(summary_lines)
        .filter(|l| !l.is_empty());
    if let Some(lines) = robot {
        let heading = format!(
            "Robots (Franka Panda, {} random configurations)",
            group(report.robot.as_ref().map_or(0, |r| r.configurations))
        );
        out.insert(0, (heading, lines));
    }
    // 4. How it was measured.
    let mut how = vec![format!(
        "Times are means per query over {} random pose pairs per hull ({} overlapping ones for penetration and EPA, {} disjoint ones for time of impact) and {} distinct random directions per hull for support, so the queries of the big hulls do not stay in cache; every figure of ours uses all of them. Slow baselines and parry3d stop after about {} ms per table cell (at least {} inputs), and their cells say how many they were timed on (\"k of N\").",
        group(report.workload.queries),
        group(report.workload.queries / 2),
        group(report.workload.queries - report.workload.queries / 2),
        group(report.workload.directions),
        (report.sample_budget_seconds * 1e3).round(),
        report.min_samples
    )];
    if report.quick {
        how.push("This is a --quick report: small hulls, fewer pose pairs and directions, short timing. A smoke test, not the figures to quote; run `polyquery report` for those.".into());
    }
    if !report.loads.is_empty() {
        let each: Vec<String> = report
            .loads
            .iter()
            .map(|l| format!("{}: {}", l.section, l.describe()))
            .collect();
        let busy = report.loads.iter().any(|l| l.busy());
        how.push(format!(
            "The machine's 1-minute load average around each section — {}{}.",
            each.join("; "),
            if busy {
                ". A load above the core count means more runnable processes than this report's threads alone make: other work shared the cores, so times may be slower and threads add less than on an idle machine"
            } else {
                ""
            }
        ));
    }
    out.push(("How it was measured".into(), how));
    out
}

/// Three sentences: the speed-up ranges at the largest sphere size, where the peer wins,
/// and which methods' answers are wrong.
fn bottom_line(rows: &[ResultRow], sizes: &[usize]) -> Vec<String> {
    let mut lines = Vec::new();
    let at = |family: Family, method: Method, n: usize| time(sphere_row(rows, family, method, n));
    let range = |v: &[f64]| -> Option<String> {
        let lo = v.iter().copied().reduce(f64::min)?;
        let hi = v.iter().copied().reduce(f64::max)?;
        Some(if ratio(lo) == ratio(hi) {
            ratio(lo)
        } else {
            format!("{} to {}", ratio(lo), ratio(hi))
        })
    };
    if let Some(&hi) = sizes.last() {
        let mut vs_plain = Vec::new();
        let mut vs_peer = Vec::new();
        for &(family, ours, plain, peer) in HEADLINES {
            let Some(o) = at(family, ours, hi) else {
                continue;
            };
            if let Some(b) = plain.and_then(|m| at(family, m, hi)) {
                vs_plain.push(b / o);
            }
            if let Some(b) = peer.and_then(|m| at(family, m, hi)) {
                vs_peer.push(b / o);
            }
        }
        let mut parts = Vec::new();
        if let Some(r) = range(&vs_plain) {
            parts.push(format!(
                "{r} faster than the same algorithms on linear-scan support (plain GJK)"
            ));
        }
        if let Some(r) = range(&vs_peer) {
            parts.push(format!("{r} faster than parry3d"));
        }
        if !parts.is_empty() {
            lines.push(format!(
                "On sphere hulls of {} vertices our queries on the normal vector map are {}, query by query (support, intersection, directional penetration, distance, time of impact, EPA depth).",
                group(hi),
                parts.join(" and ")
            ));
        }
    }
    // Where the peer is faster.
    let mut compared = 0usize;
    let mut wins: Vec<(usize, f64)> = Vec::new();
    for &(family, ours, _, peer) in HEADLINES {
        let Some(peer) = peer else { continue };
        for r in rows
            .iter()
            .filter(|r| r.query == family && r.method == ours)
        {
            if let (Some(o), Some(p)) = (time(Some(r)), time(sibling(rows, r, family, peer))) {
                compared += 1;
                if p < o {
                    wins.push((r.vertices, o / p));
                }
            }
        }
    }
    if compared > 0 {
        lines.push(match wins.iter().map(|w| w.0).max() {
            None => "parry3d is never faster than ours here.".into(),
            Some(largest) => format!(
                "parry3d is faster in {} of {compared} comparisons, only on hulls of at most {} vertices, by at most {}.",
                wins.len(),
                group(largest),
                ratio(wins.iter().map(|w| w.1).fold(1.0, f64::max))
            ),
        });
    }
    // Wrong answers.
    let mut wrong: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| {
        r.status == Status::Disagrees
            && (r.oracle_error.is_some_and(|e| e > AGREEMENT_TOLERANCE)
                || r.normal_gap.is_some_and(|e| e > AGREEMENT_TOLERANCE))
    }) {
        let name = format!("{} ({})", r.method, r.query);
        if !wrong.contains(&name) {
            wrong.push(name);
        }
    }
    let ours_bad = rows
        .iter()
        .any(|r| !r.method.is_peer() && r.status.is_problem());
    let ours = if ours_bad {
        "some of ours disagree or fail too (below)"
    } else {
        "every answer of ours agrees with the others and passes the exact checks"
    };
    lines.push(if wrong.is_empty() {
        format!("No answer was proven wrong; {ours}.")
    } else {
        format!("Proven wrong: {} (why below); {ours}.", wrong.join(", "))
    });
    lines
}

/// The smallest size from which on `ours` wins at every larger size too (`None` if it does
/// not win at the largest).
fn crossover(wins: &[(usize, bool)]) -> Option<usize> {
    let mut first = None;
    for &(n, win) in wins.iter().rev() {
        if !win {
            break;
        }
        first = Some(n);
    }
    first
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Sizes or meshes as a short list: `sphere n = 4,096, 32,768; ellipsoid n = 512`.
fn sources_list(rows: &[&ResultRow]) -> String {
    let mut parts: Vec<(String, Vec<String>)> = Vec::new();
    for r in rows {
        let (key, item) = if r.kind == "synthetic" {
            (format!("{} n =", r.source), group(r.vertices))
        } else {
            (
                "meshes".to_string(),
                r.source.trim_end_matches(".obj").to_string(),
            )
        };
        match parts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, items)) => items.push(item),
            None => parts.push((key, vec![item])),
        }
    }
    parts
        .into_iter()
        .map(|(k, items)| format!("{k} {}", items.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One sentence per method whose answers disagree or fail: where, by how much, and who is
/// wrong (by the exact oracle, or for EPA by the support function along its own normal).
fn disagreements(rows: &[ResultRow]) -> Vec<String> {
    let tol = AGREEMENT_TOLERANCE;
    let mut lines = Vec::new();
    let mut methods: Vec<(Family, Method)> = Vec::new();
    for r in rows.iter().filter(|r| r.status.is_problem()) {
        let key = (r.query, r.method);
        if !methods.contains(&key) {
            methods.push(key);
        }
    }
    for (query, method) in &methods {
        let mine: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| r.query == *query && r.method == *method)
            .collect();
        let failed: Vec<&ResultRow> = mine
            .iter()
            .copied()
            .filter(|r| r.status == Status::Failed)
            .collect();
        if let Some(f) = failed.first() {
            lines.push(format!(
                "{method} ({query}) failed on {}: {}.",
                sources_list(&failed),
                f.note
            ));
        }
        let bad: Vec<&ResultRow> = mine
            .iter()
            .copied()
            .filter(|r| r.status == Status::Disagrees)
            .collect();
        if bad.is_empty() {
            continue;
        }
        let worst = |f: &dyn Fn(&ResultRow) -> Option<f64>| {
            bad.iter().filter_map(|r| f(r)).reduce(f64::max)
        };
        let vs_first = worst(&|r| r.max_disagreement);
        let vs_oracle = worst(&|r| r.oracle_error);
        let gap = worst(&|r| r.normal_gap);
        // The family's first method (its reference); `bad` holds rows of it, so it exists.
        let Some(family_first) = rows.iter().find(|r| r.query == *query).map(|r| r.method) else {
            continue;
        };
        let is_verdict = query.is_verdict();
        let amount = |v: f64| {
            if is_verdict {
                format!("{:.1} % of the poses", 100.0 * v)
            } else {
                format!("{v:.1e} of the size of D")
            }
        };
        let where_ = sources_list(&bad);
        if let Some(g) = gap.filter(|g| *g > tol) {
            // Ours' own gap on the same sources, for contrast.
            let ours_gap = bad
                .iter()
                .filter_map(|r| sibling(rows, r, *query, family_first))
                .filter_map(|r| r.normal_gap)
                .reduce(f64::max);
            let differs = vs_first
                .map(|v| {
                    format!(
                        " its depth differs from {family_first}'s by up to {} and",
                        amount(v)
                    )
                })
                .unwrap_or_default();
            let ours = ours_gap
                .map(|o| format!(" ({family_first}'s gap there: at most {o:.0e})"))
                .unwrap_or_default();
            lines.push(format!(
                "{method} is wrong on {where_}:{differs} the support function along its own normal, h_D(normal), differs from the depth it reports by up to {g:.1e} of the size of D, but every direction u has h_D(u) ≥ the true depth and a correct depth is attained along its normal{ours} — so {method}'s depth is not the penetration depth along the normal it returns."
            ));
        } else if let Some(o) = vs_oracle.filter(|o| *o > tol) {
            lines.push(format!(
                "{method} ({query}) is wrong on {where_}: it differs from the exact oracle by up to {}.",
                amount(o)
            ));
        } else if let Some(v) = vs_first {
            lines.push(format!(
                "{method} ({query}) differs from {family_first} by up to {} on {where_}; no exact check covers these sizes, so which one is wrong is not decided here.",
                amount(v)
            ));
        }
    }
    if lines.is_empty() {
        lines.push(format!(
            "Nowhere: every method agrees with every other, and with the exact oracle where it was computed, to within {tol:.0e} of the size of D (intersection: identical verdicts)."
        ));
    } else {
        lines.push(format!(
            "Every other method agrees with the others, and with the exact oracle where it was computed, to within {tol:.0e} of the size of D."
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_plainly() {
        assert_eq!(group(1_048_576), "1,048,576");
        assert_eq!(group(64), "64");
        assert_eq!(ratio(1160.4), "1,160×");
        assert_eq!(ratio(1.44), "1.44×");
        assert_eq!(ratio(3.44), "3.4×");
        assert_eq!(faster(10.0, 1.0, "X"), "10× faster than X");
        assert_eq!(faster(1.0, 2.0, "X"), "2.0× slower than X");
        assert_eq!(faster(1.0, 1.01, "X"), "about as fast as X");
        assert_eq!(Method::NioNvm.prose(), "Nio on the NVM");
        assert_eq!(Method::GjkLinearScan.prose(), "plain GJK");
        assert_eq!(format_time(5_712.0), "5.71 µs");
        assert_eq!(format_time(61.2), "61.2 ns");
        assert_eq!(
            crossover(&[(64, false), (512, true), (4096, true)]),
            Some(512)
        );
        assert_eq!(crossover(&[(64, true), (512, false)]), None);
    }
}

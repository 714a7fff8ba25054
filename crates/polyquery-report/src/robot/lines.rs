//! The robot lines of the report's first screen, in plain words
//! (`summary_lines(s)[i]` = one sentence): measured values against the targets, never
//! asserting them.
//!
//! Where it sits: the first screen ([`crate::summary`]) puts them under their own heading.

use super::plan::{
    TARGET_CHECKS_PER_S, TARGET_DISTANCES_PER_S, TARGET_MOTIONS_PER_S, TARGET_SCAN_RATIO,
    TARGET_THREAD_SPEEDUP, TARGET_WARM_LOAD_MS, UR5_SCENE,
};
use super::section::RobotMethod::{
    self, Certified, Decomposed, Hull, Nvm, Parry, PlainGjk, Sampled,
};
use super::section::RobotQuery::{self, Check, Distance, Motion};
use super::section::{RobotSection, Unit};
use crate::format::{group, rate, ratio, verdict, vertices_label};

/// The UR5's line: decomposed against hull speed (`time(hull) / time(decomposed)`, one
/// thread) and false alarms removed (`hull − decomposed`), missed collisions of both.
fn ur5_line(s: &RobotSection) -> Option<String> {
    let u = s.ur5.as_ref()?;
    let (h, d) = (u.method(Hull)?, u.method(Decomposed)?);
    let speed = |query| match (
        s.time(UR5_SCENE, query, Hull, 1),
        s.time(UR5_SCENE, query, Decomposed, 1),
    ) {
        (Some(th), Some(td)) => ratio(th / td),
        _ => "n/a".into(),
    };
    let missed = if h.missed + d.missed == 0 {
        "0 missed".to_string()
    } else {
        format!(
            "⚠ missed collisions: {} decomposed, {} hull",
            d.missed, h.missed
        )
    };
    Some(format!(
        "On the UR5 (table top, {} configurations, one thread), decomposed links run at {} the speed of hulls ({} for distances) and remove {} of {} false alarms; {missed} ({} pieces, largest deviation {}).",
        group(u.configurations),
        speed(Check),
        speed(Distance),
        group(h.false_alarms.saturating_sub(d.false_alarms)),
        group(h.false_alarms),
        group(d.total_pieces()),
        d.largest_deviation()
            .map_or("n/a".into(), |x| format!("{x:.1e} m"))
    ))
}

/// The robot lines of the first screen, in plain words: measured values against the
/// targets, never asserting (`summary_lines(s)[i]` = one sentence).
pub fn summary_lines(s: &RobotSection) -> Vec<String> {
    let mut lines = Vec::new();
    let t = s.threads;
    let ts = "table_shelf";
    let per_s = |scene: &str, query: RobotQuery, method: RobotMethod, th: usize| {
        s.time(scene, query, method, th).map(|ns| 1e9 / ns)
    };
    // Table and shelf, one thread.
    if let (Some(c), Some(d)) = (per_s(ts, Check, Nvm, 1), per_s(ts, Distance, Nvm, 1)) {
        lines.push(format!(
            "Panda + table and shelf, one thread: {} boolean checks (target ≥ {}: {}) and {} distance queries (target ≥ {}: {}).",
            rate(c),
            rate(TARGET_CHECKS_PER_S),
            verdict(c >= TARGET_CHECKS_PER_S),
            rate(d),
            rate(TARGET_DISTANCES_PER_S),
            verdict(d >= TARGET_DISTANCES_PER_S)
        ));
    }
    // Threads.
    if t > 1
        && let (Some(one), Some(all)) = (s.time(ts, Check, Nvm, 1), s.time(ts, Check, Nvm, t))
    {
        let dist = match (s.time(ts, Distance, Nvm, 1), s.time(ts, Distance, Nvm, t)) {
            (Some(a), Some(b)) => format!(", distance {}", ratio(a / b)),
            _ => String::new(),
        };
        let x = one / all;
        lines.push(format!(
            "All {t} threads, table and shelf: {} boolean checks, {} one thread's{dist} (target ≥ {TARGET_THREAD_SPEEDUP}×: {}).",
            rate(1e9 / all),
            ratio(x),
            verdict(x >= TARGET_THREAD_SPEEDUP)
        ));
    } else if t == 1 {
        lines.push("One hardware thread here: the all-threads figures equal one thread's.".into());
    }
    // Scanned obstacle.
    let scans = s.scan_scenes();
    let at = |n: usize| scans.iter().find(|x| x.1 == n).map(|x| x.0.clone());
    match (at(10_000), at(1_000_000)) {
        (Some(lo), Some(hi)) => {
            if let (Some(a), Some(b)) = (s.time(&lo, Check, Nvm, 1), s.time(&hi, Check, Nvm, 1)) {
                lines.push(format!(
                    "Beside a scanned obstacle, the 10⁶-vertex one costs {} the 10⁴-vertex one per boolean check ({} vs {}; target ≤ {TARGET_SCAN_RATIO}×: {}).",
                    ratio(b / a),
                    rate(1e9 / b),
                    rate(1e9 / a),
                    verdict(b / a <= TARGET_SCAN_RATIO)
                ));
            }
        }
        (Some(lo), None) => {
            if let Some((big, n)) = scans.last().filter(|x| x.1 > 10_000)
                && let (Some(a), Some(b)) = (s.time(&lo, Check, Nvm, 1), s.time(big, Check, Nvm, 1))
            {
                lines.push(format!(
                    "Beside a scanned obstacle, the {}-vertex one costs {} the 10⁴-vertex one per boolean check (10⁶ not measured in this run, so the ≤ {TARGET_SCAN_RATIO}× target is not checked).",
                    vertices_label(*n),
                    ratio(b / a)
                ));
            }
        }
        _ => {}
    }
    // Against plain GJK and parry3d, on the largest scan and table+shelf.
    let mut vs = Vec::new();
    if let Some((big, n)) = scans.last()
        && let (Some(o), Some(b)) = (s.time(big, Check, Nvm, 1), s.time(big, Check, PlainGjk, 1))
    {
        vs.push(format!(
            "{} faster than plain GJK beside the {}-vertex obstacle",
            ratio(b / o),
            vertices_label(*n)
        ));
    }
    if let (Some(o), Some(p)) = (s.time(ts, Check, Nvm, 1), s.time(ts, Check, Parry, 1)) {
        let r = p / o;
        vs.push(if r >= 1.0 {
            format!("{} faster than parry3d with table and shelf", ratio(r))
        } else {
            format!(
                "{} slower than parry3d with table and shelf",
                ratio(1.0 / r)
            )
        });
    }
    if !vs.is_empty() {
        lines.push(format!("Boolean checks, one thread: {}.", vs.join("; ")));
    }
    // Agreement.
    let gjk_bad: usize = s.scenes.iter().map(|x| x.vs_plain_gjk.disagreements).sum();
    let gjk_n: usize = s.scenes.iter().map(|x| x.vs_plain_gjk.compared).sum();
    let mut agree = if gjk_bad == 0 {
        format!(
            "Verdicts: NVM and plain GJK agree on all {} configurations compared",
            group(gjk_n)
        )
    } else {
        format!(
            "Verdicts: NVM and plain GJK disagree on {gjk_bad} of {} configurations (they should agree exactly: see the cross-check table)",
            group(gjk_n)
        )
    };
    if s.peer_available {
        let bad: usize = s
            .scenes
            .iter()
            .filter_map(|x| x.vs_parry.map(|a| a.disagreements))
            .sum();
        let n: usize = s
            .scenes
            .iter()
            .filter_map(|x| x.vs_parry.map(|a| a.compared))
            .sum();
        agree.push_str(&format!("; parry3d differs on {bad} of {}", group(n)));
    }
    agree.push('.');
    lines.push(agree);
    if let Some(w) = &s.warm_load {
        lines.push(format!(
            "Loading the Panda a second time (warm shape cache): {:.1} ms (target ≤ {TARGET_WARM_LOAD_MS} ms: {}).",
            w.median_ms,
            verdict(w.median_ms <= TARGET_WARM_LOAD_MS)
        ));
    }
    if let Some(m) = &s.motions {
        let c = per_s(ts, Motion, Certified, 1);
        let sm = per_s(ts, Motion, Sampled, 1);
        if let (Some(c), Some(sm)) = (c, sm) {
            lines.push(format!(
                "Motions (table and shelf, {} random ones, one thread): certified {} vs sampled at 0.01 rad {} (targets: certified ≥ sampled: {}; ≥ {}: {}); certified finds {} colliding, sampling {} and misses {}.",
                group(m.motions),
                rate(c),
                rate(sm),
                verdict(c >= sm),
                rate(TARGET_MOTIONS_PER_S),
                verdict(c >= TARGET_MOTIONS_PER_S),
                group(m.colliding_certified),
                group(m.colliding_sampled),
                group(m.missed_by_sampled)
            ));
        }
    }
    if let Some(line) = ur5_line(s) {
        lines.push(line);
    }
    match &s.pinocchio {
        Some(p) => {
            let best = p
                .modes
                .iter()
                .filter(|x| x.unit == Unit::Configurations && x.threads == 1)
                .map(|x| x.per_second)
                .fold(0.0, f64::max);
            if best > 0.0 {
                lines.push(format!(
                    "pinocchio + coal (measured by benches/robot_pinocchio.py, {}): {} boolean checks with table and shelf on one thread at best{}.",
                    p.versions,
                    rate(best),
                    if p.same_configurations {
                        ", on this report's configurations"
                    } else {
                        ", on other configurations"
                    }
                ));
            }
        }
        None => lines.push(
            "pinocchio + coal: not measured in this report (run benches/robot_pinocchio.py and pass --pinocchio FILE).".into(),
        ),
    }
    lines
}

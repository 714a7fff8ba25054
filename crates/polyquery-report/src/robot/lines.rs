//! The robot lines of the report's first screen, in plain words
//! (`summary_lines(s)[i]` = one sentence): what a robotics engineer compares first — checks
//! and distances per second against pinocchio + coal, threads with the machine's load,
//! motions, the UR5's decomposed meshes.
//!
//! Where it sits: the first screen ([`crate::summary`]) puts them under their own heading.

use super::plan::UR5_SCENE;
use super::section::RobotMethod::{
    self, Certified, Decomposed, Hull, Nvm, Parry, PlainGjk, Sampled,
};
use super::section::RobotQuery::{self, Check, Distance, Motion};
use super::section::{PinocchioFigures, RobotSection, Unit};
use crate::format::{group, rate, ratio, vertices_label};

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
    let exact = u
        .pinocchio_exact
        .as_ref()
        .and_then(|p| pinocchio_best(p, Unit::Configurations, "check"))
        .zip(s.time(UR5_SCENE, Check, Decomposed, 1))
        .map(|(pin, ns)| format!(", {} with the exact meshes", against(1e9 / ns, pin)))
        .unwrap_or_default();
    Some(format!(
        "On the UR5 (table top, {} configurations, one thread), decomposed links run at {} the speed of hulls ({} for distances){exact}, and remove {} of {} false alarms; {missed} ({} pieces, largest deviation {}).",
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

/// pinocchio + coal's best one-thread figure of `unit` whose mode starts with `prefix`
/// (`check`, `distance`, `motion`): `best(p, Configurations, "check")` = its fastest check mode.
pub fn pinocchio_best(p: &PinocchioFigures, unit: Unit, prefix: &str) -> Option<f64> {
    p.modes
        .iter()
        .filter(|x| x.unit == unit && x.threads == 1 && x.mode.starts_with(prefix))
        .map(|x| x.per_second)
        .reduce(f64::max)
}

/// `ours` per second against pinocchio's `theirs` in words: `"20× pinocchio + coal's 17,000/s"`.
fn against(ours: f64, theirs: f64) -> String {
    let r = ours / theirs;
    if r >= 1.0 {
        format!(
            "{} faster than pinocchio + coal's {}",
            ratio(r),
            rate(theirs)
        )
    } else {
        format!(
            "{} slower than pinocchio + coal's {}",
            ratio(1.0 / r),
            rate(theirs)
        )
    }
}

/// The robot lines of the first screen, in plain words: what was measured, against
/// pinocchio + coal when measured (`summary_lines(s)[i]` = one sentence).
pub fn summary_lines(s: &RobotSection) -> Vec<String> {
    let mut lines = Vec::new();
    let t = s.threads;
    let ts = "table_shelf";
    let per_s = |scene: &str, query: RobotQuery, method: RobotMethod, th: usize| {
        s.time(scene, query, method, th).map(|ns| 1e9 / ns)
    };
    let pin = s.pinocchio.as_ref();
    let same = |p: &PinocchioFigures| {
        if p.same_configurations {
            "same configurations and meshes"
        } else {
            "other configurations"
        }
    };
    // Table and shelf, one thread, against pinocchio + coal.
    if let (Some(c), Some(d)) = (per_s(ts, Check, Nvm, 1), per_s(ts, Distance, Nvm, 1)) {
        let versus = match pin {
            Some(p) => {
                let parts: Vec<String> = [
                    pinocchio_best(p, Unit::Configurations, "check").map(|x| against(c, x)),
                    pinocchio_best(p, Unit::Configurations, "distance").map(|x| against(d, x)),
                ]
                .into_iter()
                .flatten()
                .collect();
                format!(" — {} ({})", parts.join("; distances "), same(p))
            }
            None => String::new(),
        };
        lines.push(format!(
            "Panda + table and shelf, one thread: collision checks at {}, minimum distances at {}{versus}.",
            rate(c),
            rate(d),
        ));
    }
    if pin.is_none() {
        lines.push(format!(
            "pinocchio + coal: not measured ({}; see the warm-load table for how).",
            s.pinocchio_missing.as_deref().unwrap_or("not asked for")
        ));
    }
    // Threads, with the machine's load that explains them.
    if t > 1
        && let (Some(one), Some(all)) = (s.time(ts, Check, Nvm, 1), s.time(ts, Check, Nvm, t))
    {
        let dist = match (s.time(ts, Distance, Nvm, 1), s.time(ts, Distance, Nvm, t)) {
            (Some(a), Some(b)) => format!(", distances {}", ratio(a / b)),
            _ => String::new(),
        };
        // Threads short of half their ideal speed-up, on a busy machine: the load says why.
        let short = one / all < 0.5 * t as f64;
        let load = match &s.load {
            Some(l) if l.busy() && short => format!(
                " — the machine was busy ({}: more runnable processes than cores, which this report's threads alone cannot make, so they shared the cores with other work)",
                l.describe()
            ),
            Some(l) => format!(" ({})", l.describe()),
            None => String::new(),
        };
        lines.push(format!(
            "All {t} threads: checks at {}, {} one thread's{dist}{load}.",
            rate(1e9 / all),
            ratio(one / all),
        ));
    } else if t == 1 {
        lines.push("One hardware thread here: the all-threads figures equal one thread's.".into());
    }
    // Motions.
    if let Some(m) = &s.motions
        && let (Some(c), Some(sm)) = (
            per_s(ts, Motion, Certified, 1),
            per_s(ts, Motion, Sampled, 1),
        )
    {
        let pin_motion = pin
            .and_then(|p| pinocchio_best(p, Unit::Motions, "motion"))
            .map(|x| format!(", pinocchio + coal sampled {}", rate(x)))
            .unwrap_or_default();
        lines.push(format!(
            "Motions (table and shelf, {} random ones, one thread): certified {} (never calls a colliding motion free), sampled every 0.01 rad {}{pin_motion}; certified finds {} colliding, sampling misses {}.",
            group(m.motions),
            rate(c),
            rate(sm),
            group(m.colliding_certified),
            group(m.missed_by_sampled)
        ));
    }
    if let Some(line) = ur5_line(s) {
        lines.push(line);
    }
    // Against plain GJK and parry3d, on the largest scan and table+shelf.
    let scans = s.scan_scenes();
    let mut vs = Vec::new();
    if let Some((big, n)) = scans.last()
        && let (Some(o), Some(b)) = (s.time(big, Check, Nvm, 1), s.time(big, Check, PlainGjk, 1))
    {
        vs.push(format!(
            "{} faster than plain GJK beside a scanned obstacle of {} vertices",
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
    if let (Some((lo, a)), Some((hi, b))) = (scans.first(), scans.last())
        && a != b
        && let (Some(x), Some(y)) = (s.time(lo, Check, Nvm, 1), s.time(hi, Check, Nvm, 1))
    {
        vs.push(format!(
            "a {}-vertex obstacle costs {} a {}-vertex one",
            vertices_label(*b),
            ratio(y / x),
            vertices_label(*a)
        ));
    }
    if !vs.is_empty() {
        lines.push(format!("Checks, one thread: {}.", vs.join("; ")));
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
    if let Some(w) = &s.warm_load {
        agree.push_str(&format!(
            ". Loading the Panda a second time (warm shape cache): {:.1} ms",
            w.median_ms
        ));
    }
    agree.push('.');
    lines.push(agree);
    lines
}

//! The side-by-side run of `benches/plan_ompl.py` (`--ompl FILE`, JSON lines `{"planner",
//! "problem", "solved", "planning_seconds", "simplify_seconds", "length", "path",
//! "certified_free"}`): per planner, solved counts and times, and every returned path
//! re-checked here by the library's certified motion check in its problem's scene (the file's
//! own `certified_free` is shown, never trusted).
//!
//! Where it sits: after [`crate::planning::inputs`]; [`crate::planning::run`] calls [`side_by_side`].

use super::inputs::Mbm;
use super::section::{PlannerFigures, SideBySide, Times};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// One line of the file, as read.
struct Line {
    planner: String,
    problem: String,
    solved: bool,
    planning: f64,
    simplify: f64,
    length: Option<f64>,
    path: Option<Vec<Vec<f64>>>,
    claimed_free: Option<bool>,
}

/// A line of the file, or why it is not one.
fn parse_line(text: &str) -> Result<Line, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let field = |k: &str| {
        v[k].as_str()
            .map(str::to_string)
            .ok_or(format!("no \"{k}\" string"))
    };
    let path = match &v["path"] {
        Value::Array(qs) => Some(
            qs.iter()
                .map(|q| {
                    q.as_array()
                        .and_then(|xs| xs.iter().map(Value::as_f64).collect::<Option<Vec<_>>>())
                        .ok_or("a path holds a non-number")
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        _ => None,
    };
    Ok(Line {
        planner: field("planner")?,
        problem: field("problem")?,
        solved: v["solved"].as_bool() == Some(true) && path.is_some(),
        planning: v["planning_seconds"].as_f64().unwrap_or(f64::NAN),
        simplify: v["simplify_seconds"].as_f64().unwrap_or(f64::NAN),
        length: v["length"].as_f64(),
        path,
        claimed_free: v["certified_free"].as_bool(),
    })
}

/// Whether every edge of `path` is certified free in `checker`'s scene (`None`: a
/// configuration the checker refuses, or fewer than one configuration).
fn certified_free(checker: &polyquery::robot::Checker, path: &[Vec<f64>]) -> Option<bool> {
    if path.is_empty() {
        return None;
    }
    let mut free = true;
    for e in path.windows(2) {
        free &= checker.check_motion(&e[0], &e[1]).ok()?.free;
    }
    if path.len() == 1 {
        free = !checker.check(&path[0]).ok()?.collides;
    }
    Some(free)
}

/// Reads `file` and re-checks every solved path (problems in parallel, one checker per
/// problem): `side_by_side(f, m, notes)?.planners[k].solved` = planner `k`'s solved lines.
/// Bad lines are skipped with a note naming them.
pub fn side_by_side(file: &Path, mbm: &Mbm, notes: &mut Vec<String>) -> Result<SideBySide, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut lines = Vec::new();
    for (n, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        match parse_line(l) {
            Ok(line) => lines.push(line),
            Err(e) => notes.push(format!(
                "--ompl {}:{}: {e}; line skipped",
                file.display(),
                n + 1
            )),
        }
    }
    // Re-check: the lines of each problem against that problem's checker.
    let mut by_problem: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, l) in lines.iter().enumerate().filter(|(_, l)| l.solved) {
        by_problem.entry(&l.problem).or_default().push(k);
    }
    let by_problem: Vec<(&str, Vec<usize>)> = by_problem.into_iter().collect();
    let verdicts: Vec<(usize, Option<bool>)> = by_problem
        .par_iter()
        .with_max_len(1)
        .flat_map_iter(|(problem, ks)| {
            let checker = mbm.problem(problem).ok().map(|(c, _)| c);
            ks.iter()
                .map(|&k| {
                    let path = lines[k].path.as_deref().unwrap_or_default();
                    (k, checker.as_ref().and_then(|c| certified_free(c, path)))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut verdict = vec![None; lines.len()];
    for (k, v) in verdicts {
        verdict[k] = v;
    }
    let mut order: Vec<&str> = Vec::new();
    for l in &lines {
        if !order.contains(&l.planner.as_str()) {
            order.push(&l.planner);
        }
    }
    let planners = order
        .iter()
        .map(|name| {
            let mine: Vec<usize> = (0..lines.len())
                .filter(|&k| lines[k].planner == *name)
                .collect();
            let solved: Vec<usize> = mine.iter().copied().filter(|&k| lines[k].solved).collect();
            let spread = |f: &dyn Fn(&Line) -> Option<f64>| {
                Times::of(
                    solved
                        .iter()
                        .filter_map(|&k| f(&lines[k]).filter(|x| x.is_finite()))
                        .collect(),
                )
            };
            let count = |want: Option<bool>| solved.iter().filter(|&&k| verdict[k] == want).count();
            PlannerFigures {
                planner: name.to_string(),
                problems: mine.len(),
                solved: solved.len(),
                planning: spread(&|l| Some(l.planning)),
                simplify: spread(&|l| Some(l.simplify)),
                length: spread(&|l| l.length),
                rechecked_free: count(Some(true)),
                not_free: count(Some(false)),
                not_rechecked: count(None),
                claimed_not_free: solved
                    .iter()
                    .filter(|&&k| lines[k].claimed_free == Some(false))
                    .count(),
            }
        })
        .collect();
    Ok(SideBySide {
        file: file.display().to_string(),
        planners,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_bad_paths_are_refused() {
        let l = parse_line(r#"{"planner": "ompl_coal", "problem": "box_panda/0001", "solved": true, "planning_seconds": 0.2, "simplify_seconds": 0.1, "length": 3.5, "path": [[0, 1], [1, 2]], "certified_free": null}"#).unwrap();
        assert!(l.solved && l.claimed_free.is_none());
        assert_eq!(l.path.unwrap(), vec![vec![0.0, 1.0], vec![1.0, 2.0]]);
        let unsolved =
            parse_line(r#"{"planner": "p", "problem": "x", "solved": false, "path": null}"#)
                .unwrap();
        assert!(!unsolved.solved && unsolved.planning.is_nan());
        assert!(parse_line(r#"{"planner": "p", "problem": "x", "path": [["a"]]}"#).is_err());
        assert!(parse_line(r#"{"problem": "x"}"#).is_err());
    }
}

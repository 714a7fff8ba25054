//! One report run (`measure(config, progress) = Report`): checks the settings, loads the
//! meshes, runs the pair-query sources and the robot section with their progress, and
//! returns the measured [`Report`].
//!
//! Where it sits: on top of the measuring modules ([`crate::runner`], [`crate::robot`]);
//! the program that runs a report renders the result with [`crate::writers::documents`].

use crate::config::{Report, ReportConfig, ReportError, bundled_data_dir, load_meshes};
use crate::machine::{MachineInfo, SectionLoad};
use crate::measure::TimingBudget;
use crate::progress::Progress;
use crate::results::{AGREEMENT_TOLERANCE, ORACLE_LIMIT};
use crate::{planning, robot, runner};
use std::path::Path;
use std::time::{Duration, Instant};

/// The sections' names in [`Report::loads`]: `PAIR_QUERIES = "pair queries"`.
pub const PAIR_QUERIES: &str = "pair queries";
/// The robot section's name in [`Report::loads`]: `ROBOT = "robot"`.
pub const ROBOT: &str = "robot";
/// The planning section's name in [`Report::loads`]: `PLANNING = "planning"`.
pub const PLANNING: &str = "planning";

/// Measures everything `config` asks for, telling `progress` how far it has come:
/// `measure(config, progress)?.rows` = every measured cell. Nothing is written: the
/// documents are [`crate::writers::documents`] of the result.
pub fn measure(config: &ReportConfig, progress: &dyn Progress) -> Result<Report, ReportError> {
    if config.workload.queries < 2 {
        return Err(ReportError::Invalid(
            "--queries must be at least 2 (half overlapping, half disjoint)".into(),
        ));
    }
    if config.workload.directions == 0 {
        return Err(ReportError::Invalid(
            "--directions must be at least 1".into(),
        ));
    }
    if config.quick {
        refuse_to_overwrite_full(&config.out)?;
    }
    if let Some(bad) = config.workload.sizes.iter().find(|&&n| n < 4) {
        return Err(ReportError::Invalid(format!(
            "size {bad} is below 4, the fewest points of a 3D hull"
        )));
    }
    let mut notes = Vec::new();
    let meshes = match &config.meshes {
        Some(dir) => load_meshes(dir)?,
        None => Vec::new(),
    };
    if config.workload.sizes.is_empty() && meshes.is_empty() {
        return Err(ReportError::Invalid(
            "no sizes and no meshes to measure".into(),
        ));
    }
    let machine = MachineInfo::detect();
    let sample_budget = if config.quick {
        Duration::from_millis(40)
    } else {
        Duration::from_millis(400)
    };
    let min_samples = if config.quick { 8 } else { 16 };
    let plan = runner::RunPlan {
        workload: config.workload.clone(),
        meshes,
        sample_budget,
        min_samples,
        budget: if config.quick {
            TimingBudget {
                per_cell: Duration::from_millis(12),
                min_batch: Duration::from_micros(500),
                min_batches: 3,
                max_batches: 9,
            }
        } else {
            TimingBudget {
                per_cell: Duration::from_millis(80),
                min_batch: Duration::from_millis(1),
                min_batches: 3,
                max_batches: 21,
            }
        },
        peer_hull_budget: if config.quick {
            Duration::from_secs(2)
        } else {
            Duration::from_secs(20)
        },
        peer_hull_cap: if config.quick {
            Duration::from_millis(500)
        } else {
            Duration::from_secs(4)
        },
    };
    let robot_plan = if config.robot {
        match bundled_data_dir() {
            Some(data) => {
                let cache = config
                    .robot_cache
                    .clone()
                    .unwrap_or_else(robot::default_cache_dir);
                let mut p =
                    robot::RobotPlan::defaults(config.quick, data.join("robots/panda"), cache);
                p.pinocchio = config.pinocchio.clone();
                p.pinocchio_run = config.python.as_ref().map(|python| {
                    let root = data.parent().unwrap_or(&data);
                    robot::PinocchioRun::new(
                        python.clone(),
                        root.join(robot::PINOCCHIO_SCRIPT),
                        config.quick,
                    )
                });
                Some(p)
            }
            None => {
                notes.push(
                    "robot section skipped: the bundled data/robots/panda was not found".into(),
                );
                None
            }
        }
    } else {
        None
    };
    let planning_plan = match (&robot_plan, bundled_data_dir()) {
        (Some(r), Some(data)) => {
            let mut p = planning::PlanningPlan::defaults(
                config.quick,
                data.join("robots/mbm_panda"),
                r.cache.join("mbm_panda_shapes"),
            );
            p.ompl = config.ompl.clone();
            Some(p)
        }
        _ => None,
    };
    let steps = plan.steps()
        + robot_plan.as_ref().map_or(0, robot::RobotPlan::steps)
        + planning_plan
            .as_ref()
            .map_or(0, planning::PlanningPlan::steps);
    progress.start(steps as u64);
    let start = Instant::now();
    let mut loads = Vec::new();
    let cores = machine.cores;
    let sizes: Vec<String> = plan.workload.sizes.iter().map(|n| n.to_string()).collect();
    progress.section(&format!(
        "pair queries: sizes {} and {} meshes",
        sizes.join(", "),
        plan.meshes.len()
    ));
    let load = SectionLoad::start(PAIR_QUERIES, cores);
    let (rows, run_notes) = runner::run_sources(&plan, progress);
    loads.push(load.finish());
    notes.extend(run_notes);
    let robot = robot_plan.and_then(|p| {
        progress.section(&format!(
            "robot: the Panda on {} configurations, {} scenes; the UR5; pinocchio + coal",
            crate::format::group(p.configurations),
            p.scenes().len()
        ));
        let load = SectionLoad::start(ROBOT, cores);
        let measured = robot::run_robot(&p, progress);
        let load = load.finish();
        loads.push(load.clone());
        match measured {
            Ok(mut section) => {
                section.folder = config.out.display().to_string();
                section.load = Some(load);
                notes.extend(section.notes.iter().cloned());
                Some(section)
            }
            Err(e) => {
                notes.push(format!("robot section skipped: {e}"));
                None
            }
        }
    });
    let planning = planning_plan.and_then(|p| {
        progress.section("planning: MotionBenchMaker Panda problems");
        let load = SectionLoad::start(PLANNING, cores);
        let measured = planning::run_planning(&p, progress);
        loads.push(load.finish());
        match measured {
            Ok(section) => {
                notes.extend(section.notes.iter().cloned());
                Some(section)
            }
            Err(e) => {
                notes.push(format!("planning section skipped: {e}"));
                None
            }
        }
    });
    let report = Report {
        machine,
        command: config.command.clone(),
        workload: config.workload.clone(),
        sample_budget_seconds: sample_budget.as_secs_f64(),
        min_samples,
        quick: config.quick,
        agreement_tolerance: AGREEMENT_TOLERANCE,
        oracle_limit: ORACLE_LIMIT,
        elapsed_seconds: start.elapsed().as_secs_f64(),
        notes,
        rows,
        robot,
        planning,
        loads,
    };
    Ok(report)
}

/// Fails when `out` holds a full (not `--quick`) report: its `results.json` says
/// `"quick": false`.
fn refuse_to_overwrite_full(out: &Path) -> Result<(), ReportError> {
    let Ok(text) = std::fs::read_to_string(out.join("results.json")) else {
        return Ok(());
    };
    let full = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("quick").and_then(serde_json::Value::as_bool))
        == Some(false);
    if full {
        Err(ReportError::WouldOverwriteFull {
            path: out.to_path_buf(),
        })
    } else {
        Ok(())
    }
}

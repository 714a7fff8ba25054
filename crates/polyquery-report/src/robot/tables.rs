//! The robot section's tables, in order (`tables(s)[0]` = configurations per second):
//! configurations per second, the cross-checks, the cost against the scanned obstacle's
//! size, the motion checks, the warm load with pinocchio's figures, and parry3d's
//! disagreements listed.
//!
//! Where it sits: the writers print [`tables`] after the pair-query tables.

use super::plan::{
    CONFIGURATIONS_FILE, DISTANCE_TOLERANCE, LISTED_DISAGREEMENTS, MOTIONS_FILE,
    UR5_CONFIGURATIONS, UR5_LABEL, UR5_SCENE,
};
use super::section::RobotMethod::{Certified, Nvm, Parry, PlainGjk, Sampled};
use super::section::RobotQuery::{self, Check, Distance, Motion};
use super::section::{RobotRow, RobotSection, Unit, Ur5Section};
use crate::format::{group, rate, ratio, vertices_label};
use crate::status::Status;
use crate::table::Table;

/// A rate cell: per second, spread, `(k of N)` when timed on a prefix, or the status.
fn rate_cell(r: Option<&RobotRow>) -> String {
    let Some(r) = r else {
        return "—".into();
    };
    match r.timing.per_second() {
        Some(p) if r.status != Status::Failed => {
            r.timing.decorate(&rate(p), r.status == Status::Disagrees)
        }
        _ => format!("failed: {}", r.note),
    }
}

/// pinocchio's one-thread figure for a cell of the first table: table and shelf only (the
/// script's scene), its best boolean mode or its distance mode.
fn pinocchio_cell(s: &RobotSection, scene: &str, query: RobotQuery) -> String {
    if scene != "table_shelf" {
        return "—".into();
    }
    let Some(p) = &s.pinocchio else {
        return format!("not measured{NOTE_MARK}");
    };
    let best = p
        .modes
        .iter()
        .filter(|m| m.unit == Unit::Configurations && m.threads == 1)
        .filter(|m| {
            if query == Check {
                m.mode.starts_with("check")
            } else {
                m.mode.starts_with("distance")
            }
        })
        .map(|m| m.per_second)
        .fold(0.0, f64::max);
    if best > 0.0 {
        let other = if p.same_configurations {
            ""
        } else {
            " (other configurations)"
        };
        format!("{}{other}", rate(best))
    } else {
        "not measured".into()
    }
}

/// The pinocchio command to run on this report's inputs.
fn pinocchio_command(out: &str) -> String {
    format!(
        "python3 benches/robot_pinocchio.py --configs {out}/{CONFIGURATIONS_FILE} --motions {out}/{MOTIONS_FILE} --out pin.json; then polyquery report --pinocchio pin.json"
    )
}

/// The mark of a short "not measured" cell whose footnote (in the table's caption) says why
/// and how: `NOTE_MARK = "¹"`.
pub const NOTE_MARK: &str = "¹";

/// The footnote of a table with pinocchio + coal "not measured" (`""` when they were).
fn pinocchio_footnote(s: &RobotSection) -> String {
    if s.pinocchio.is_some() {
        return String::new();
    }
    format!(
        " {NOTE_MARK} pinocchio + coal not measured: {}. The report measures them itself with a Python that imports pinocchio and coal (pip install pin; then --python PATH or POLYQUERY_PYTHON=PATH), or reads a result: {}.",
        s.pinocchio_missing.as_deref().unwrap_or("not asked for"),
        pinocchio_command(&s.folder)
    )
}

/// Where pinocchio + coal's figures come from, for a caption (`""` when not measured).
fn pinocchio_source(s: &RobotSection) -> String {
    match &s.pinocchio {
        Some(p) if p.run_by_report => format!(
            " pinocchio + coal ({}): measured by this report, on this machine and these inputs, with {} (its best of rounds).",
            p.versions, p.file
        ),
        Some(p) => format!(
            " pinocchio + coal ({}): measured by benches/robot_pinocchio.py (its best of rounds), read from {}, not re-measured by this report.",
            p.versions, p.file
        ),
        None => String::new(),
    }
}

/// The UR5's tables: hulls against decomposed meshes side by side (speed, verdicts against
/// the exact meshes, pieces), then the decomposition per link:
/// `ur5_tables(s, u)[0].rows.len() = u.methods.len()`.
fn ur5_tables(s: &RobotSection, u: &Ur5Section) -> Vec<Table> {
    let body = u
        .methods
        .iter()
        .map(|m| {
            let cell = |query| rate_cell(s.row(UR5_SCENE, query, m.method, 1));
            let pieces = if m.links.is_empty() {
                "hulls".to_string()
            } else {
                group(m.total_pieces())
            };
            vec![
                m.method.to_string(),
                cell(Check),
                cell(Distance),
                format!("{} of {}", group(m.colliding), group(u.configurations)),
                format!(
                    "{}{}",
                    group(m.missed),
                    if m.missed > 0 { " ⚠" } else { "" }
                ),
                group(m.false_alarms),
                pieces,
                m.largest_deviation()
                    .map_or("—".into(), |d| format!("{d:.1e} m")),
                format!("{:.2} s", m.build_seconds),
            ]
        })
        .collect::<Vec<Vec<String>>>();
    let mut body = body;
    let exact_note = match &u.pinocchio_exact {
        Some(p) => {
            let best = super::lines::pinocchio_best(p, Unit::Configurations, "check");
            body.push(vec![
                "pinocchio + coal, exact meshes".into(),
                best.map_or("n/a".into(), rate),
                "—".into(),
                p.colliding_fraction.map_or("n/a".into(), |c| {
                    format!(
                        "{} of {}",
                        group((c * p.n as f64).round() as usize),
                        group(p.n)
                    )
                }),
                "— (the reference)".into(),
                "—".into(),
                "triangle meshes".into(),
                "0 (exact)".into(),
                "—".into(),
            ]);
            format!(
                " pinocchio + coal, exact meshes ({}): its best one-thread check mode on all {} configurations, measured by this report with {} --robot ur5 --meshes exact.",
                p.versions,
                group(p.n),
                p.file
            )
        }
        None => String::new(),
    };
    let which = match u.subset_seed {
        Some(seed) => format!(
            "{} of the {} configurations of configs_2000.txt, drawn at random (seed {seed})",
            group(u.configurations),
            group(UR5_CONFIGURATIONS)
        ),
        None => format!(
            "all {} configurations of configs_2000.txt",
            group(u.configurations)
        ),
    };
    let mut out = vec![Table {
        title: format!("Robot: {UR5_LABEL}, hulls against decomposed meshes"),
        caption: format!(
            "The UR5 of {} in its table-top scene, on {which}, one thread, both mesh shapes in this run: hull (every mesh as its convex hull) and decomposed (each non-convex mesh as certified convex pieces within {:.0e} m of its solid, the hull as a first test). Verdicts are held to pinocchio + coal's exact meshes (expected_2000.txt, self or scene colliding; {} colliding): missed = colliding by the exact meshes but free here (must be 0), false alarm = free by the exact meshes but colliding here. Deviation: the certified bound on how far the pieces reach beyond the mesh. Checker build: Checker::new's wall time, decompositions read from the shape cache when there.{exact_note}",
            u.folder,
            u.tolerance,
            group(u.exact_colliding)
        ),
        header: [
            "mesh shape",
            "checks, 1 thread",
            "distances, 1 thread",
            "colliding",
            "missed collisions",
            "false alarms",
            "convex pieces",
            "largest deviation",
            "checker build",
        ]
        .map(String::from)
        .to_vec(),
        rows: body,
        folded: false,
    }];
    let links: Vec<Vec<String>> = u
        .methods
        .iter()
        .flat_map(|m| &m.links)
        .map(|l| {
            vec![
                l.link.clone(),
                l.pieces.to_string(),
                format!("{:.1e} m", l.deviation),
                if l.tolerance_met { "yes" } else { "no ⚠" }.into(),
                format!("{:.3}", l.hull_over_mesh),
                format!("{:.3}", l.pieces_over_mesh),
                format!("{:.2} s", l.seconds),
            ]
        })
        .collect();
    if !links.is_empty() {
        out.push(Table {
            title: format!("Robot: {UR5_LABEL}, decomposition per link"),
            caption: format!(
                "Each mesh of the decomposed checker: its convex pieces, their certified deviation beyond the mesh's solid (tolerance {:.0e} m), the hull's and the pieces' volume over the mesh's, and the time the decomposition took when it was built (the shape cache keeps it with the pieces, so a warm run shows the first build's time; the other table's checker build is this run's).",
                u.tolerance
            ),
            header: [
                "link",
                "pieces",
                "deviation",
                "within tolerance",
                "hull ÷ mesh volume",
                "pieces ÷ mesh volume",
                "decomposition time",
            ]
            .map(String::from)
            .to_vec(),
            rows: links,
            folded: true,
        });
    }
    out
}

/// The robot section's tables, in order (`out` = the output folder the pinocchio command
/// names): `tables(s)[0].title = "Robot: configurations per second (Franka Panda)"`.
pub fn tables(s: &RobotSection) -> Vec<Table> {
    let mut tables = Vec::new();
    let t = s.threads;
    // 1. Configurations per second: one column per (method, threads).
    let columns = [(Nvm, 1), (Nvm, t), (PlainGjk, 1), (PlainGjk, t), (Parry, 1)];
    let mut header: Vec<String> = vec!["scene".into(), "query".into(), "colliding".into()];
    for (m, th) in columns {
        header.push(format!(
            "{m}, {}",
            if th == 1 {
                "1 thread".to_string()
            } else {
                format!("{th} threads")
            }
        ));
    }
    header.push("pinocchio + coal, 1 thread (its script)".into());
    header.push("NVM × plain GJK (1 thread)".into());
    header.push("NVM × parry3d (1 thread)".into());
    header.push(format!("NVM {t} threads ÷ 1 thread"));
    let mut body = Vec::new();
    for scene in &s.scenes {
        for query in [Check, Distance] {
            let mut cells = vec![
                scene.label.clone(),
                if query == Check {
                    "boolean (check)".into()
                } else {
                    "distance".into()
                },
                format!("{:.1} %", 100.0 * scene.colliding_fraction),
            ];
            for (m, th) in columns {
                cells.push(if m == Parry && !s.peer_available {
                    "not built (feature peers)".into()
                } else {
                    rate_cell(s.row(&scene.scene, query, m, th))
                });
            }
            cells.push(pinocchio_cell(s, &scene.scene, query));
            let ours = s.time(&scene.scene, query, Nvm, 1);
            for other in [PlainGjk, Parry] {
                cells.push(match (s.time(&scene.scene, query, other, 1), ours) {
                    (Some(b), Some(o)) => ratio(b / o),
                    _ => "—".into(),
                });
            }
            cells.push(match (ours, s.time(&scene.scene, query, Nvm, t)) {
                (Some(one), Some(all)) => ratio(one / all),
                _ => "—".into(),
            });
            body.push(cells);
        }
    }
    tables.push(Table {
        title: "Robot: configurations per second (Franka Panda)".into(),
        caption: format!(
            "The same {} random configurations (uniform within the joint limits, seed {}; written to {CONFIGURATIONS_FILE}) in every scene and for every method, in this run. Boolean: stop at the first colliding pair; distance: minimum distance over the active pairs. Plain GJK: the same checker with every hull answering support queries by scanning its vertices. parry3d: the same shapes, pairs and kinematics handed to parry3d (its Bvh broad phase, intersection_test / distance). (k of N): a slow method timed and cross-checked on the first k configurations. × columns: the other's time per configuration divided by ours (above 1×: ours is faster). pinocchio + coal: the best one-thread figure of benches/robot_pinocchio.py (table and shelf only, same convex meshes). All threads: a rayon pool of {t} threads{}. ± is half the interquartile range over the timing batches; ⚠: answers differ (see the cross-check table).{}{}",
            group(s.configurations),
            s.configuration_seed,
            s.load.as_ref().map(|l| format!(" (the machine's {} during this section{})", l.describe(), if l.busy() { ": above the core count, so other work shared the cores" } else { "" })).unwrap_or_default(),
            pinocchio_source(s),
            pinocchio_footnote(s)
        ),
        header,
        rows: body,
        folded: false,
    });
    // 2. Cross-check.
    let body = s
        .scenes
        .iter()
        .map(|sc| {
            let g = &sc.vs_plain_gjk;
            let mut cells = vec![
                sc.label.clone(),
                format!("{:.1} %", 100.0 * sc.colliding_fraction),
                format!("{} of {}", g.disagreements, group(g.compared)),
                g.max_distance_difference
                    .map_or("n/a".into(), |d| format!("{d:.1e} m")),
            ];
            match &sc.vs_parry {
                Some(p) => {
                    cells.push(format!("{} of {}", p.disagreements, group(p.compared)));
                    let near = sc
                        .parry_disagreements
                        .iter()
                        .map(|d| {
                            d.our_distance
                                .unwrap_or(f64::INFINITY)
                                .min(d.parry_distance.unwrap_or(f64::INFINITY))
                        })
                        .fold(0.0f64, f64::max);
                    cells.push(if sc.parry_disagreements.is_empty() {
                        "—".into()
                    } else if near.is_finite() {
                        format!("{near:.1e} m")
                    } else {
                        "n/a".into()
                    });
                    cells.push(
                        p.max_distance_difference
                            .map_or("n/a".into(), |d| format!("{d:.1e} m")),
                    );
                }
                None => cells.extend(["not built".to_string(), "—".into(), "—".into()]),
            }
            cells.push(
                if sc.all_threads_agree {
                    "yes"
                } else {
                    "no ⚠"
                }
                .into(),
            );
            cells
        })
        .collect();
    tables.push(Table {
        title: "Robot: verdicts cross-checked".into(),
        caption: format!(
            "Per scene, on the configurations both methods answered. NVM and plain GJK run the same algorithm on the same shapes and must agree exactly (distances within {DISTANCE_TOLERANCE:.0e} m). parry3d may differ where a pair just touches; \"nearest contact\" is the largest, over the listed disagreements, of the smaller of the two distances there (small: the configuration is at contact). All threads: the all-threads answers equal the one-thread ones."
        ),
        header: [
            "scene",
            "colliding",
            "NVM vs plain GJK: verdicts differ",
            "NVM vs plain GJK: largest distance difference",
            "NVM vs parry3d: verdicts differ",
            "parry3d disagreements: nearest contact",
            "NVM vs parry3d: largest distance difference",
            "all threads = 1 thread",
        ]
        .map(String::from)
        .to_vec(),
        rows: body,
        folded: false,
    });
    // 3. Scanned obstacle scaling.
    let scans = s.scan_scenes();
    if let Some((base_slug, base_n)) = scans.first() {
        let body = scans
            .iter()
            .map(|(slug, n)| {
                let mut cells = vec![group(*n)];
                for (query, method) in [
                    (Check, Nvm),
                    (Distance, Nvm),
                    (Check, PlainGjk),
                    (Check, Parry),
                ] {
                    let now = s.time(slug, query, method, 1);
                    let base = s.time(base_slug, query, method, 1);
                    cells.push(match now {
                        Some(x) => crate::format::format_time(x),
                        None => "—".into(),
                    });
                    cells.push(match (now, base) {
                        (Some(x), Some(b)) => ratio(x / b),
                        _ => "—".into(),
                    });
                }
                cells
            })
            .collect();
        let b = vertices_label(*base_n);
        tables.push(Table {
            title: "Robot: cost against the scanned obstacle's size".into(),
            caption: format!(
                "Time per configuration, one thread, beside one scanned obstacle, and its ratio to the {b}-vertex obstacle's (the normal vector map keeps the cost of a check nearly flat as the obstacle grows)."
            ),
            header: [
                "hull vertices",
                "NVM check",
                &format!("÷ {b}"),
                "NVM distance",
                &format!("÷ {b}"),
                "plain GJK check",
                &format!("÷ {b}"),
                "parry3d check",
                &format!("÷ {b}"),
            ]
            .map(String::from)
            .to_vec(),
            rows: body,
            folded: false,
        });
    }
    // 4. Motions.
    if let Some(m) = &s.motions {
        let mut body = Vec::new();
        for method in [Certified, Sampled] {
            for th in [1, t] {
                let Some(r) = s.row("table_shelf", Motion, method, th) else {
                    continue;
                };
                let (found, missed) = if method == Certified {
                    (m.colliding_certified, "—".to_string())
                } else {
                    (m.colliding_sampled, group(m.missed_by_sampled))
                };
                body.push(vec![
                    method.to_string(),
                    th.to_string(),
                    rate_cell(Some(r)),
                    group(found),
                    missed,
                ]);
            }
        }
        match s.pinocchio.as_ref().and_then(|p| {
            p.modes
                .iter()
                .find(|x| x.unit == Unit::Motions)
                .map(|x| (p, x))
        }) {
            Some((p, x)) => body.push(vec![
                format!(
                    "pinocchio + coal, sampled at 0.01 rad{}",
                    if p.same_motions {
                        ""
                    } else {
                        " (other motions)"
                    }
                ),
                x.threads.to_string(),
                rate(x.per_second),
                p.motions_colliding.map_or("n/a".into(), group),
                "—".into(),
            ]),
            None => body.push(vec![
                "pinocchio + coal, sampled at 0.01 rad".into(),
                "1".into(),
                format!("not measured{NOTE_MARK}"),
                "—".into(),
                "—".into(),
            ]),
        }
        tables.push(Table {
            title: "Robot: motion checks (Panda + table and shelf)".into(),
            caption: format!(
                "{} random straight joint-space motions between free configurations (q1 = q0 + uniform [−1, 1] rad per arm joint, clipped to the limits; fingers fixed; written to {MOTIONS_FILE}), the same for every method. Certified: conservative advancement, never \"free\" for a colliding motion. Sampled: the configurations every 0.01 rad of the largest joint move, stop at the first colliding one; it misses contacts between samples. Missed: motions the certified check finds colliding and the sampled check calls free{}.{}{}",
                group(m.motions),
                if m.contradictions > 0 {
                    format!(" (⚠ {} motions sampled colliding but certified free)", m.contradictions)
                } else {
                    String::new()
                },
                pinocchio_source(s),
                pinocchio_footnote(s)
            ),
            header: ["method", "threads", "motions per second", "colliding motions found", "missed (certified colliding, sampled free)"]
                .map(String::from)
                .to_vec(),
            rows: body,
            folded: false,
        });
    }
    // 4b. The UR5: hulls against decomposed meshes.
    if let Some(u) = &s.ur5 {
        tables.extend(ur5_tables(s, u));
    }
    // 5. Warm load and pinocchio.
    let mut body = Vec::new();
    if let Some(w) = &s.warm_load {
        body.push(vec![
            "polyquery: load the Panda a second time (warm shape cache)".into(),
            format!("{:.1} ms ±{:.1} ms", w.median_ms, w.spread_ms / 2.0),
            format!(
                "median of {} loads (URDF + SRDF + scene + Checker::new; {} mesh maps from the cache, {} built)",
                w.loads, w.cache_hits, w.maps_built,
            ),
        ]);
    }
    match &s.pinocchio {
        Some(p) => {
            for x in p.modes.iter().filter(|x| x.unit == Unit::Configurations) {
                body.push(vec![
                    format!("pinocchio + coal: {}", x.mode),
                    rate(x.per_second),
                    format!(
                        "{} thread{}; best of its rounds{}; Panda + table and shelf, {} configurations ({}{})",
                        x.threads,
                        if x.threads == 1 { "" } else { "s" },
                        x.median_per_second
                            .map(|m| format!(" (median {})", rate(m)))
                            .unwrap_or_default(),
                        group(p.n),
                        if p.same_configurations {
                            "this report's"
                        } else {
                            "not this report's"
                        },
                        p.colliding_fraction
                            .map(|c| format!(", {:.1} % colliding", 100.0 * c))
                            .unwrap_or_default()
                    ),
                ]);
            }
        }
        None => body.push(vec![
            "pinocchio + coal".into(),
            "not measured".into(),
            format!(
                "{}{NOTE_MARK}",
                s.pinocchio_missing.as_deref().unwrap_or("not asked for")
            ),
        ]),
    }
    let pin_caption = match &s.pinocchio {
        Some(p) => format!(
            "{} GJK/EPA tolerances: {}.",
            pinocchio_source(s).trim_start(),
            p.tolerances
        ),
        None => pinocchio_footnote(s).trim_start().to_string(),
    };
    tables.push(Table {
        title: "Robot: warm load, and pinocchio + coal".into(),
        caption: pin_caption,
        header: ["what", "figure", "details"].map(String::from).to_vec(),
        rows: body,
        folded: false,
    });
    // 6. parry3d's disagreements, listed.
    let listed: Vec<Vec<String>> = s
        .scenes
        .iter()
        .flat_map(|sc| {
            sc.parry_disagreements.iter().map(|d| {
                let yes = |c: bool| if c { "colliding" } else { "free" }.to_string();
                let dist = |x: Option<f64>| x.map_or("n/a".into(), |x| format!("{x:.2e} m"));
                vec![
                    sc.label.clone(),
                    (d.configuration + 1).to_string(),
                    yes(d.ours),
                    yes(d.parry),
                    dist(d.our_distance),
                    dist(d.parry_distance),
                ]
            })
        })
        .collect();
    if !listed.is_empty() {
        tables.push(Table {
            title: "Robot: configurations where parry3d decides otherwise".into(),
            caption: format!(
                "At most {LISTED_DISAGREEMENTS} per scene (the cross-check table counts them all). Line: in {CONFIGURATIONS_FILE}. Distances are each checker's minimum distance there (0 when it finds a collision)."
            ),
            header: ["scene", "line", "polyquery", "parry3d", "polyquery distance", "parry3d distance"]
                .map(String::from)
                .to_vec(),
            rows: listed,
            folded: true,
        });
    }
    tables
}

//! `polyquery report --quick` through the library entry point, into a temporary folder:
//! every file is produced and well-formed (HTML skeleton balanced, SVGs with text, CSV rows
//! complete, JSON one object per row, no NaN anywhere), the metadata records whether the
//! working tree was modified, and every query family has rows for every method, with the
//! peer's when the `peers` feature is on; the robot section has its rows, tables, summary
//! lines and input files (no timing is asserted).

use crate::common::browser::{chromium, chromium_or_skip, png_width};
use crate::report_planning::{check_planning_section, write_ompl_result};
use polyquery_cli::report;
use polyquery_report::status::Status;
use polyquery_report::{ReportConfig, writers::CSV_COLUMNS};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Splits one CSV line (our writer quotes fields holding `,` or `"`; no field spans lines).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

/// The checkout's root (the bundled `data/`, `Cargo.lock`, `target/`).
fn checkout() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The settings of `polyquery report --quick` on the bundled meshes, writing into `out`.
fn quick_config(out: &Path) -> ReportConfig {
    let mut config = ReportConfig::defaults(true);
    config.meshes = Some(checkout().join("data"));
    config.out = out.to_path_buf();
    config.command = "polyquery report --quick".into();
    config
}

/// The `--quick` report the two quick-report tests read, run once per test program (with a
/// made-up pinocchio result) into `quick-report/report` under Cargo's temporary folder for
/// integration tests, emptied first: (its settings, what it wrote).
fn shared_quick_report() -> &'static (ReportConfig, report::ReportOutput) {
    static REPORT: OnceLock<(ReportConfig, report::ReportOutput)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quick-report");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let mut config = quick_config(&dir.join("report"));
        config.pinocchio = Some(write_pinocchio_result(&dir));
        config.ompl = Some(write_ompl_result(&dir));
        let lines = report::Lines::new(Vec::new());
        let output = report::run_with(&config, &lines).expect("the quick report runs");
        let _ = PROGRESS.set(String::from_utf8(lines.into_inner()).expect("UTF-8 progress"));
        (config, output)
    })
}

/// What the shared quick report's progress printed (one line per section).
static PROGRESS: OnceLock<String> = OnceLock::new();

/// Writes a pinocchio result into `dir` as benches/robot_pinocchio.py writes it (made-up
/// numbers): its path.
fn write_pinocchio_result(dir: &Path) -> PathBuf {
    let pin = dir.join("pin.json");
    std::fs::write(
        &pin,
        r#"{"benchmark": "robot_pinocchio", "configurations": "x/robot_configurations.txt",
            "n": 2000, "colliding_fraction": 0.3, "tolerances": "pinocchio defaults",
            "modes": {"check_loop": {"configurations_per_s": 12345.0, "median_configurations_per_s": 12000.0},
                      "check_batched_2_threads": {"configurations_per_s": 50000.0, "threads": 2},
                      "motion_sampled_loop": {"motions_per_s": 321.0}},
            "motions": {"file": "x/robot_motions.txt", "n": 300, "resolution": 0.01, "colliding": 7},
            "versions": {"pinocchio": "9.9.9-test", "coal": "1.2.3"}}"#,
    )
    .expect("pin.json");
    pin
}

#[test]
fn quick_report_writes_every_file_well_formed() {
    let (config, output) = shared_quick_report();
    let out = &config.out;
    check_robot_section(out, &output.report);
    check_planning_section(out, &output.report);

    // index.html: the document skeleton is balanced, plots are inline, no NaN.
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for tag in [
        "html", "head", "body", "table", "tr", "td", "th", "figure", "svg", "details",
    ] {
        let open = count(&html, &format!("<{tag}>")) + count(&html, &format!("<{tag} "));
        let close = count(&html, &format!("</{tag}>"));
        assert_eq!(open, close, "<{tag}> opened {open} times, closed {close}");
    }
    assert!(count(&html, "<svg") >= 10, "the plots are inline");
    assert!(!html.contains("NaN"), "no NaN in the HTML");
    // Self-contained: the only scripts are the plan view's data and its viewer, inline.
    assert_eq!(
        count(&html, "<script"),
        2,
        "the view's data and viewer only"
    );
    assert!(!html.contains("<script src") && !html.contains("<link"));
    assert!(html.contains("git commit") && html.contains("CPU") && html.contains("memory"));
    assert!(html.contains("polyquery report --quick"));

    // Every SVG is an SVG with text (axis labels and legends), referenced from report.md.
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let svgs: Vec<_> = output
        .files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    assert!(svgs.len() >= 10, "only {} plots", svgs.len());
    for path in &svgs {
        let svg = std::fs::read_to_string(path).expect("svg file");
        assert!(
            svg.trim_start().starts_with("<svg"),
            "{} is not an SVG",
            path.display()
        );
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("<text"), "{} has no text", path.display());
        assert!(!svg.contains("NaN"));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            md.contains(&format!("({name})")),
            "report.md does not link {name}"
        );
    }
    for plot in [
        "time_intersection_sphere.svg",
        "speedup_vs_gjk.svg",
        "meshes_intersection.svg",
        "bytes_per_vertex.svg",
    ] {
        assert!(out.join(plot).is_file(), "{plot} missing");
    }

    // results.csv: a header and complete rows.
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    let mut lines = csv.lines();
    let header = split_csv(lines.next().expect("a header"));
    assert_eq!(header, CSV_COLUMNS.to_vec());
    let rows: Vec<Vec<String>> = lines.map(split_csv).collect();
    assert_eq!(rows.len(), output.report.rows.len());
    let median = header.iter().position(|h| h == "mean_ns").unwrap();
    for row in &rows {
        assert_eq!(row.len(), header.len(), "incomplete row {row:?}");
        // The writer puts "n/a" for an absent number, so a cell is never empty: it must be
        // "n/a" or a finite number.
        let m = &row[median];
        assert!(
            m == "n/a" || m.parse::<f64>().is_ok_and(f64::is_finite),
            "median of {row:?} is neither a number nor n/a"
        );
        assert!(
            row.iter().all(|c| !c.contains("NaN") && !c.contains("inf")),
            "{row:?}"
        );
    }
    // Every working row has a positive median.
    let status = header.iter().position(|h| h == "status").unwrap();
    for row in rows.iter().filter(|r| r[status] == "ok") {
        let m: f64 = row[median]
            .parse()
            .unwrap_or_else(|_| panic!("median of {row:?}"));
        assert!(m > 0.0);
    }

    // results.json: parses, one object per row with every column.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).expect("json"))
            .expect("results.json parses");
    let json_rows = json["rows"].as_array().expect("rows array");
    assert_eq!(json_rows.len(), rows.len());
    for r in json_rows {
        let obj = r.as_object().expect("one object per row");
        for c in CSV_COLUMNS {
            assert!(obj.contains_key(c), "row lacks {c}");
        }
    }

    // The metadata says whether the working tree had uncommitted changes (as `git status
    // --porcelain` sees it now: the report wrote outside the tree), and the HTML and Markdown
    // show it after the commit.
    let machine = &json["machine"];
    let commit = machine["git_commit"].as_str().expect("git_commit");
    let git_status = std::process::Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(checkout())
        .output()
        .ok()
        .filter(|o| o.status.success());
    let dirty = git_status.map(|o| !o.stdout.trim_ascii().is_empty());
    assert_eq!(machine["git_dirty"], serde_json::json!(dirty), "{machine}");
    assert_eq!(output.report.machine.git_dirty, dirty);
    let modified = format!("{commit} (modified)");
    assert_eq!(html.contains(&modified), dirty == Some(true));
    assert_eq!(md.contains(&modified), dirty == Some(true));
    assert!(html.contains(commit) && md.contains(commit));

    // Every family × method appears for the sphere at every quick size.
    let has = |query: &str, method: &str| {
        output
            .report
            .rows
            .iter()
            .filter(|r| {
                r.source == "sphere" && r.query.name() == query && r.method.name() == method
            })
            .count()
    };
    for (query, method) in [
        ("support", "NVM"),
        ("intersects", "GJK, linear scan"),
        ("intersects", "Nio, NVM"),
        ("directional_penetration", "Nio, NVM"),
        ("distance", "GJK, NVM"),
        ("time_of_impact", "ours, NVM"),
        ("penetration_depth", "EPA, NVM"),
    ] {
        assert_eq!(
            has(query, method),
            config.workload.sizes.len(),
            "{query} / {method}"
        );
    }
    if polyquery_report::peers::AVAILABLE {
        assert_eq!(
            has("intersects", "parry3d intersection_test"),
            config.workload.sizes.len()
        );
        assert!(html.contains(polyquery_report::peers::PARRY_VERSION));
    }
    // Timings do not flatter: support on every one of the distinct random directions, the
    // pair queries of ours on every pose pair of their kind; a row timed on fewer (a slow
    // baseline or the peer) says so in its note and its cell.
    let defaults = ReportConfig::defaults(false);
    assert!(defaults.workload.directions >= 100_000 && defaults.workload.queries / 2 >= 1_000);
    for r in output
        .report
        .rows
        .iter()
        .filter(|r| r.query.name() != "preprocess")
    {
        if r.query.name() == "support" {
            assert_eq!(r.timing.inputs_drawn, config.workload.directions, "{r:?}");
        } else if matches!(r.query.name(), "intersects" | "distance") {
            assert_eq!(r.timing.inputs_drawn, config.workload.queries, "{r:?}");
        }
        if r.method.name().ends_with("NVM") {
            assert_eq!(
                r.timing.inputs, r.timing.inputs_drawn,
                "ours on every input: {r:?}"
            );
        }
        if r.timing.inputs < r.timing.inputs_drawn {
            assert!(
                r.note.contains(&format!("timed on {} of", r.timing.inputs)),
                "{r:?}"
            );
            let cell = format!(
                "({} of {})",
                polyquery_report::format::group(r.timing.inputs),
                polyquery_report::format::group(r.timing.inputs_drawn)
            );
            assert!(html.contains(&cell), "{cell} not in the tables");
        }
        assert!(
            r.timing.batches >= 1 && r.timing.repetitions >= r.timing.inputs,
            "{r:?}"
        );
    }
    // The first screen: the conclusion, then the glossary, before any table.
    let summary = html.find("id=\"summary\"").expect("a summary");
    let glossary = html.find("<h2>Glossary</h2>").expect("a glossary");
    assert!(summary < glossary && glossary < html.find("<table").expect("tables"));
    for term in [
        "normal vector map",
        "Nio",
        "D = A ⊖ B",
        "δ_d",
        "hill-climb (cold)",
        "EPA",
        "GJK",
        "support query",
        "pose pair",
    ] {
        assert!(html[glossary..].contains(term), "glossary lacks {term}");
    }
    assert!(html.contains("Real meshes: our time per query and speed-ups"));

    // Our methods agree with each other and with the exact oracle on the quick run.
    for r in output
        .report
        .rows
        .iter()
        .filter(|r| !r.method.name().starts_with("parry"))
    {
        assert!(
            !matches!(r.status, Status::Failed | Status::Disagrees),
            "{r:?}"
        );
    }
}

/// The robot section of a `--quick` report: every scene × query × method × threads row, the
/// motion rows, the warm load, the cross-checks (plain GJK agrees with NVM exactly), the
/// tables and summary lines in report.md, pinocchio's figures labelled as the script's, and
/// the input files for the script. No timing is asserted.
fn check_robot_section(out: &Path, report: &polyquery_report::Report) {
    use polyquery_report::robot::RobotMethod::{Certified, Nvm, Parry, PlainGjk, Sampled};
    use polyquery_report::robot::{self, RobotQuery};
    let section = report.robot.as_ref().unwrap_or_else(|| {
        panic!("no robot section; notes: {:?}", report.notes);
    });
    let threads = section.threads;
    let scenes: Vec<&str> = section.scenes.iter().map(|s| s.scene.as_str()).collect();
    assert_eq!(
        scenes,
        ["self", "table_shelf", "random100", "scan_1e4", "scan_1e5"],
        "notes: {:?}",
        report.notes
    );
    assert_eq!(section.configurations, robot::QUICK_CONFIGURATIONS);
    let mut methods = vec![(Nvm, 1), (Nvm, threads), (PlainGjk, 1), (PlainGjk, threads)];
    if polyquery_report::peers::AVAILABLE {
        methods.push((Parry, 1));
    }
    for scene in &scenes {
        for query in [RobotQuery::Check, RobotQuery::Distance] {
            for &(method, t) in &methods {
                let row = section
                    .row(scene, query, method, t)
                    .unwrap_or_else(|| panic!("no row {scene} / {query} / {method} / {t}"));
                assert_eq!(row.status, Status::Ok, "{row:?}");
                assert!(row.timing.per_second().is_some_and(|p| p > 0.0), "{row:?}");
                assert!(
                    row.timing.inputs >= 1 && row.timing.inputs <= row.timing.inputs_drawn,
                    "{row:?}"
                );
                if method == Nvm {
                    assert_eq!(
                        row.timing.inputs, section.configurations,
                        "ours on every one"
                    );
                }
            }
        }
    }
    for sc in &section.scenes {
        assert!((0.0..=1.0).contains(&sc.colliding_fraction), "{sc:?}");
        assert_eq!(sc.vs_plain_gjk.disagreements, 0, "{sc:?}");
        assert!(sc.vs_plain_gjk.compared > 0);
        assert!(sc.all_threads_agree, "{sc:?}");
        assert_eq!(sc.vs_parry.is_some(), polyquery_report::peers::AVAILABLE);
    }
    let motions = section.motions.expect("motion checks");
    assert_eq!(motions.motions, robot::QUICK_MOTIONS);
    assert_eq!(
        motions.contradictions, 0,
        "sampled colliding, certified free"
    );
    assert!(motions.missed_by_sampled <= motions.colliding_certified);
    for method in [Certified, Sampled] {
        for t in [1, threads] {
            let row = section
                .row("table_shelf", RobotQuery::Motion, method, t)
                .unwrap_or_else(|| panic!("no motion row {method} / {t}"));
            assert_eq!(row.status, Status::Ok, "{row:?}");
        }
    }
    let warm = section.warm_load.expect("warm load");
    assert_eq!(
        warm.maps_built, 0,
        "warm loads read every map from the cache"
    );
    let pin = section.pinocchio.as_ref().expect("pinocchio figures read");
    assert!(pin.versions.contains("pinocchio 9.9.9-test"));
    assert!(pin.same_configurations && pin.same_motions, "{pin:?}");

    // The input files for benches/robot_pinocchio.py.
    let configs = std::fs::read_to_string(out.join(robot::CONFIGURATIONS_FILE)).expect("configs");
    assert_eq!(configs.lines().count(), section.configurations);
    assert!(configs.lines().all(|l| l.split(' ').count() == 8));
    let motion_lines = std::fs::read_to_string(out.join(robot::MOTIONS_FILE)).expect("motions");
    assert_eq!(motion_lines.lines().count(), motions.motions);
    assert!(motion_lines.lines().all(|l| l.split(" ; ").count() == 2));

    // results.json has the section; report.md its tables and summary lines.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).expect("json"))
            .expect("results.json parses");
    let robot_json = &json["robot"];
    assert_eq!(
        robot_json["rows"].as_array().map(Vec::len),
        Some(section.rows.len())
    );
    assert_eq!(
        robot_json["scenes"].as_array().map(Vec::len),
        Some(scenes.len())
    );
    assert!(robot_json["warm_load"]["median_ms"].is_number());
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    for needle in [
        "### Robots (Franka Panda, 2,000 random configurations)",
        "Panda + table and shelf, one thread:",
        "Loading the Panda a second time",
        "Motions (table and shelf",
        "## Robot: configurations per second (Franka Panda)",
        "## Robot: verdicts cross-checked",
        "## Robot: cost against the scanned obstacle's size",
        "## Robot: motion checks (Panda + table and shelf)",
        "## Robot: warm load, and pinocchio + coal",
        "| Panda alone (self-collisions) | boolean (check) |",
        "| Panda beside a scanned obstacle of 100,000 vertices | distance |",
        "measured by benches/robot_pinocchio.py",
        "pinocchio + coal: check_loop",
        "| 12,300/s |",
    ] {
        assert!(md.contains(needle), "report.md lacks {needle:?}");
    }
    // In plain words for its readers: no internal targets, no issue numbers, robots first.
    let summary = &md[..md.find("## Glossary").expect("glossary")];
    // (Paths may hold Cargo's `target/`: the phrases, not the word.)
    for phrase in [
        "target met",
        "target not met",
        "target ≥",
        "target ≤",
        "targets:",
        "issue ",
    ] {
        assert!(
            !md.to_lowercase().contains(phrase),
            "report.md says {phrase:?}"
        );
    }
    let robots = summary
        .find("### Robots")
        .expect("robots on the first screen");
    let planning = summary
        .find("### Planning")
        .expect("planning on the first screen");
    let pairs = summary.find("### Pair queries").expect("pair queries");
    assert!(robots < planning && planning < pairs, "{summary}");
    // The machine's load around each section: in the JSON, in loads.csv, on the page.
    let loads = json["loads"].as_array().expect("loads");
    let sections: Vec<&str> = loads.iter().filter_map(|l| l["section"].as_str()).collect();
    assert_eq!(sections, ["pair queries", "robot", "planning"]);
    for l in loads {
        assert!(l["before"].is_number() && l["after"].is_number(), "{l}");
    }
    let csv = std::fs::read_to_string(out.join("loads.csv")).expect("loads.csv");
    assert_eq!(csv.lines().count(), 1 + loads.len(), "{csv}");
    assert!(csv.starts_with("section,cores,load_1min_before,load_1min_after\n"));
    assert!(md.contains("1-minute load average around each section"));
    assert!(section.load.as_ref().is_some_and(|l| l.section == "robot"));
}

/// The version the report prints is the one Cargo.lock pins.
#[test]
fn parry_version_matches_the_lock_file() {
    let lock = std::fs::read_to_string(checkout().join("Cargo.lock")).expect("Cargo.lock");
    let needle = "name = \"parry3d-f64\"\nversion = \"";
    let at = lock.find(needle).expect("parry3d-f64 in Cargo.lock") + needle.len();
    let version = &lock[at..at + lock[at..].find('"').expect("closing quote")];
    assert_eq!(version, polyquery_report::peers::PARRY_VERSION);
}

/// The full default report (minutes): `cargo test -p polyquery-cli --test tests report:: -- --ignored`; writes into
/// `$POLYQUERY_REPORT_OUT` (default `target/report-full`); `POLYQUERY_REPORT_QUICK=1` for
/// the quick settings.
#[test]
#[ignore]
fn full_default_report() {
    let quick = std::env::var("POLYQUERY_REPORT_QUICK").is_ok_and(|v| v == "1");
    let mut config = ReportConfig::defaults(quick);
    config.meshes = Some(checkout().join("data"));
    config.out = std::env::var("POLYQUERY_REPORT_OUT")
        .map(Into::into)
        .unwrap_or_else(|_| checkout().join("target/report-full"));
    config.command = "polyquery report".into();
    config.progress = true;
    let output = report::run(&config).expect("the default report runs");
    eprintln!(
        "{:.1} s measuring; {} rows",
        output.report.elapsed_seconds,
        output.report.rows.len()
    );
}

/// Loads a copy of the report's `index.html` with `script` run at the end of its body, named
/// `name` beside it (so that its links resolve alike), in a `window` of headless Chromium:
/// the page's DOM after the script (which leaves its findings in attributes).
fn probe_page(
    browser: &Path,
    profile: &Path,
    window: (u32, u32),
    out: &Path,
    name: &str,
    script: &str,
) -> String {
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    let probe = out.join(name);
    let page = html.replace("</body>", &format!("<script>{script}</script></body>"));
    std::fs::write(&probe, page).expect("probe page");
    chromium(
        browser,
        profile,
        window,
        &[
            "--virtual-time-budget=5000".into(),
            "--dump-dom".into(),
            format!("file://{}", probe.display()),
        ],
    )
}

/// The report's browser window: 1280 px wide, 2000 px tall.
const WINDOW: (u32, u32) = (1280, 2000);

/// The `--quick` report in a real browser, 1280 px wide: a screenshot is produced, the page
/// is no wider than the window, and the conclusion's first list (the robots) ends within the
/// first screen (720 px). The layout is
/// measured by a copy of the page with one script added; the planning section's view draws.
/// Needs headless Chromium (`apt-get install -y chromium`; CI installs it): the test fails
/// without it, unless `POLYQUERY_SKIP_BROWSER=1` says to skip it.
#[test]
fn quick_report_fits_a_1280_px_browser_window() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let out = &shared_quick_report().0.out;
    let dir = tempfile::tempdir().expect("temporary folder");
    let index = out.join("index.html");
    let profile = dir.path().join("profile");

    // The screenshot: a PNG 1280 px wide.
    let shot = dir.path().join("shot.png");
    chromium(
        &browser,
        &profile,
        WINDOW,
        &[
            format!("--screenshot={}", shot.display()),
            format!("file://{}", index.display()),
        ],
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert_eq!(png_width(&png), 1280, "screenshot width");
    assert!(png.len() > 20_000, "a blank page? {} bytes", png.len());

    // The layout, measured in the browser.
    let script = "var e=document.documentElement;\
        var s=document.querySelector('#summary ul');\
        document.body.setAttribute('data-probe',[e.scrollWidth,e.clientWidth,\
        Math.round(s.getBoundingClientRect().bottom)].join(','));";
    let dom = probe_page(&browser, &profile, WINDOW, out, "probe.html", script);
    // The planning section's view drew (WebGL by SwiftShader) over 1 % of its 960 × 600 canvas.
    let view = "id=\"pq-view-planning\" data-status=\"drawn\" data-pixels=\"";
    let at = dom.find(view).expect("the planning view was not drawn") + view.len();
    let pixels: usize = dom[at..at + dom[at..].find('"').unwrap()].parse().unwrap();
    assert!(
        pixels > 960 * 600 / 100,
        "the planning view drew {pixels} pixels"
    );
    let at = dom.find("data-probe=\"").expect("the probe ran") + "data-probe=\"".len();
    let values: Vec<i64> = dom[at..at + dom[at..].find('"').expect("closing quote")]
        .split(',')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let (scroll_width, client_width, summary_bottom) = (values[0], values[1], values[2]);
    assert!(
        client_width <= 1280 && scroll_width <= client_width,
        "the page is {scroll_width} px wide in a {client_width} px window: something overflows"
    );
    assert!(
        summary_bottom <= 720,
        "the conclusion ends at {summary_bottom} px, below the first screen"
    );
}

/// Runs the `polyquery` binary in `cwd`; returns (exit code, stdout, stderr).
fn polyquery(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_polyquery"))
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("polyquery runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A tiny report's arguments (one size, few inputs) after `extra`.
fn tiny<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "report",
        "--quick",
        "--no-progress",
        "--sizes",
        "64",
        "--queries",
        "4",
        "--directions",
        "50",
        "--no-robot",
    ];
    args.extend_from_slice(extra);
    args
}

/// From a working directory far from the checkout, the report still finds the bundled
/// meshes (every one the manifest lists), and `--quick` writes `report-quick/`, not `report/`.
#[test]
fn report_finds_the_bundled_meshes_from_any_directory() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&[]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!dir.path().join("report").exists(), "--quick wrote report/");
    let csv = std::fs::read_to_string(dir.path().join("report-quick/results.csv"))
        .expect("report-quick/results.csv");
    let manifest =
        std::fs::read_to_string(checkout().join("data/MANIFEST.tsv")).expect("data/MANIFEST.tsv");
    let listed: Vec<&str> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert_eq!(listed.len(), 9, "the nine bundled meshes");
    for mesh in listed {
        assert!(
            csv.lines().any(|l| l.starts_with(&format!("{mesh},mesh,"))),
            "{mesh} missing from the report"
        );
    }
}

/// A mesh the manifest lists but the folder lacks is an error (exit 2) naming it, and
/// `--meshes` is still accepted as the same option as `--data`.
#[test]
fn a_missing_mesh_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("data folder");
    std::fs::write(
        data.join("MANIFEST.tsv"),
        "file\tsource\ntetra.obj\thand-made\ngone.obj\thand-made\n",
    )
    .expect("manifest");
    std::fs::write(
        data.join("tetra.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n",
    )
    .expect("mesh");
    for option in ["--data", "--meshes"] {
        let data_arg = data.to_string_lossy().into_owned();
        let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&[option, &data_arg]));
        assert_eq!(code, 2, "{option}: {stdout}\n{stderr}");
        assert!(stderr.contains("gone.obj"), "{option}: {stderr}");
        assert!(
            !dir.path().join("report-quick").exists(),
            "a report was written"
        );
    }
    // With the missing mesh gone from the manifest, the same folder works.
    std::fs::write(
        data.join("MANIFEST.tsv"),
        "file\tsource\ntetra.obj\thand-made\n",
    )
    .expect("manifest");
    let data_arg = data.to_string_lossy().into_owned();
    let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&["--data", &data_arg]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

/// `--quick` never overwrites a full report, even when pointed at its folder.
#[test]
fn quick_never_overwrites_a_full_report() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let full = dir.path().join("report");
    std::fs::create_dir(&full).expect("folder");
    let json = "{\"quick\": false, \"rows\": []}";
    std::fs::write(full.join("results.json"), json).expect("results.json");
    let (code, _, stderr) = polyquery(dir.path(), &tiny(&["--out", "report"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("full report"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(full.join("results.json")).expect("still there"),
        json
    );
    // A quick report's folder may be rewritten by another quick report.
    let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&[]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&[]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

/// `--pinocchio` must name an existing file (exit 2, nothing written).
#[test]
fn a_missing_pinocchio_or_ompl_file_is_an_error() {
    for flag in ["--pinocchio", "--ompl"] {
        let dir = tempfile::tempdir().expect("temporary folder");
        let (code, stdout, stderr) = polyquery(dir.path(), &tiny(&[flag, "no-such.json"]));
        assert_eq!(code, 2, "{stdout}\n{stderr}");
        assert!(stderr.contains(&format!("{flag} no-such.json")), "{stderr}");
        assert!(!dir.path().join("report-quick").exists());
    }
}

/// One progress line per section when stderr is not a terminal: the shared `--quick` report's
/// lines (as the command prints them on a pipe), and the command itself with its stderr
/// captured (a pipe, so not a terminal).
#[test]
fn progress_prints_one_line_per_section_on_a_pipe() {
    let _ = shared_quick_report();
    let progress = PROGRESS.get().expect("the shared report ran");
    let lines: Vec<&str> = progress.lines().collect();
    let sections: Vec<&str> = lines
        .iter()
        .map(|l| {
            l.split("] ")
                .nth(1)
                .unwrap_or("")
                .split(':')
                .next()
                .unwrap_or("")
        })
        .collect();
    assert_eq!(
        sections,
        ["pair queries", "robot", "planning", "writing the report"],
        "{progress}"
    );
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with('[') && l.contains(" s] ")),
        "{progress}"
    );

    let dir = tempfile::tempdir().expect("temporary folder");
    let mut args = tiny(&[]);
    args.retain(|a| *a != "--no-progress");
    let (code, stdout, stderr) = polyquery(dir.path(), &args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let printed: Vec<&str> = stderr.lines().collect();
    assert_eq!(printed.len(), 3, "{stderr}");
    assert!(
        printed[0].contains("] pair queries: sizes 64 and 9 meshes"),
        "{stderr}"
    );
    assert!(printed[1].ends_with("] writing the report"), "{stderr}");
    assert!(printed[2].ends_with("] report written"), "{stderr}");
}

/// No two methods of one plot share a colour, and each plot's SVG holds the colours it
/// claims. (A method keeps one colour across plots by construction: a plot's colours come
/// from `colors::method_color(method)` alone, so that needs no check here.)
#[test]
fn every_method_keeps_one_colour_across_the_plots() {
    let (_, output) = shared_quick_report();
    let plots = polyquery_report::plots::render_all(&output.report).expect("plots");
    assert!(plots.len() >= 10);
    for plot in &plots {
        assert!(!plot.colors.is_empty(), "{} names no method", plot.file);
        for (i, (m, c)) in plot.colors.iter().enumerate() {
            let hex = polyquery_report::colors::hex(*c);
            assert!(
                plot.svg.to_uppercase().contains(&hex),
                "{} lacks {m}'s colour {hex}",
                plot.file
            );
            for (other, c2) in &plot.colors[i + 1..] {
                assert_ne!(c, c2, "{}: {m} and {other} share a colour", plot.file);
            }
        }
    }
}

/// At 1,400 px no table, figure or SVG overflows its box or the page: every table fits (its
/// cells wrap), so nothing is clipped or hidden behind a scroll bar.
#[test]
fn no_table_or_plot_overflows_a_1400_px_page() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let out = &shared_quick_report().0.out;
    let dir = tempfile::tempdir().expect("temporary folder");
    // Lists every element wider than its box or reaching past the page's right edge.
    let script = "var e=document.documentElement,w=e.clientWidth,o=[];\
        document.querySelectorAll('table,figure,svg,.scroll').forEach(function(t,i){\
        var r=t.getBoundingClientRect();\
        if(t.scrollWidth>t.clientWidth+1||r.right>w+1){o.push(t.tagName+' '+i+' '+\
        t.scrollWidth+'/'+t.clientWidth+' right '+Math.round(r.right)+' '+\
        (t.querySelector&&t.querySelector('th,text')?t.querySelector('th,text').textContent:''))}});\
        document.body.setAttribute('data-overflow',[e.scrollWidth,w,o.length].join(',')+';'+o.join('|'));";
    let profile = dir.path().join("profile");
    let dom = probe_page(
        &browser,
        &profile,
        (1400, 2000),
        out,
        "probe-1400.html",
        script,
    );
    let at = dom.find("data-overflow=\"").expect("the probe ran") + "data-overflow=\"".len();
    let found = &dom[at..at + dom[at..].find('"').expect("closing quote")];
    let (numbers, listed) = found.split_once(';').expect("two parts");
    let n: Vec<i64> = numbers
        .split(',')
        .map(|v| v.parse().expect("a number"))
        .collect();
    assert_eq!(n[1], 1400, "window width");
    assert!(n[0] <= n[1], "the page is {} px wide at {} px", n[0], n[1]);
    assert_eq!(n[2], 0, "overflowing: {listed}");
}

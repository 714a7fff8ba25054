//! `polyquery report --quick` through the library entry point, into a temporary folder:
//! every file is produced and well-formed (HTML skeleton balanced, SVGs with text, CSV rows
//! complete, JSON one object per row, no NaN anywhere), the metadata records whether the
//! working tree was modified, and every query family has rows for every method, with the
//! peer's when the `peers` feature is on.

use polyquery_cli::report::{self, ReportConfig, writers::CSV_COLUMNS};
use std::path::Path;

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

#[test]
fn quick_report_writes_every_file_well_formed() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let out = dir.path().join("report");
    let mut config = ReportConfig::defaults(true);
    config.meshes = Some(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("data"));
    config.out = out.clone();
    config.command = "polyquery report --quick".into();
    let output = report::run(&config).expect("the quick report runs");

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
    assert!(
        !html.contains("<script"),
        "no scripts (the page is self-contained)"
    );
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
    let median = header.iter().position(|h| h == "median_ns").unwrap();
    for row in &rows {
        assert_eq!(row.len(), header.len(), "incomplete row {row:?}");
        assert!(!row[median].is_empty(), "empty median in {row:?}");
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
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
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
            .filter(|r| r.source == "sphere" && r.query == query && r.method == method)
            .count()
    };
    for (query, method) in [
        ("support", "NVM"),
        ("intersection", "GJK, linear scan"),
        ("intersection", "Nio, NVM"),
        ("directional penetration", "Nio, NVM"),
        ("distance", "GJK, NVM"),
        ("time of impact", "ours, NVM"),
        ("EPA depth", "EPA, NVM"),
    ] {
        assert_eq!(has(query, method), config.sizes.len(), "{query} / {method}");
    }
    if report::peers::AVAILABLE {
        assert_eq!(
            has("intersection", "parry3d intersection_test"),
            config.sizes.len()
        );
        assert!(html.contains(report::peers::PARRY_VERSION));
    }
    // Our methods agree with each other and with the exact oracle on the quick run.
    for r in output
        .report
        .rows
        .iter()
        .filter(|r| !r.method.starts_with("parry"))
    {
        assert!(
            !matches!(r.status.as_str(), "failed" | "disagrees"),
            "{r:?}"
        );
    }
}

/// The version the report prints is the one Cargo.lock pins.
#[test]
fn parry_version_matches_the_lock_file() {
    let lock = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("Cargo.lock"),
    )
    .expect("Cargo.lock");
    let needle = "name = \"parry3d-f64\"\nversion = \"";
    let at = lock.find(needle).expect("parry3d-f64 in Cargo.lock") + needle.len();
    let version = &lock[at..at + lock[at..].find('"').expect("closing quote")];
    assert_eq!(version, report::peers::PARRY_VERSION);
}

/// The full default report (minutes): `cargo test --test report -- --ignored`; writes into
/// `$POLYQUERY_REPORT_OUT` (default `target/report-full`); `POLYQUERY_REPORT_QUICK=1` for
/// the quick settings.
#[test]
#[ignore]
fn full_default_report() {
    let quick = std::env::var("POLYQUERY_REPORT_QUICK").is_ok_and(|v| v == "1");
    let mut config = ReportConfig::defaults(quick);
    config.meshes = Some(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("data"));
    config.out = std::env::var("POLYQUERY_REPORT_OUT")
        .map(Into::into)
        .unwrap_or_else(|_| {
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("target/report-full")
        });
    config.command = "polyquery report".into();
    config.progress = true;
    let output = report::run(&config).expect("the default report runs");
    eprintln!(
        "{:.1} s measuring; {} rows",
        output.report.elapsed_seconds,
        output.report.rows.len()
    );
}

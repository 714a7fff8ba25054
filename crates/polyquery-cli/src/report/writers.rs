//! The report's files: `index.html` (self-contained: inline CSS and SVG, no network),
//! `report.md` (the same tables, plots as links to the SVG files), `results.csv` and
//! `results.json` (one row per source × size × query × method), and one `.svg` per plot.
//!
//! Where it sits: the last step of [`super::run`]. Tables are built once ([`Table`]) and
//! printed as HTML and Markdown. Every file is written atomically.

use super::plots::{self, Plot};
use super::runner::{
    AGREEMENT_TOLERANCE, Family, ResultRow, SPEEDUPS_VS_PEER, SPEEDUPS_VS_PLAIN_GJK,
    sphere_median_ns,
};
use super::{Report, ReportError};
use crate::atomic_file::write_atomically;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The CSV columns, in order (the fields of [`ResultRow`]).
pub const CSV_COLUMNS: [&str; 16] = [
    "source",
    "kind",
    "vertices",
    "query",
    "method",
    "status",
    "note",
    "median_ns",
    "spread_ns",
    "repetitions",
    "poses",
    "support_calls",
    "iterations",
    "max_disagreement",
    "oracle_error",
    "bytes_per_vertex",
];

/// A table with a title, printed as HTML and Markdown.
#[derive(Clone, Debug)]
pub struct Table {
    /// Heading above the table.
    pub title: String,
    /// One sentence saying how to read it.
    pub caption: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Cells, row by row (as many as `header`).
    pub rows: Vec<Vec<String>>,
}

/// Writes every file into `out` (created if missing); returns their paths.
pub fn write_all(report: &Report, out: &Path) -> Result<Vec<PathBuf>, ReportError> {
    std::fs::create_dir_all(out).map_err(|source| ReportError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let plots = plots::render_all(report)?;
    let tables = tables(report);
    let mut files = Vec::new();
    let mut write = |name: &str, text: &str| -> Result<(), ReportError> {
        let path = out.join(name);
        write_atomically(&path, |w| w.write_all(text.as_bytes())).map_err(|source| {
            ReportError::Write {
                path: path.clone(),
                source,
            }
        })?;
        files.push(path);
        Ok(())
    };
    for plot in &plots {
        write(&plot.file, &plot.svg)?;
    }
    write("results.csv", &csv(&report.rows))?;
    let json = crate::json::to_string_pretty(report).map_err(|source| ReportError::Write {
        path: out.join("results.json"),
        source,
    })?;
    write("results.json", &json)?;
    write("report.md", &markdown(report, &tables, &plots))?;
    write("index.html", &html(report, &tables, &plots))?;
    Ok(files)
}

/// `12.3 ns`, `4.56 µs`, `7.89 ms`, `1.23 s`.
pub fn format_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.3} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A timing cell: the median and its spread as a percentage, or why there is none.
fn time_cell(r: &ResultRow) -> String {
    match r.median_ns {
        Some(m) if r.status != "failed" && r.status != "skipped" => {
            let spread = r.spread_ns.unwrap_or(0.0);
            let mark = if r.status == "disagrees" { " ⚠" } else { "" };
            if r.repetitions > 1 && m > 0.0 {
                format!("{} ±{:.0}%{mark}", format_time(m), 50.0 * spread / m)
            } else {
                format!("{}{mark}", format_time(m))
            }
        }
        Some(m) => format!("{} ({})", format_time(m), r.status),
        None => r.status.clone(),
    }
}

fn optional(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.filter(|x| x.is_finite())
        .map(f)
        .unwrap_or_else(|| "n/a".into())
}

/// Distinct values in first-seen order.
fn distinct<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The report's tables, in order.
pub fn tables(report: &Report) -> Vec<Table> {
    let rows = &report.rows;
    let mut out = Vec::new();
    for shape in ["sphere", "ellipsoid"] {
        let mine: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| {
                r.kind == "synthetic" && r.source == shape && r.query != Family::Preprocess.name()
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        let sizes = distinct(mine.iter().map(|r| r.vertices));
        let lines = distinct(mine.iter().map(|r| (r.query.clone(), r.method.clone())));
        let mut header = vec!["query".to_string(), "method".to_string()];
        header.extend(sizes.iter().map(|n| format!("n = {n}")));
        let body = lines
            .iter()
            .map(|(q, m)| {
                let mut cells = vec![q.clone(), m.clone()];
                cells.extend(sizes.iter().map(|&n| {
                    mine.iter()
                        .find(|r| r.vertices == n && r.query == *q && r.method == *m)
                        .map(|r| time_cell(r))
                        .unwrap_or_else(|| "—".into())
                }));
                cells
            })
            .collect();
        out.push(Table {
            title: format!("{shape} hulls: median time per query"),
            caption: format!(
                "Both bodies are the same {shape} hull (n vertices) at {} pose pairs per size (half overlapping, half disjoint); ± is half the interquartile range over the timed batches; ⚠ marks answers that disagree beyond {AGREEMENT_TOLERANCE:e}.",
                report.queries
            ),
            header,
            rows: body,
        });
    }
    // Speed-ups on spheres.
    let sphere_sizes = distinct(
        rows.iter()
            .filter(|r| r.source == "sphere" && r.kind == "synthetic")
            .map(|r| r.vertices),
    );
    if !sphere_sizes.is_empty() {
        let pairs = SPEEDUPS_VS_PLAIN_GJK.iter().chain(SPEEDUPS_VS_PEER);
        let time = |f: Family, m: &str, n: usize| sphere_median_ns(rows, f, m, n);
        let mut header = vec!["query".to_string(), "ours vs baseline".to_string()];
        header.extend(sphere_sizes.iter().map(|n| format!("n = {n}")));
        let body: Vec<Vec<String>> = pairs
            .filter(|(f, base, ours)| {
                sphere_sizes
                    .iter()
                    .any(|&n| time(*f, base, n).is_some() && time(*f, ours, n).is_some())
            })
            .map(|&(f, base, ours)| {
                let mut cells = vec![f.name().to_string(), format!("{ours} vs {base}")];
                cells.extend(sphere_sizes.iter().map(|&n| {
                    match (time(f, base, n), time(f, ours, n)) {
                        (Some(b), Some(o)) if o > 0.0 => format!("{:.1}×", b / o),
                        _ => "—".into(),
                    }
                }));
                cells
            })
            .collect();
        if !body.is_empty() {
            out.push(Table {
                title: "Speed-up on sphere hulls".into(),
                caption: "Baseline median time / our median time on the same poses (> 1: ours is faster).".into(),
                header,
                rows: body,
            });
        }
    }
    // Real meshes, one table per family.
    for family in Family::QUERIES {
        let mine: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| r.kind == "mesh" && r.query == family.name())
            .collect();
        if mine.is_empty() {
            continue;
        }
        let methods = distinct(mine.iter().map(|r| r.method.clone()));
        let meshes = distinct(mine.iter().map(|r| (r.source.clone(), r.vertices)));
        let mut header = vec!["mesh".to_string(), "hull vertices".to_string()];
        header.extend(methods.iter().cloned());
        let body = meshes
            .iter()
            .map(|(s, n)| {
                let mut cells = vec![s.clone(), n.to_string()];
                cells.extend(methods.iter().map(|m| {
                    mine.iter()
                        .find(|r| r.source == *s && r.method == *m)
                        .map(|r| time_cell(r))
                        .unwrap_or_else(|| "—".into())
                }));
                cells
            })
            .collect();
        out.push(Table {
            title: format!("Real meshes, {}: median time per query", family.name()),
            caption: "Each mesh's hull against itself at the same pose pairs for every method."
                .into(),
            header,
            rows: body,
        });
    }
    // Preprocessing.
    let pre: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.query == Family::Preprocess.name())
        .collect();
    if !pre.is_empty() {
        let methods = distinct(pre.iter().map(|r| r.method.clone()));
        let sources = distinct(pre.iter().map(|r| (r.source.clone(), r.vertices)));
        let mut header = vec!["source".to_string(), "hull vertices".to_string()];
        for m in &methods {
            header.push(format!("{m}: time"));
        }
        header.push("polytope B/vertex".into());
        header.push("NVM B/vertex".into());
        let body = sources
            .iter()
            .map(|(s, n)| {
                let mut cells = vec![s.clone(), n.to_string()];
                let find = |m: &str| {
                    pre.iter()
                        .find(|r| r.source == *s && r.vertices == *n && r.method == m)
                };
                for m in &methods {
                    cells.push(match find(m) {
                        Some(r) if r.status == "ok" => optional(r.median_ns, format_time),
                        Some(r) if r.note.starts_with(&r.status) => r.note.clone(),
                        Some(r) => format!("{}: {}", r.status, r.note),
                        None => "—".into(),
                    });
                }
                cells.push(optional(
                    find("hull (ours)").and_then(|r| r.bytes_per_vertex),
                    |b| format!("{b:.0}"),
                ));
                cells.push(optional(
                    find("normal vector map (ours)").and_then(|r| r.bytes_per_vertex),
                    |b| format!("{b:.0}"),
                ));
                cells
            })
            .collect();
        out.push(Table {
            title: "Preprocessing: build time and memory".into(),
            caption: "One-shot wall-clock times. Bytes per hull vertex: the half-edge polytope, and the NVM's frozen search structure on top of it.".into(),
            header,
            rows: body,
        });
    }
    // Accuracy.
    let queries: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.query != Family::Preprocess.name())
        .collect();
    if !queries.is_empty() {
        let lines = distinct(queries.iter().map(|r| (r.query.clone(), r.method.clone())));
        let body = lines
            .iter()
            .map(|(q, m)| {
                let mine: Vec<&&ResultRow> = queries
                    .iter()
                    .filter(|r| r.query == *q && r.method == *m)
                    .collect();
                let worst = |f: &dyn Fn(&ResultRow) -> Option<f64>| {
                    mine.iter().filter_map(|r| f(r)).reduce(f64::max)
                };
                let failed: Vec<&&&ResultRow> =
                    mine.iter().filter(|r| r.status == "failed").collect();
                let checked = mine.iter().filter(|r| r.oracle_error.is_some()).count();
                vec![
                    q.clone(),
                    m.clone(),
                    optional(worst(&|r| r.max_disagreement), |v| format!("{v:.1e}")),
                    optional(worst(&|r| r.oracle_error), |v| format!("{v:.1e}")),
                    format!("{checked} of {}", mine.len()),
                    match failed.first() {
                        Some(r) => format!("{} ({}: {})", failed.len(), r.source, r.note),
                        None => "0".into(),
                    },
                ]
            })
            .collect();
        out.push(Table {
            title: "Accuracy: largest disagreement over every source".into(),
            caption: format!(
                "Against the family's first method, and against the exact oracle (explicit Minkowski difference) where n_A·n_B ≤ {}. Intersection: fraction of poses whose verdict differs. Other queries: largest |difference| / size of D (a missing answer counts as 0). EPA depth, at every size: the oracle column also holds the support-function consistency |h_D(normal) − depth| / size (h_D from exact linear-scan supports; any unit u has h_D(u) ≥ the true depth, and a correct answer has h_D(normal) = depth). Agreement tolerance {AGREEMENT_TOLERANCE:e}.",
                report.oracle_limit
            ),
            header: ["query", "method", "vs first method", "vs exact oracle", "sources with oracle", "sources failed"]
                .map(String::from)
                .to_vec(),
            rows: body,
        });
    }
    out
}

/// CSV text with a header; `n/a` for absent numbers.
pub fn csv(rows: &[ResultRow]) -> String {
    let mut s = CSV_COLUMNS.join(",");
    s.push('\n');
    let num = |v: Option<f64>| optional(v, |x| polyquery::output::Shortest(x).to_string());
    for r in rows {
        let cells = [
            quote(&r.source),
            quote(&r.kind),
            r.vertices.to_string(),
            quote(&r.query),
            quote(&r.method),
            quote(&r.status),
            quote(&r.note),
            num(r.median_ns),
            num(r.spread_ns),
            r.repetitions.to_string(),
            r.poses.to_string(),
            num(r.support_calls),
            num(r.iterations),
            num(r.max_disagreement),
            num(r.oracle_error),
            num(r.bytes_per_vertex),
        ];
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn quote(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn escape_md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The machine, command, date and commit as (label, value) pairs.
fn provenance(report: &Report) -> Vec<(&'static str, String)> {
    let m = &report.machine;
    vec![
        ("command", report.command.clone()),
        ("date", m.date.clone()),
        ("git commit", m.commit_label()),
        ("polyquery", m.polyquery_version.clone()),
        ("peer", m.peer.clone()),
        ("CPU", m.cpu.clone()),
        ("cores", m.cores.to_string()),
        ("memory", m.memory.clone()),
        ("OS", m.os.clone()),
        ("measuring time", format!("{:.1} s", report.elapsed_seconds)),
    ]
}

/// `report.md`: provenance, tables, plot links, notes.
pub fn markdown(report: &Report, tables: &[Table], plots: &[Plot]) -> String {
    let mut s = String::from("# polyquery benchmark report\n\n");
    for (k, v) in provenance(report) {
        let _ = writeln!(s, "- **{k}**: {}", escape_md(&v));
    }
    s.push('\n');
    for t in tables {
        let _ = writeln!(
            s,
            "## {}\n\n{}\n",
            escape_md(&t.title),
            escape_md(&t.caption)
        );
        let _ = writeln!(
            s,
            "| {} |",
            t.header
                .iter()
                .map(|h| escape_md(h))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(s, "|{}", "---|".repeat(t.header.len()));
        for row in &t.rows {
            let _ = writeln!(
                s,
                "| {} |",
                row.iter()
                    .map(|c| escape_md(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
        s.push('\n');
    }
    if !plots.is_empty() {
        s.push_str("## Plots\n\n");
        for p in plots {
            let _ = writeln!(s, "![{}]({})\n", escape_md(&p.title), p.file);
        }
    }
    if !report.notes.is_empty() {
        s.push_str("## Notes\n\n");
        for n in &report.notes {
            let _ = writeln!(s, "- {}", escape_md(n));
        }
        s.push('\n');
    }
    s.push_str("Every row (with support calls and iterations): `results.csv`, `results.json`.\n");
    s
}

/// An SVG document without its XML declaration, for inlining.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

fn html_table(s: &mut String, t: &Table) {
    let _ = writeln!(
        s,
        "<h2>{}</h2>\n<p class=\"caption\">{}</p>",
        escape_html(&t.title),
        escape_html(&t.caption)
    );
    s.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for h in &t.header {
        let _ = write!(s, "<th>{}</th>", escape_html(h));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        s.push_str("<tr>");
        for c in row {
            let class = if c.contains("failed") || c.contains('⚠') {
                " class=\"bad\""
            } else {
                ""
            };
            let _ = write!(s, "<td{class}>{}</td>", escape_html(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table></div>\n");
}

/// `index.html`: self-contained.
pub fn html(report: &Report, tables: &[Table], plots: &[Plot]) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>polyquery benchmark report</title>\n<style>\n\
         body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}\n\
         table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:14px}\n\
         th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}\n\
         th{background:#f0f0f0}\ntd:first-child,td:nth-child(2){text-align:left}\n\
         td.bad{background:#fde2e2}\n.scroll{overflow-x:auto}\n.caption{color:#555;font-size:14px}\n\
         figure{display:inline-block;margin:.5em;vertical-align:top}\nfigcaption{font-size:13px;color:#555}\n\
         dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}\ndt{font-weight:bold}\ndd{margin:0}\n\
         </style>\n</head>\n<body>\n<h1>polyquery benchmark report</h1>\n<dl>\n",
    );
    for (k, v) in provenance(report) {
        let _ = writeln!(s, "<dt>{}</dt><dd>{}</dd>", escape_html(k), escape_html(&v));
    }
    s.push_str("</dl>\n");
    if !report.notes.is_empty() {
        s.push_str("<h2>Notes</h2>\n<ul>\n");
        for n in &report.notes {
            let _ = writeln!(s, "<li>{}</li>", escape_html(n));
        }
        s.push_str("</ul>\n");
    }
    for t in tables {
        html_table(&mut s, t);
    }
    for section in ["scaling", "speed-up", "meshes", "preprocessing"] {
        let mine: Vec<&Plot> = plots.iter().filter(|p| p.section == section).collect();
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(s, "<h2>Plots: {section}</h2>");
        for p in mine {
            let _ = writeln!(
                s,
                "<figure>\n{}\n<figcaption>{} (<a href=\"{}\">{}</a>)</figcaption>\n</figure>",
                inline_svg(&p.svg),
                escape_html(&p.title),
                p.file,
                p.file
            );
        }
    }
    s.push_str("<h2>Every row</h2>\n<details><summary>All results (also in results.csv and results.json)</summary>\n<div class=\"scroll\"><table>\n<thead><tr>");
    for c in CSV_COLUMNS {
        let _ = write!(s, "<th>{c}</th>");
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    let num = |v: Option<f64>| optional(v, |x| format!("{x:.4}"));
    for r in &report.rows {
        let cells = [
            r.source.clone(),
            r.kind.clone(),
            r.vertices.to_string(),
            r.query.clone(),
            r.method.clone(),
            r.status.clone(),
            r.note.clone(),
            optional(r.median_ns, format_time),
            optional(r.spread_ns, format_time),
            r.repetitions.to_string(),
            r.poses.to_string(),
            num(r.support_calls),
            num(r.iterations),
            optional(r.max_disagreement, |v| format!("{v:.1e}")),
            optional(r.oracle_error, |v| format!("{v:.1e}")),
            optional(r.bytes_per_vertex, |v| format!("{v:.0}")),
        ];
        s.push_str("<tr>");
        for c in cells {
            let _ = write!(s, "<td>{}</td>", escape_html(&c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table></div>\n</details>\n</body>\n</html>\n");
    s
}

//! The report's files (`files = index.html + report.md + results.csv + loads.csv + results.json + *.svg`): `index.html` (self-contained: inline CSS and SVG, no network),
//! `report.md` (the same tables, plots as links to the SVG files), `results.csv` and
//! `results.json` (one row per source × size × query × method, and the robot section),
//! `loads.csv` (the machine's load around each section), one
//! `.svg` per plot, and the robot section's inputs (`robot_configurations.txt`,
//! `robot_motions.txt`).
//!
//! Where it sits: after [`crate::run::measure`]: [`documents`] renders the measured report.
//! Tables are built once ([`Table`]) and printed as HTML and Markdown. The program that runs
//! the report writes the documents (all or nothing, each).

use crate::config::{Report, ReportError};
use crate::format::{distinct, escape_html, escape_md, format_time, group, optional, quote, ratio};
use crate::measure::{FigureValue, TimingRow, timing_columns};
use crate::plots::{self, Plot};
use crate::results::{
    AGREEMENT_TOLERANCE, Family, HEADLINES, Method, ResultRow, SPEEDUPS_VS_PEER,
    SPEEDUPS_VS_PLAIN_GJK, sphere_mean_ns,
};
use crate::status::Status;
use crate::summary::{self, GLOSSARY};
use crate::table::Table;
use crate::view::VIEW_CSS;
use std::fmt::Write as _;

/// The CSV columns, in order (the fields of [`ResultRow`]): `CSV_COLUMNS.len() = 19`.
pub const CSV_COLUMNS: [&str; 19] = [
    "source",
    "kind",
    "vertices",
    "query",
    "method",
    "status",
    "note",
    "mean_ns",
    "spread_ns",
    "passes",
    "repetitions",
    "poses",
    "poses_drawn",
    "support_calls",
    "iterations",
    "max_disagreement",
    "oracle_error",
    "normal_gap",
    "bytes_per_vertex",
];

/// One document of the report: its file name in the output folder and its content
/// (`file = out / name`).
#[derive(Clone, Debug)]
pub struct Document<'a> {
    /// `name` = the file name in the output folder (`index.html`, `support.svg`, …).
    pub name: String,
    /// `content` = what the file holds.
    pub content: Content<'a>,
}

/// What a document holds: `Text(t)` is written as is (`bytes = t`), `Json(r)` is the report
/// serialised as JSON by the writer (every float finite, in its shortest round-trip form).
#[derive(Clone, Debug)]
pub enum Content<'a> {
    /// Text: HTML, Markdown, CSV, SVG or the robot section's input files: `bytes = text`.
    Text(String),
    /// The report itself, for `results.json`: `bytes = JSON of the report`.
    Json(&'a Report),
}

/// Every document of `report`, in the order they are written (`documents(r)?.len()` = the
/// plots + the robot inputs + `results.csv`, `results.json`, `report.md`, `index.html`):
/// `Err` only when a plot cannot be drawn.
pub fn documents(report: &Report) -> Result<Vec<Document<'_>>, ReportError> {
    let plots = plots::render_all(report)?;
    let tables = tables(report);
    let text = |name: &str, text: String| Document {
        name: name.to_string(),
        content: Content::Text(text),
    };
    let mut out: Vec<Document<'_>> = plots.iter().map(|p| text(&p.file, p.svg.clone())).collect();
    if let Some(robot) = &report.robot {
        out.extend(robot.inputs().map(|(name, t)| text(name, t)));
    }
    out.push(text("results.csv", csv(&report.rows)));
    out.push(text(LOADS_FILE, loads_csv(report)));
    out.push(Document {
        name: "results.json".into(),
        content: Content::Json(report),
    });
    out.push(text("report.md", markdown(report, &tables, &plots)));
    out.push(text("index.html", html(report, &tables, &plots)));
    Ok(out)
}

/// A timing cell: the mean time per query, its spread over the passes as a percentage,
/// how many inputs it was timed on when fewer than the family's set, or why there is none.
fn time_cell(r: &ResultRow) -> String {
    match r.timing.median_ns {
        Some(m) if !r.status.is_unusable() => r
            .timing
            .decorate(&format_time(m), r.status == Status::Disagrees),
        Some(m) => format!("{} ({})", format_time(m), r.status),
        None => r.status.to_string(),
    }
}

/// The report's tables, in order: `tables(report)` = the tables [`markdown`] and [`html`] print.
pub fn tables(report: &Report) -> Vec<Table> {
    let rows = &report.rows;
    let mut out = Vec::new();
    for shape in ["sphere", "ellipsoid"] {
        let mine: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| r.kind == "synthetic" && r.source == shape && r.query != Family::Preprocess)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let sizes = distinct(mine.iter().map(|r| r.vertices));
        let lines = distinct(mine.iter().map(|r| (r.query, r.method)));
        let mut header = vec!["query".to_string(), "method".to_string()];
        header.extend(sizes.iter().map(|&n| format!("n = {}", group(n))));
        let body = lines
            .iter()
            .map(|(q, m)| {
                let mut cells = vec![q.to_string(), m.to_string()];
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
            title: format!("{shape} hulls: mean time per query"),
            caption: format!(
                "Both bodies are the same {shape} hull (n vertices each). Pair queries: {} random pose pairs per size (half overlapping, half disjoint); support: {} distinct random directions. ± is half the interquartile range over the timing passes; (k of N): timed on the first k of the N shuffled inputs (a slow baseline or the peer); ⚠: the answers disagree beyond {AGREEMENT_TOLERANCE:e} of the size of D (see the summary).",
                group(report.workload.queries),
                group(report.workload.directions)
            ),
            header,
            rows: body,
            folded: false,
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
        let time = |f: Family, m: Method, n: usize| sphere_mean_ns(rows, f, m, n);
        let mut header = vec!["query".to_string(), "ours vs baseline".to_string()];
        header.extend(sphere_sizes.iter().map(|&n| format!("n = {}", group(n))));
        let body: Vec<Vec<String>> = pairs
            .filter(|(f, base, ours)| {
                sphere_sizes
                    .iter()
                    .any(|&n| time(*f, *base, n).is_some() && time(*f, *ours, n).is_some())
            })
            .map(|&(f, base, ours)| {
                let mut cells = vec![f.name().to_string(), format!("{ours} vs {base}")];
                cells.extend(sphere_sizes.iter().map(|&n| {
                    match (time(f, base, n), time(f, ours, n)) {
                        (Some(b), Some(o)) if o > 0.0 => ratio(b / o),
                        _ => "—".into(),
                    }
                }));
                cells
            })
            .collect();
        if !body.is_empty() {
            out.push(Table {
                title: "Speed-up on sphere hulls".into(),
                caption: "The baseline's mean time per query / ours, on the same inputs (above 1×: ours is faster).".into(),
                header,
                rows: body,
                folded: false,
            });
        }
    }
    // Real meshes: our time and speed-ups, then one folded table per family.
    if let Some(t) = mesh_speedups(rows) {
        out.push(t);
    }
    for family in Family::QUERIES {
        let mine: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| r.kind == "mesh" && r.query == family)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let methods = distinct(mine.iter().map(|r| r.method));
        let meshes = distinct(mine.iter().map(|r| (r.source.clone(), r.vertices)));
        let mut header = vec!["mesh".to_string(), "hull vertices".to_string()];
        header.extend(methods.iter().map(Method::to_string));
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
            title: format!("Real meshes, {}: mean time per query", family.name()),
            caption: "Each mesh's hull against itself, at the same pose pairs (or directions) for every method."
                .into(),
            header,
            rows: body,
            folded: true,
        });
    }
    // Preprocessing.
    let pre: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.query == Family::Preprocess)
        .collect();
    if !pre.is_empty() {
        let methods = distinct(pre.iter().map(|r| r.method));
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
                let find = |m: Method| {
                    pre.iter()
                        .find(|r| r.source == *s && r.vertices == *n && r.method == m)
                };
                for m in &methods {
                    cells.push(match find(*m) {
                        Some(r) if r.status == Status::Ok => {
                            optional(r.timing.median_ns, format_time)
                        }
                        Some(r) if r.status == Status::Skipped => r.note.clone(),
                        Some(r) => format!("{}: {}", r.status, r.note),
                        None => "—".into(),
                    });
                }
                cells.push(optional(
                    find(Method::Hull).and_then(|r| r.bytes_per_vertex),
                    |b| format!("{b:.0}"),
                ));
                cells.push(optional(
                    find(Method::NvmBuild).and_then(|r| r.bytes_per_vertex),
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
            folded: true,
        });
    }
    // Accuracy.
    let queries: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.query != Family::Preprocess)
        .collect();
    if !queries.is_empty() {
        let lines = distinct(queries.iter().map(|r| (r.query, r.method)));
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
                    mine.iter().filter(|r| r.status == Status::Failed).collect();
                let checked = mine.iter().filter(|r| r.oracle_error.is_some()).count();
                vec![
                    q.to_string(),
                    m.to_string(),
                    optional(worst(&|r| r.max_disagreement), |v| format!("{v:.1e}")),
                    optional(worst(&|r| r.oracle_error), |v| format!("{v:.1e}")),
                    optional(worst(&|r| r.normal_gap), |v| format!("{v:.1e}")),
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
                "Against the family's first method, and against the exact oracle (explicit Minkowski difference) where n_A·n_B ≤ {}. Intersection: fraction of poses whose verdict differs. Other queries: largest |difference| / size of D (a missing answer counts as 0). Normal gap (EPA depth, at every size): |h_D(normal) − depth| / size of D with h_D from exact linear-scan supports; any unit u has h_D(u) ≥ the true depth, and a correct answer has h_D(normal) = depth. Agreement tolerance {AGREEMENT_TOLERANCE:e}.",
                group(report.oracle_limit)
            ),
            header: ["query", "method", "vs first method", "vs exact oracle", "normal gap", "sources with oracle", "sources failed"]
                .map(String::from)
                .to_vec(),
            rows: body,
            folded: false,
        });
    }
    if let Some(robot) = &report.robot {
        out.extend(crate::robot::tables(robot));
    }
    if let Some(planning) = &report.planning {
        out.extend(crate::planning::tables(planning));
    }
    out
}

/// The nine real meshes (or whatever meshes ran) in one table: per query family our time and
/// the speed-ups over plain GJK (the same algorithm on linear-scan support) and parry3d.
fn mesh_speedups(rows: &[ResultRow]) -> Option<Table> {
    let meshes = distinct(
        rows.iter()
            .filter(|r| r.kind == "mesh" && r.query != Family::Preprocess)
            .map(|r| (r.source.clone(), r.vertices)),
    );
    if meshes.is_empty() {
        return None;
    }
    let find = |s: &str, f: Family, m: Method| {
        rows.iter()
            .find(|r| r.kind == "mesh" && r.source == s && r.query == f && r.method == m)
    };
    let usable = |r: Option<&ResultRow>| {
        r.filter(|r| !r.status.is_unusable())
            .and_then(|r| r.timing.median_ns)
            .filter(|t| *t > 0.0)
    };
    // Columns that have data somewhere.
    type Cell<'a> = Box<dyn Fn(&str) -> String + 'a>;
    let mut columns: Vec<(String, Cell<'_>)> = Vec::new();
    for &(family, ours, plain, peer) in HEADLINES {
        if !meshes
            .iter()
            .any(|(s, _)| usable(find(s, family, ours)).is_some())
        {
            continue;
        }
        columns.push((
            format!("{}: {ours}", family.name()),
            Box::new(move |s: &str| {
                find(s, family, ours)
                    .map(time_cell)
                    .unwrap_or_else(|| "—".into())
            }),
        ));
        for (label, other) in [("plain GJK", plain), ("parry3d", peer)] {
            let Some(other) = other else { continue };
            if !meshes
                .iter()
                .any(|(s, _)| usable(find(s, family, other)).is_some())
            {
                continue;
            }
            let label = if family == Family::Support {
                format!("{}: × {other}", family.name())
            } else {
                format!("{}: × {label}", family.name())
            };
            columns.push((
                label,
                Box::new(move |s: &str| {
                    match (
                        usable(find(s, family, other)),
                        usable(find(s, family, ours)),
                    ) {
                        (Some(b), Some(o)) => ratio(b / o),
                        _ => "—".into(),
                    }
                }),
            ));
        }
    }
    let mut header = vec!["mesh".to_string(), "hull vertices".to_string()];
    header.extend(columns.iter().map(|(h, _)| h.clone()));
    let body = meshes
        .iter()
        .map(|(s, n)| {
            let mut cells = vec![s.trim_end_matches(".obj").to_string(), group(*n)];
            cells.extend(columns.iter().map(|(_, cell)| cell(s)));
            cells
        })
        .collect();
    Some(Table {
        title: "Real meshes: our time per query and speed-ups".into(),
        caption: "Each mesh's hull against itself at random pose pairs. × plain GJK: the same algorithm on linear-scan support, divided by ours; × parry3d: parry3d's time divided by ours (above 1×: ours is faster). Every method of every family, one table each, below.".into(),
        header,
        rows: body,
        folded: false,
    })
}

/// CSV text with a header; `n/a` for absent numbers: `lines = 1 + rows.len()`, columns = [`CSV_COLUMNS`].
pub fn csv(rows: &[ResultRow]) -> String {
    let mut s = CSV_COLUMNS.join(",");
    s.push('\n');
    for r in rows {
        let cells = row_cells(r, |_, v| {
            optional(v, |x| polyquery::output::Shortest(x).to_string())
        });
        let quoted: Vec<String> = cells.iter().map(|c| quote(c)).collect();
        s.push_str(&quoted.join(","));
        s.push('\n');
    }
    s
}

/// The file of the machine's load per section: `LOADS_FILE = "loads.csv"`.
pub const LOADS_FILE: &str = "loads.csv";

/// The machine's load around each section as CSV (`section,cores,load_1min_before,load_1min_after`;
/// `n/a` when unreadable): `lines = 1 + report.loads.len()`.
pub fn loads_csv(report: &Report) -> String {
    let mut s = String::from("section,cores,load_1min_before,load_1min_after\n");
    for l in &report.loads {
        let one = |x: Option<f64>| optional(x, |x| polyquery::output::Shortest(x).to_string());
        let _ = writeln!(
            s,
            "{},{},{},{}",
            quote(&l.section),
            l.cores,
            one(l.before),
            one(l.after)
        );
    }
    s
}

/// What a number of a [`ResultRow`] measures, for its format in the HTML table.
#[derive(Clone, Copy)]
enum Figure {
    /// The timing's times (`mean_ns`, `spread_ns`).
    Time,
    /// `support_calls`, `iterations`: means per query.
    Count,
    /// `max_disagreement`, `oracle_error`, `normal_gap`: relative errors.
    Error,
    /// `bytes_per_vertex`.
    Bytes,
}

/// A row's cells in [`CSV_COLUMNS`] order, unescaped (the timing's under the columns of [`TimingRow::Pair`]);
/// its optional numbers written by `number(what it measures, value)`.
fn row_cells(r: &ResultRow, number: impl Fn(Figure, Option<f64>) -> String) -> Vec<String> {
    let identity = [
        r.source.clone(),
        r.kind.clone(),
        r.vertices.to_string(),
        r.query.to_string(),
        r.method.to_string(),
        r.status.to_string(),
        r.note.clone(),
    ];
    let timing = timing_columns(TimingRow::Pair).map(|(_, figure)| match r.timing.value(figure) {
        FigureValue::Number(x) => number(Figure::Time, x),
        FigureValue::Count(n) => n.to_string(),
    });
    let figures = [
        number(Figure::Count, r.support_calls),
        number(Figure::Count, r.iterations),
        number(Figure::Error, r.max_disagreement),
        number(Figure::Error, r.oracle_error),
        number(Figure::Error, r.normal_gap),
        number(Figure::Bytes, r.bytes_per_vertex),
    ];
    identity.into_iter().chain(timing).chain(figures).collect()
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
        (
            "load (1-minute average)",
            report
                .loads
                .iter()
                .map(|l| format!("{}: {}", l.section, l.describe()))
                .collect::<Vec<_>>()
                .join("; "),
        ),
    ]
}

/// How `report.md` and `index.html` mark up the parts they share (the first screen, the
/// glossary, the machine): templates whose `{}` are filled with escaped text.
struct Markup {
    /// Escapes text for the document.
    escape: fn(&str) -> String,
    /// A titled list: (the heading, one item, the end of the list).
    list: (&'static str, &'static str, &'static str),
    /// A term and its definition.
    term: &'static str,
    /// Before the first screen, between it and the glossary, between the glossary and the
    /// machine, after the machine.
    joins: [&'static str; 4],
}

impl Markup {
    /// `template` with each `{}` replaced by the next of `parts`, escaped.
    fn fill(&self, template: &str, parts: &[&str]) -> String {
        let mut out = String::new();
        let mut pieces = template.split("{}");
        out.push_str(pieces.next().unwrap_or_default());
        for (piece, part) in pieces.zip(parts) {
            out.push_str(&(self.escape)(part));
            out.push_str(piece);
        }
        out
    }

    /// The first screen ([`summary::summary`]), the glossary and the machine, with their joins.
    fn front(&self, s: &mut String, report: &Report) {
        let [start, glossary, machine, end] = self.joins;
        s.push_str(start);
        self.lists(s, &summary::summary(report));
        s.push_str(glossary);
        self.terms(s, GLOSSARY.iter().copied());
        s.push_str(machine);
        let provenance = provenance(report);
        self.terms(s, provenance.iter().map(|(k, v)| (*k, v.as_str())));
        s.push_str(end);
    }

    /// Each (heading, lines) as a titled list.
    fn lists(&self, s: &mut String, lists: &[(String, Vec<String>)]) {
        let (heading, item, end) = self.list;
        for (title, lines) in lists {
            s.push_str(&self.fill(heading, &[title]));
            for line in lines {
                s.push_str(&self.fill(item, &[line]));
            }
            s.push_str(end);
        }
    }

    /// Each (term, definition) on its own line.
    fn terms<'a>(&self, s: &mut String, terms: impl Iterator<Item = (&'a str, &'a str)>) {
        for (term, definition) in terms {
            s.push_str(&self.fill(self.term, &[term, definition]));
        }
    }
}

/// `report.md`: the conclusion, the glossary, provenance, tables, plot links, notes (`markdown(…) = report.md's text`).
pub fn markdown(report: &Report, tables: &[Table], plots: &[Plot]) -> String {
    let mut s = String::from("# polyquery benchmark report\n\n");
    if report.quick {
        s.push_str(
            "**A `--quick` report: a smoke test on small hulls, not the figures to quote.**\n\n",
        );
    }
    Markup {
        escape: escape_md,
        list: ("### {}\n\n", "- {}\n", "\n"),
        term: "- **{}**: {}\n",
        joins: [
            "## In one minute\n\n",
            "## Glossary\n\n",
            "\n## Machine and run\n\n",
            "\n",
        ],
    }
    .front(&mut s, report);
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

/// A table cell's text as HTML: escaped, with a line-break opportunity after every
/// underscore (`cell_html("a_b") = "a_<wbr>b"`), so that long names wrap and numbers do not.
fn cell_html(text: &str) -> String {
    escape_html(text).replace('_', "_<wbr>")
}

fn html_table(s: &mut String, t: &Table) {
    if t.folded {
        let _ = writeln!(
            s,
            "<details><summary>{}</summary>\n<p class=\"caption\">{}</p>",
            escape_html(&t.title),
            escape_html(&t.caption)
        );
    } else {
        let _ = writeln!(
            s,
            "<h2>{}</h2>\n<p class=\"caption\">{}</p>",
            escape_html(&t.title),
            escape_html(&t.caption)
        );
    }
    s.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for h in &t.header {
        let _ = write!(s, "<th>{}</th>", cell_html(h));
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
            let _ = write!(s, "<td{class}>{}</td>", cell_html(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table></div>\n");
    if t.folded {
        s.push_str("</details>\n");
    }
}

/// The page's style: table cells wrap at spaces and after underscores ([`cell_html`]),
/// headings anywhere, so that every table fits the page (the table of every row in a smaller
/// font), each still inside a box of its own that scrolls should one not; plots shrink to the page.
const CSS: &str = "\
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222;line-height:1.4}\n\
h1{margin:.2em 0 .4em}\nh2{margin-top:1.6em}\n\
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:14px}\n\
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;overflow-wrap:break-word}\n\
th{overflow-wrap:anywhere}\ntable.all{font-size:12px}\ntable.all th,table.all td{padding:2px 4px}\n\
th{background:#f0f0f0}\ntd:first-child,td:nth-child(2){text-align:left}\n\
td.bad{background:#fde2e2}\n.scroll{overflow-x:auto;max-width:100%}\n.caption{color:#555;font-size:14px}\n\
figure{margin:1em 0;max-width:100%}\nfigure svg{max-width:100%;height:auto}\nfigcaption{font-size:13px;color:#555}\n\
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px}\ndt{font-weight:bold}\ndd{margin:0;overflow-wrap:anywhere}\n\
#summary{background:#f4f8fc;border:1px solid #c9dbee;border-radius:6px;padding:.2em 1.2em .6em}\n\
#summary h2{margin-top:.6em}\n#summary h3{margin:.8em 0 .2em;font-size:1.05em}\n#summary ul{margin:.2em 0;padding-left:1.3em}\n\
.quick{background:#fff4d6;border:1px solid #e6c25a;padding:.4em .8em;border-radius:6px}\n\
details{margin:.6em 0}\ndetails>summary{cursor:pointer;font-weight:bold}\n";

/// `index.html`: self-contained (`html(…) = index.html's text`, CSS and SVG inline).
pub fn html(report: &Report, tables: &[Table], plots: &[Plot]) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>polyquery benchmark report</title>\n<style>\n{CSS}{VIEW_CSS}</style>\n</head>\n<body>\n<h1>polyquery benchmark report</h1>\n"
    );
    if report.quick {
        s.push_str("<p class=\"quick\">A <code>--quick</code> report: a smoke test on small hulls, not the figures to quote.</p>\n");
    }
    Markup {
        escape: escape_html,
        list: ("<h3>{}</h3>\n<ul>\n", "<li>{}</li>\n", "</ul>\n"),
        term: "<dt>{}</dt><dd>{}</dd>\n",
        joins: [
            "<section id=\"summary\">\n<h2>In one minute</h2>\n",
            "</section>\n<h2>Glossary</h2>\n<dl class=\"glossary\">\n",
            "</dl>\n<h2>Machine and run</h2>\n<dl>\n",
            "</dl>\n",
        ],
    }
    .front(&mut s, report);
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
    if let Some(planning) = report.planning.as_ref().filter(|p| !p.view.is_empty()) {
        let _ = writeln!(
            s,
            "<h2>Planning: the view</h2>\n<p class=\"caption\">{}: the robot's collision shapes (decomposed meshes as their convex pieces), the scene and the certified path; pick a problem, press Play or move the slider; drag to orbit, wheel to zoom.</p>",
            escape_html(&planning.viewed.join(", "))
        );
        s.push_str(&planning.view);
        s.push_str(crate::view::VIEWER_SCRIPT);
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
    s.push_str("<h2>Every row</h2>\n<details><summary>All results (also in results.csv and results.json)</summary>\n<div class=\"scroll\"><table class=\"all\">\n<thead><tr>");
    for c in CSV_COLUMNS {
        let _ = write!(s, "<th>{}</th>", cell_html(c));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for r in &report.rows {
        let cells = row_cells(r, |figure, v| match figure {
            Figure::Time => optional(v, format_time),
            Figure::Count => optional(v, |x| format!("{x:.4}")),
            Figure::Error => optional(v, |x| format!("{x:.1e}")),
            Figure::Bytes => optional(v, |x| format!("{x:.0}")),
        });
        s.push_str("<tr>");
        for c in cells {
            let _ = write!(s, "<td>{}</td>", cell_html(&c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table></div>\n</details>\n</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV header names the timing's columns where the cells put them.
    #[test]
    fn the_csv_header_holds_the_timing_columns() {
        let timing: Vec<&str> = timing_columns(TimingRow::Pair).map(|(n, _)| n).collect();
        assert_eq!(CSV_COLUMNS[7..13], timing[..]);
    }
}

//! The report's plots as SVG strings (plotters, SVG backend only: text is written as
//! `<text>` elements, so no font library is needed): log–log time against hull size per
//! query family, speed-ups against plain GJK and against the peer, bars per real mesh,
//! bytes per vertex and preprocessing time against n.
//!
//! Where it sits: [`super::writers`] calls [`render_all`] with the finished report and
//! writes each SVG to a file and inline into `index.html`.

use super::runner::{Family, ResultRow, SPEEDUPS_VS_PEER, SPEEDUPS_VS_PLAIN_GJK, sphere_median_ns};
use super::{Report, ReportError};
use plotters::prelude::*;

/// One rendered plot.
#[derive(Clone, Debug)]
pub struct Plot {
    /// File name (`….svg`).
    pub file: String,
    /// Title, also the caption in HTML and Markdown.
    pub title: String,
    /// Which section of the report it belongs to.
    pub section: &'static str,
    /// The SVG document.
    pub svg: String,
}

/// A named line: `(x, y)` points, both positive.
type Series = (String, Vec<(f64, f64)>);

const WIDTH: u32 = 860;
const HEIGHT: u32 = 520;

/// Every plot the report's rows allow (families without data are left out).
pub fn render_all(report: &Report) -> Result<Vec<Plot>, ReportError> {
    let rows = &report.rows;
    let mut plots = Vec::new();
    for shape in ["sphere", "ellipsoid"] {
        for family in Family::QUERIES {
            let series = method_series(rows, shape, family);
            if series.iter().all(|(_, pts)| pts.len() < 2) {
                continue;
            }
            let title = format!("{} on {shape} hulls: time per query", family.name());
            let file = format!("time_{}_{shape}.svg", family.slug());
            let svg = line_plot(
                &title,
                "hull vertices per body (n)",
                "median time per query (µs)",
                &series,
                true,
            )
            .map_err(|reason| ReportError::Plot {
                name: file.clone(),
                reason,
            })?;
            plots.push(Plot {
                file,
                title,
                section: "scaling",
                svg,
            });
        }
    }
    for (file, title, baseline) in [
        (
            "speedup_vs_gjk.svg",
            "Speed-up over plain GJK (linear-scan support), sphere hulls",
            Baseline::PlainGjk,
        ),
        (
            "speedup_vs_parry.svg",
            "Speed-up over parry3d, sphere hulls",
            Baseline::Peer,
        ),
    ] {
        let series = speedup_series(rows, baseline);
        if series.iter().all(|(_, pts)| pts.len() < 2) {
            continue;
        }
        let svg = line_plot(
            title,
            "hull vertices per body (n)",
            "speed-up (baseline time / our time, ×)",
            &series,
            true,
        )
        .map_err(|reason| ReportError::Plot {
            name: file.into(),
            reason,
        })?;
        plots.push(Plot {
            file: file.into(),
            title: title.into(),
            section: "speed-up",
            svg,
        });
    }
    for family in Family::QUERIES {
        let (meshes, methods, values) = mesh_bars(rows, family);
        if meshes.is_empty() || methods.is_empty() {
            continue;
        }
        let title = format!("{} on the real meshes: time per query", family.name());
        let file = format!("meshes_{}.svg", family.slug());
        let svg = bar_plot(
            &title,
            "median time per query (µs)",
            &meshes,
            &methods,
            &values,
        )
        .map_err(|reason| ReportError::Plot {
            name: file.clone(),
            reason,
        })?;
        plots.push(Plot {
            file,
            title,
            section: "meshes",
            svg,
        });
    }
    let bytes = preprocess_series(rows, true, |r| r.bytes_per_vertex);
    if bytes.iter().any(|(_, pts)| pts.len() >= 2) {
        let title = "Memory per hull vertex against n";
        let file = "bytes_per_vertex.svg";
        let svg = line_plot(
            title,
            "hull vertices (n)",
            "bytes per hull vertex (B)",
            &bytes,
            false,
        )
        .map_err(|reason| ReportError::Plot {
            name: file.into(),
            reason,
        })?;
        plots.push(Plot {
            file: file.into(),
            title: title.into(),
            section: "preprocessing",
            svg,
        });
    }
    let times = preprocess_series(rows, false, |r| r.median_ns.map(|ns| ns / 1e3));
    if times.iter().any(|(_, pts)| pts.len() >= 2) {
        let title = "Preprocessing time against n";
        let file = "preprocess_time.svg";
        let svg = line_plot(title, "hull vertices (n)", "build time (µs)", &times, true).map_err(
            |reason| ReportError::Plot {
                name: file.into(),
                reason,
            },
        )?;
        plots.push(Plot {
            file: file.into(),
            title: title.into(),
            section: "preprocessing",
            svg,
        });
    }
    Ok(plots)
}

/// Per method of `family` on synthetic `shape`: (n, median µs).
fn method_series(rows: &[ResultRow], shape: &str, family: Family) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.kind == "synthetic" && r.source == shape && r.query == family.name())
    {
        let Some(ns) = r.median_ns.filter(|v| v.is_finite() && *v > 0.0) else {
            continue;
        };
        let point = (r.vertices as f64, ns / 1e3);
        match out.iter_mut().find(|(name, _)| *name == r.method) {
            Some((_, pts)) => pts.push(point),
            None => out.push((r.method.clone(), vec![point])),
        }
    }
    out
}

/// Per preprocessing method and synthetic shape: (n, value).
fn preprocess_series(
    rows: &[ResultRow],
    bytes: bool,
    value: impl Fn(&ResultRow) -> Option<f64>,
) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.kind == "synthetic" && r.query == Family::Preprocess.name())
    {
        let Some(v) = value(r).filter(|v| v.is_finite() && *v > 0.0) else {
            continue;
        };
        let what = if bytes && r.method == "hull (ours)" {
            "half-edge polytope"
        } else if bytes {
            "NVM search structure"
        } else {
            r.method.as_str()
        };
        let name = format!("{what}, {}", r.source);
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, pts)) => pts.push((r.vertices as f64, v)),
            None => out.push((name, vec![(r.vertices as f64, v)])),
        }
    }
    out
}

/// What a speed-up is measured against.
#[derive(Clone, Copy, PartialEq)]
enum Baseline {
    PlainGjk,
    Peer,
}

/// Speed-up lines on sphere hulls: baseline median / method median per n.
fn speedup_series(rows: &[ResultRow], baseline: Baseline) -> Vec<Series> {
    let pairs = match baseline {
        Baseline::PlainGjk => SPEEDUPS_VS_PLAIN_GJK,
        Baseline::Peer => SPEEDUPS_VS_PEER,
    };
    let time = |family: Family, method: &str, n: usize| sphere_median_ns(rows, family, method, n);
    let mut sizes: Vec<usize> = rows
        .iter()
        .filter(|r| r.source == "sphere")
        .map(|r| r.vertices)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    pairs
        .iter()
        .map(|&(family, base, ours)| {
            let pts = sizes
                .iter()
                .filter_map(|&n| Some((n as f64, time(family, base, n)? / time(family, ours, n)?)))
                .collect();
            let label = match baseline {
                Baseline::PlainGjk => format!("{}: {ours} vs {base}", family.name()),
                Baseline::Peer => format!("{}: {ours} vs parry3d", family.name()),
            };
            (label, pts)
        })
        .collect()
}

/// Meshes (names), methods and their median µs (`None` = failed / missing) for `family`.
fn mesh_bars(
    rows: &[ResultRow],
    family: Family,
) -> (Vec<String>, Vec<String>, Vec<Vec<Option<f64>>>) {
    let mine: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.kind == "mesh" && r.query == family.name())
        .collect();
    let mut meshes: Vec<String> = Vec::new();
    let mut methods: Vec<String> = Vec::new();
    for r in &mine {
        let label = format!("{} ({})", r.source.trim_end_matches(".obj"), r.vertices);
        if !meshes.contains(&label) {
            meshes.push(label);
        }
        if !methods.contains(&r.method) {
            methods.push(r.method.clone());
        }
    }
    let values = meshes
        .iter()
        .map(|m| {
            methods
                .iter()
                .map(|method| {
                    mine.iter()
                        .find(|r| {
                            format!("{} ({})", r.source.trim_end_matches(".obj"), r.vertices) == *m
                                && r.method == *method
                        })
                        .and_then(|r| r.median_ns)
                        .filter(|v| v.is_finite() && *v > 0.0)
                        .map(|ns| ns / 1e3)
                })
                .collect()
        })
        .collect();
    (meshes, methods, values)
}

/// A logarithmic axis range holding `values` with some margin.
fn log_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !(lo.is_finite() && hi > 0.0) {
        return (0.1, 10.0);
    }
    let (lo, hi) = (lo / 1.6, hi * 1.6);
    if hi / lo < 10.0 {
        let mid = (lo * hi).sqrt();
        (mid / 3.2, mid * 3.2)
    } else {
        (lo, hi)
    }
}

fn color(i: usize) -> RGBColor {
    // Distinct, print-friendly colours (Okabe–Ito, then a few more).
    const COLORS: [(u8, u8, u8); 10] = [
        (0, 114, 178),
        (213, 94, 0),
        (0, 158, 115),
        (204, 121, 167),
        (230, 159, 0),
        (86, 180, 233),
        (0, 0, 0),
        (140, 86, 75),
        (127, 127, 127),
        (188, 189, 34),
    ];
    let (r, g, b) = COLORS[i % COLORS.len()];
    RGBColor(r, g, b)
}

/// Axes, one line (with point markers) per series and the legend, on a chart whose axes are
/// either logarithmic or linear.
fn draw_lines<'a, 'b: 'a, X, Y>(
    mut chart: ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    legend: SeriesLabelPosition,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 13))
        .x_label_formatter(&|v| format_count(*v))
        .y_label_formatter(&|v| format_number(*v))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = color(i);
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .position(legend)
        .label_font(("sans-serif", 13))
        .border_style(BLACK)
        .background_style(WHITE.mix(0.85))
        .draw()
        .map_err(|e| e.to_string())
}

/// A line plot with a logarithmic x axis (and y axis when `log_y`), one line per series.
fn line_plot(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_y: bool,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (x0, x1) = log_range(series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0)));
        let ys = || series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(80);
        if log_y {
            let (y0, y1) = log_range(ys());
            let chart = builder
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                .map_err(|e| e.to_string())?;
            draw_lines(
                chart,
                x_label,
                y_label,
                series,
                SeriesLabelPosition::UpperLeft,
            )?;
        } else {
            let y1 = ys().fold(0.0f64, f64::max) * 1.25;
            let chart = builder
                .build_cartesian_2d((x0..x1).log_scale(), 0.0..y1.max(1.0))
                .map_err(|e| e.to_string())?;
            draw_lines(
                chart,
                x_label,
                y_label,
                series,
                SeriesLabelPosition::UpperRight,
            )?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Grouped horizontal bars on a logarithmic time axis: one group per mesh (names read
/// horizontally on the left), one bar per method.
fn bar_plot(
    title: &str,
    x_label: &str,
    groups: &[String],
    methods: &[String],
    values: &[Vec<Option<f64>>],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let height = (120 + groups.len() * (10 * methods.len() + 14)).max(360) as u32;
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (x0, x1) = log_range(values.iter().flatten().flatten().copied());
        // Room on the right for the legend.
        let x1 = x1 * 8.0;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(230)
            .build_cartesian_2d((x0..x1).log_scale(), 0.0..groups.len() as f64)
            .map_err(|e| e.to_string())?;
        let names: Vec<String> = groups.to_vec();
        let count = groups.len();
        // Group g sits between y = count-1-g and count-g (first group on top).
        let label_of = move |v: &f64| {
            let i = v.floor();
            if (v - i - 0.5).abs() < 1e-6 && i >= 0.0 && (i as usize) < count {
                names
                    .get(count - 1 - i as usize)
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(2 * count + 1)
            .y_label_formatter(&label_of)
            .x_desc(x_label)
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|v| format_number(*v))
            .draw()
            .map_err(|e| e.to_string())?;
        let thickness = 0.8 / methods.len().max(1) as f64;
        for (m, name) in methods.iter().enumerate() {
            let c = color(m);
            let bars: Vec<Rectangle<(f64, f64)>> = values
                .iter()
                .enumerate()
                .filter_map(|(g, vals)| {
                    let v = vals.get(m).copied().flatten()?;
                    let top = (count - g) as f64 - 0.1 - m as f64 * thickness;
                    Some(Rectangle::new(
                        [(x0, top - thickness * 0.9), (v, top)],
                        c.filled(),
                    ))
                })
                .collect();
            chart
                .draw_series(bars)
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], c.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 13))
            .border_style(BLACK)
            .background_style(WHITE.mix(0.85))
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// `64`, `10K`, `1M`: hull sizes on an axis (decimal prefixes, as the ticks are decades).
fn format_count(v: f64) -> String {
    let short = |x: f64| {
        if (x - x.round()).abs() < 0.05 {
            format!("{x:.0}")
        } else {
            format!("{x:.1}")
        }
    };
    if v >= 1e6 * 0.999 {
        format!("{}M", short(v / 1e6))
    } else if v >= 1e3 * 0.999 {
        format!("{}K", short(v / 1e3))
    } else {
        format!("{v:.0}")
    }
}

/// A tick value with as many digits as it needs.
fn format_number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else if a >= 0.01 {
        format!("{v:.2}")
    } else {
        format!("{v:.0e}")
    }
}

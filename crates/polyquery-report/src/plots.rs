//! The report's plots as SVG strings (`one plot = one .svg file`; plotters, SVG backend only: text is written as
//! `<text>` elements, so no font library is needed): log–log time against hull size per
//! query family, speed-ups against plain GJK and against the peer, bars per real mesh,
//! bytes per vertex and preprocessing time against n.
//!
//! Where it sits: [`crate::writers`] calls [`render_all`] with the finished report and
//! writes each SVG to a file and inline into `index.html`.

use crate::colors::method_color;
use crate::config::{Report, ReportError};
use crate::format::group;
use crate::results::{
    Family, Method, ResultRow, SPEEDUPS_VS_PEER, SPEEDUPS_VS_PLAIN_GJK, sphere_mean_ns,
};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use polyquery::kinds::QueryKind;

/// One rendered plot: `svg` = its text, written to `out/file`.
#[derive(Clone, Debug)]
pub struct Plot {
    /// `file` = the file name (`….svg`).
    pub file: String,
    /// `title` = the title, also the caption in HTML and Markdown.
    pub title: String,
    /// `section` = which section of the report it belongs to.
    pub section: &'static str,
    /// `svg` = the SVG document's text.
    pub svg: String,
    /// `colors[i]` = a method drawn in it and its colour (each method once), from
    /// [`crate::colors::method_color`].
    pub colors: Vec<(Method, RGBColor)>,
}

impl Plot {
    /// A drawn plot, or why it could not be drawn (naming its file):
    /// `Plot::drawn(file, title, section, Ok(svg))?.svg = svg`.
    fn drawn(
        file: impl Into<String>,
        title: impl Into<String>,
        section: &'static str,
        methods: impl IntoIterator<Item = Method>,
        svg: Result<String, String>,
    ) -> Result<Plot, ReportError> {
        let file = file.into();
        let mut colors: Vec<(Method, RGBColor)> = Vec::new();
        for m in methods {
            if !colors.iter().any(|(x, _)| *x == m) {
                colors.push((m, method_color(m)));
            }
        }
        match svg {
            Ok(svg) => Ok(Plot {
                file,
                title: title.into(),
                section,
                svg,
                colors,
            }),
            Err(reason) => Err(ReportError::Plot { name: file, reason }),
        }
    }
}

/// How a series is drawn: its colour comes from its method ([`method_color`]), the marker
/// tells query families apart where one plot holds several (the speed-up plots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
    Diamond,
}

/// A named line: the method it shows (its colour), its marker, and `(x, y)` points, both positive.
#[derive(Clone, Debug)]
struct Series {
    name: String,
    method: Method,
    color: RGBColor,
    marker: Marker,
    points: Vec<(f64, f64)>,
}

impl Series {
    fn new(name: String, method: Method, marker: Marker) -> Series {
        Series {
            name,
            method,
            color: method_color(method),
            marker,
            points: Vec::new(),
        }
    }
}

/// The methods of the series that have points.
fn drawn(series: &[Series]) -> Vec<Method> {
    series
        .iter()
        .filter(|s| !s.points.is_empty())
        .map(|s| s.method)
        .collect()
}

/// What an axis shows, for its tick labels: every logarithmic axis has its ticks at the
/// powers of ten and labels them in one format per quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    /// Hull vertices: `10`, `100`, `1K`, `10K`, `100K`, `1M`.
    Count,
    /// Nanoseconds, labelled `10 ns`, `1 µs`, `100 ms`, `1 s`.
    Time,
    /// A speed-up: `0.1×`, `1×`, `10×`, `1,000×`.
    Ratio,
    /// Bytes (a linear axis).
    Bytes,
}

impl Quantity {
    fn label(self, v: f64) -> String {
        match self {
            Quantity::Count => format_count(v),
            Quantity::Time => format_decade_time(v),
            Quantity::Ratio => {
                if v >= 1.0 {
                    format!("{}×", group(v.round() as usize))
                } else {
                    format!("{}×", format_fraction(v))
                }
            }
            Quantity::Bytes => format!("{v:.0}"),
        }
    }
}

/// The marker of a query family in the speed-up plots.
fn family_marker(family: Family) -> Marker {
    match family {
        Family::Support | Family::Preprocess => Marker::Circle,
        Family::Query(QueryKind::Intersects | QueryKind::Raycast) => Marker::Circle,
        Family::Query(QueryKind::DirectionalPenetration) => Marker::Triangle,
        Family::Query(QueryKind::Distance) => Marker::Square,
        Family::Query(QueryKind::TimeOfImpact) => Marker::Diamond,
        Family::Query(QueryKind::PenetrationDepth) => Marker::Cross,
    }
}

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 480;
/// Width of the legend column right of the plot area (legends never cover data).
const LEGEND_WIDTH: u32 = 300;

/// Every plot the report's rows allow (families without data are left out): `render_all(report)?.len() ≤` plots of all families.
pub fn render_all(report: &Report) -> Result<Vec<Plot>, ReportError> {
    let rows = &report.rows;
    let mut plots = Vec::new();
    for shape in ["sphere", "ellipsoid"] {
        for family in Family::QUERIES {
            let series = method_series(rows, shape, family);
            if series.iter().all(|s| s.points.len() < 2) {
                continue;
            }
            let title = format!("{} on {shape} hulls: time per query", family.name());
            let file = format!("time_{}_{shape}.svg", family.slug());
            let svg = line_plot(
                &title,
                ("hull vertices per body (n)", Quantity::Count),
                ("mean time per query", Quantity::Time),
                &series,
            );
            plots.push(Plot::drawn(file, title, "scaling", drawn(&series), svg)?);
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
        if series.iter().all(|s| s.points.len() < 2) {
            continue;
        }
        let svg = line_plot(
            title,
            ("hull vertices per body (n)", Quantity::Count),
            ("speed-up (their time / ours)", Quantity::Ratio),
            &series,
        );
        plots.push(Plot::drawn(file, title, "speed-up", drawn(&series), svg)?);
    }
    for family in Family::QUERIES {
        let (meshes, methods, values) = mesh_bars(rows, family);
        if meshes.is_empty() || methods.is_empty() {
            continue;
        }
        let title = format!("{} on the real meshes: time per query", family.name());
        let file = format!("meshes_{}.svg", family.slug());
        let svg = bar_plot(&title, "mean time per query", &meshes, &methods, &values);
        plots.push(Plot::drawn(file, title, "meshes", methods, svg)?);
    }
    // The two preprocessing plots: (memory?, value, title, file, y axis).
    type Value = fn(&ResultRow) -> Option<f64>;
    type Axis = (&'static str, Quantity);
    let preprocessing: [(bool, Value, &str, &str, Axis); 2] = [
        (
            true,
            |r| r.bytes_per_vertex,
            "Memory per hull vertex against n",
            "bytes_per_vertex.svg",
            ("bytes per hull vertex", Quantity::Bytes),
        ),
        (
            false,
            |r| r.timing.median_ns,
            "Preprocessing time against n",
            "preprocess_time.svg",
            ("build time", Quantity::Time),
        ),
    ];
    for (memory, value, title, file, y_axis) in preprocessing {
        let series = preprocess_series(rows, memory, value);
        if series.iter().all(|s| s.points.len() < 2) {
            continue;
        }
        let svg = line_plot(
            title,
            ("hull vertices (n)", Quantity::Count),
            y_axis,
            &series,
        );
        plots.push(Plot::drawn(
            file,
            title,
            "preprocessing",
            drawn(&series),
            svg,
        )?);
    }
    Ok(plots)
}

/// Per method of `family` on synthetic `shape`: (n, mean ns).
fn method_series(rows: &[ResultRow], shape: &str, family: Family) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.kind == "synthetic" && r.source == shape && r.query == family)
    {
        let Some(ns) = r.timing.median_ns.filter(|v| v.is_finite() && *v > 0.0) else {
            continue;
        };
        let point = (r.vertices as f64, ns);
        match out.iter_mut().find(|s| s.name == r.method.name()) {
            Some(s) => s.points.push(point),
            None => {
                let name = r.method.name().to_string();
                let mut s = Series::new(name, r.method, Marker::Circle);
                s.points.push(point);
                out.push(s);
            }
        }
    }
    out
}

/// Per preprocessing method and synthetic shape: (n, value). Colour: the method; marker:
/// circle for the sphere, triangle for the ellipsoid.
fn preprocess_series(
    rows: &[ResultRow],
    bytes: bool,
    value: impl Fn(&ResultRow) -> Option<f64>,
) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.kind == "synthetic" && r.query == Family::Preprocess)
    {
        let Some(v) = value(r).filter(|v| v.is_finite() && *v > 0.0) else {
            continue;
        };
        // Bytes: our hull's are the half-edge polytope's, the map's its search structure.
        let (what, method) = if bytes && r.method == Method::Hull {
            ("half-edge polytope", Method::Hull)
        } else if bytes {
            ("NVM search structure", Method::NvmBuild)
        } else {
            (r.method.name(), r.method)
        };
        let name = format!("{what}, {}", r.source);
        let marker = if r.source == "sphere" {
            Marker::Circle
        } else {
            Marker::Triangle
        };
        match out.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push((r.vertices as f64, v)),
            None => {
                let mut s = Series::new(name, method, marker);
                s.points.push((r.vertices as f64, v));
                out.push(s);
            }
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

/// Speed-up lines on sphere hulls: baseline mean / our mean per n. Colour: our method;
/// marker: the query family.
fn speedup_series(rows: &[ResultRow], baseline: Baseline) -> Vec<Series> {
    let pairs = match baseline {
        Baseline::PlainGjk => SPEEDUPS_VS_PLAIN_GJK,
        Baseline::Peer => SPEEDUPS_VS_PEER,
    };
    let time = |family: Family, method: Method, n: usize| sphere_mean_ns(rows, family, method, n);
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
            let label = match baseline {
                Baseline::PlainGjk => format!("{}: {ours} vs {base}", family.name()),
                Baseline::Peer => format!("{}: {ours} vs parry3d", family.name()),
            };
            let mut s = Series::new(label, ours, family_marker(family));
            s.points = sizes
                .iter()
                .filter_map(|&n| Some((n as f64, time(family, base, n)? / time(family, ours, n)?)))
                .collect();
            s
        })
        .collect()
}

/// Meshes (names), methods and their mean ns (`None` = failed / missing) for `family`.
fn mesh_bars(
    rows: &[ResultRow],
    family: Family,
) -> (Vec<String>, Vec<Method>, Vec<Vec<Option<f64>>>) {
    let mine: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.kind == "mesh" && r.query == family)
        .collect();
    let label = |r: &ResultRow| format!("{} ({})", r.source.trim_end_matches(".obj"), r.vertices);
    let mut meshes: Vec<String> = Vec::new();
    let mut methods: Vec<Method> = Vec::new();
    for r in &mine {
        let l = label(r);
        if !meshes.contains(&l) {
            meshes.push(l);
        }
        if !methods.contains(&r.method) {
            methods.push(r.method);
        }
    }
    let values = meshes
        .iter()
        .map(|m| {
            methods
                .iter()
                .map(|method| {
                    mine.iter()
                        .find(|r| label(r) == *m && r.method == *method)
                        .and_then(|r| r.timing.median_ns)
                        .filter(|v| v.is_finite() && *v > 0.0)
                })
                .collect()
        })
        .collect();
    (meshes, methods, values)
}

/// A logarithmic axis from the power of ten at or below the smallest value to the one at or
/// above the largest (at least one decade), and its ticks: every power of ten in it.
fn decades(values: impl Iterator<Item = f64>) -> (f64, f64, Vec<f64>) {
    decades_below(values, 1.0)
}

/// How far below its smallest value a bar plot's axis starts, at least: a factor of
/// `BAR_MARGIN = 3` (half a decade), so that every bar, the shortest too, is visible.
const BAR_MARGIN: f64 = 3.0;

/// [`decades`] with the axis starting at the power of ten at or below `smallest / margin`:
/// `decades_below([1010.0], 3.0).0 = 100` (a 1.01 µs bar spans a decade, not 1 %).
fn decades_below(values: impl Iterator<Item = f64>, margin: f64) -> (f64, f64, Vec<f64>) {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v / margin), hi.max(v))
        });
    let (a, b) = if lo.is_finite() && hi > 0.0 {
        // A hair of slack so that a value on a power of ten is not pushed a decade out.
        let a = (lo.log10() + 1e-9).floor() as i32;
        let b = (hi.log10() - 1e-9).ceil() as i32;
        (a, b.max(a + 1))
    } else {
        (-1, 1)
    };
    let ticks = (a..=b).map(|k| 10f64.powi(k)).collect();
    (10f64.powi(a), 10f64.powi(b), ticks)
}

/// The 2…9 multiples of every decade in `[lo, hi]`: the light grid lines.
fn minor_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut decade = lo;
    while decade < hi {
        out.extend((2..10).map(|m| decade * f64::from(m)));
        decade *= 10.0;
    }
    out
}

/// `marker` in `color` around the pixel `(0, 0)`, to be placed with `EmptyElement::at(p) + …`
/// (on the plot's points and in the legend alike): radius 4 px (5 for the triangle and the
/// diamond).
fn marker_shape<DB: DrawingBackend>(
    marker: Marker,
    color: RGBColor,
) -> DynElement<'static, DB, (i32, i32)> {
    let style = color.filled();
    match marker {
        Marker::Circle => Circle::new((0, 0), 4, style).into_dyn(),
        Marker::Triangle => TriangleMarker::new((0, 0), 5, style).into_dyn(),
        Marker::Square => Rectangle::new([(-4, -4), (4, 4)], style).into_dyn(),
        Marker::Cross => Cross::new((0, 0), 4, color.stroke_width(2)).into_dyn(),
        Marker::Diamond => Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], style).into_dyn(),
    }
}

/// The legend, in its own column right of the plot: one line per series (colour, marker,
/// name), long names wrapped.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[(String, RGBColor, Option<Marker>)],
    top: i32,
) -> Result<(), String> {
    let font = ("sans-serif", 13).into_font().color(&BLACK);
    let mut y = top;
    for (name, color, marker) in series {
        match marker {
            Some(m) => {
                area.draw(&PathElement::new(
                    vec![(8, y), (36, y)],
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?;
                area.draw(&(EmptyElement::at((22, y)) + marker_shape(*m, *color)))
                    .map_err(|e| e.to_string())?
            }
            None => area
                .draw(&Rectangle::new([(15, y - 5), (29, y + 5)], color.filled()))
                .map_err(|e| e.to_string())?,
        }
        for (i, line) in wrap(name, 34).iter().enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (44, y - 7 + 16 * i as i32),
                font.clone(),
            ))
            .map_err(|e| e.to_string())?;
            if i > 0 {
                y += 16;
            }
        }
        y += 22;
    }
    Ok(())
}

/// Splits `text` into lines of at most about `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// A drawing area of the SVG backend.
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A white canvas `WIDTH × height` px drawing into `svg`, with `title` on top: (the titled
/// area, to present; the plot area; the legend column, `LEGEND_WIDTH` px on the right).
fn canvas<'a>(
    svg: &'a mut String,
    height: u32,
    title: &str,
) -> Result<(Area<'a>, Area<'a>, Area<'a>), String> {
    let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| e.to_string())?;
    let (plot_area, legend_area) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
    Ok((root, plot_area, legend_area))
}

/// A line plot with a logarithmic x axis (and a logarithmic y axis unless `y` is bytes), one
/// line per series, the legend in a column of its own right of the plot.
fn line_plot(
    title: &str,
    x: (&str, Quantity),
    y: (&str, Quantity),
    series: &[Series],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let (root, plot_area, legend_area) = canvas(&mut svg, HEIGHT, title)?;
        let (x0, x1, x_ticks) = decades(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let ys = || series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        let mut builder = ChartBuilder::on(&plot_area);
        builder
            .margin(10)
            .x_label_area_size(48)
            .y_label_area_size(84);
        let x_range = (x0..x1)
            .log_scale()
            .with_key_points(x_ticks)
            .with_light_points(minor_ticks(x0, x1));
        if y.1 == Quantity::Bytes {
            let y1 = ys().fold(0.0f64, f64::max) * 1.15;
            let mut chart = builder
                .build_cartesian_2d(x_range, 0.0..y1.max(1.0))
                .map_err(|e| e.to_string())?;
            draw_series(&mut chart, x, y, series)?;
        } else {
            let (y0, y1, y_ticks) = decades(ys());
            let y_range = (y0..y1)
                .log_scale()
                .with_key_points(y_ticks)
                .with_light_points(minor_ticks(y0, y1));
            let mut chart = builder
                .build_cartesian_2d(x_range, y_range)
                .map_err(|e| e.to_string())?;
            draw_series(&mut chart, x, y, series)?;
        }
        let entries: Vec<(String, RGBColor, Option<Marker>)> = series
            .iter()
            .filter(|s| !s.points.is_empty())
            .map(|s| (s.name.clone(), s.color, Some(s.marker)))
            .collect();
        draw_legend(&legend_area, &entries, 24)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The axes (described `x.0` and `y.0`, ticks labelled by their quantities) and each series
/// as a line with its markers.
fn draw_series<'a, 'b: 'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    x: (&str, Quantity),
    y: (&str, Quantity),
    series: &[Series],
) -> Result<(), String>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let x_label = |v: &f64| x.1.label(*v);
    let y_label = |v: &f64| y.1.label(*v);
    chart
        .configure_mesh()
        .x_desc(x.0)
        .y_desc(y.0)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 13))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(205, 205, 205))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .draw()
        .map_err(|e| e.to_string())?;
    for s in series {
        let c = s.color;
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                s.points
                    .iter()
                    .map(|&p| EmptyElement::at(p) + marker_shape(s.marker, c)),
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Grouped horizontal bars on a logarithmic time axis: one group per mesh (names read
/// horizontally on the left), one bar per method in its fixed colour, the legend in a column
/// of its own right of the plot.
fn bar_plot(
    title: &str,
    x_label: &str,
    groups: &[String],
    methods: &[Method],
    values: &[Vec<Option<f64>>],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let height = (110 + groups.len() * (10 * methods.len() + 14)).max(320) as u32;
        let (root, plot_area, legend_area) = canvas(&mut svg, height, title)?;
        let (x0, x1, ticks) = decades_below(values.iter().flatten().flatten().copied(), BAR_MARGIN);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(10)
            .x_label_area_size(48)
            .y_label_area_size(230)
            .build_cartesian_2d(
                (x0..x1)
                    .log_scale()
                    .with_key_points(ticks)
                    .with_light_points(minor_ticks(x0, x1)),
                0.0..groups.len() as f64,
            )
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
            .axis_desc_style(("sans-serif", 15))
            .label_style(("sans-serif", 13))
            .light_line_style(RGBColor(240, 240, 240))
            .bold_line_style(RGBColor(205, 205, 205))
            .x_label_formatter(&|v| Quantity::Time.label(*v))
            .draw()
            .map_err(|e| e.to_string())?;
        let thickness = 0.8 / methods.len().max(1) as f64;
        for (m, name) in methods.iter().enumerate() {
            let c = method_color(*name);
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
            chart.draw_series(bars).map_err(|e| e.to_string())?;
        }
        let entries: Vec<(String, RGBColor, Option<Marker>)> = methods
            .iter()
            .map(|m| (m.name().to_string(), method_color(*m), None))
            .collect();
        draw_legend(&legend_area, &entries, 24)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// `10`, `100`, `1K`, `10K`, `100K`, `1M`: hull sizes on an axis (decimal prefixes, as the
/// ticks are decades).
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

/// A power of ten of nanoseconds: `1 ns`, `10 ns`, `100 ns`, `1 µs`, … `100 ms`, `1 s`, `10 s`.
fn format_decade_time(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 * 0.999 {
        (ns, "ns")
    } else if ns < 1e6 * 0.999 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 * 0.999 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    if v >= 0.999 {
        format!("{v:.0} {unit}")
    } else {
        format!("{} {unit}", format_fraction(v))
    }
}

/// `0.1`, `0.01`, `0.001`.
fn format_fraction(v: f64) -> String {
    let digits = (-v.log10()).round().max(0.0) as usize;
    format!("{v:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_span_whole_decades() {
        let (lo, hi, ticks) = decades([64.0, 1_048_576.0].into_iter());
        assert_eq!((lo, hi), (10.0, 1e7));
        assert_eq!(ticks.len(), 7);
        let (lo, hi, _) = decades([100.0, 100.0].into_iter());
        assert_eq!((lo, hi), (100.0, 1000.0));
        assert_eq!(format_decade_time(1e3), "1 µs");
        assert_eq!(format_decade_time(1e2), "100 ns");
        assert_eq!(format_decade_time(1e7), "10 ms");
        assert_eq!(format_decade_time(0.1), "0.1 ns");
        assert_eq!(Quantity::Ratio.label(1000.0), "1,000×");
        assert_eq!(Quantity::Ratio.label(0.1), "0.1×");
        assert_eq!(format_count(1e6), "1M");
        assert_eq!(format_count(1e4), "10K");
    }

    /// A bar axis starts at least half a decade below its smallest value: parry3d's 1.01 µs
    /// on the finger gets a bar from 100 ns, and values below 1 µs keep theirs.
    #[test]
    fn bar_axes_start_below_the_smallest_bar() {
        let (lo, hi, ticks) = decades_below([1010.0, 2170.0].into_iter(), BAR_MARGIN);
        assert_eq!((lo, hi), (100.0, 1e4));
        assert_eq!(ticks, vec![100.0, 1e3, 1e4]);
        let (lo, _, _) = decades_below([519.0, 5e4].into_iter(), BAR_MARGIN);
        assert_eq!(lo, 100.0);
        let (lo, _, _) = decades_below([290.0].into_iter(), BAR_MARGIN);
        assert_eq!(lo, 10.0);
    }

    #[test]
    fn every_method_keeps_its_colour() {
        assert_eq!(method_color(Method::NioNvm), method_color(Method::Nvm));
        assert_eq!(
            method_color(Method::GjkLinearScan),
            method_color(Method::LinearScan)
        );
        assert_eq!(
            method_color(Method::ParryContact),
            method_color(Method::ParryDistance)
        );
        // Within each family the methods differ.
        for family in Family::QUERIES {
            let names: Vec<Method> = crate::runner::methods_of(family);
            for (i, a) in names.iter().enumerate() {
                for b in &names[i + 1..] {
                    assert_ne!(method_color(*a), method_color(*b), "{a} / {b}");
                }
            }
        }
    }
}

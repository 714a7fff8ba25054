//! The view as HTML: the geometry once, the problems' obstacles and per-frame link poses as
//! JSON in a `<script type="application/json">` block, drawn by a small hand-written WebGL
//! viewer (`viewer.js`, inlined: no network, no library) with Lambert shading, orbit and zoom by
//! mouse, a play button, a frame slider and a problem picker.
//!
//! Where it sits: the last step of the view (`RobotGeometry + [ProblemView] ──page──▶ text`);
//! `polyquery robot plan --html F` writes [`page()`], the report embeds [`view_html`] after
//! [`VIEWER_SCRIPT`].

use super::mesh::Triangles;
use super::scene::{ProblemView, RobotGeometry};
use polyquery::Pose;
use std::fmt::Write;

/// The viewer: `<script>` text that draws every `.pq-view` element of its page (include it
/// once per page, after the views): `VIEWER_SCRIPT = <script> + viewer.js + </script>`.
pub const VIEWER_SCRIPT: &str = concat!("<script>\n", include_str!("viewer.js"), "</script>\n");

/// The page's style for the views (canvas scaled to the page's width):
/// `canvas width = min(100 %, 960 px)`.
pub const VIEW_CSS: &str = ".pq-view{max-width:100%;margin:.5em 0 1.5em}\n\
.pq-view canvas{display:block;width:100%;max-width:960px;aspect-ratio:16/10;background:#f7f7f5;border:1px solid #ccc;cursor:grab;touch-action:none}\n\
.pq-controls{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.3em 0;font-size:14px}\n\
.pq-controls input[type=range]{flex:1 1 200px;max-width:600px}\n.pq-caption{color:#555;font-size:14px}\n";

/// `x` with at most 4 decimals, trailing zeros dropped, never `-0`:
/// `number(0.12345) = "0.1235"`.
fn number(s: &mut String, x: f64) {
    let t = format!("{x:.4}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    s.push_str(if t == "-0" || t.is_empty() { "0" } else { t });
}

/// `[a,b,…]` of numbers.
fn numbers(s: &mut String, xs: impl IntoIterator<Item = f64>) {
    s.push('[');
    for (i, x) in xs.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        number(s, x);
    }
    s.push(']');
}

/// `{"p":[x,y,z,…],"t":[i,j,k,…]}`.
fn mesh(s: &mut String, m: &Triangles) {
    s.push_str("{\"p\":");
    numbers(s, m.points.iter().flat_map(|p| [p.x, p.y, p.z]));
    s.push_str(",\"t\":[");
    for (i, t) in m.triangles.iter().flatten().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{t}");
    }
    s.push_str("]}");
}

/// A pose as 7 numbers: the translation, then the unit quaternion `(x, y, z, w)` (its sign
/// chosen so that `w ≥ 0`).
fn pose_numbers(p: &Pose) -> [f64; 7] {
    let t = p.translation.vector;
    let q = p.rotation.coords;
    let s = if q.w < 0.0 { -1.0 } else { 1.0 };
    [t.x, t.y, t.z, s * q.x, s * q.y, s * q.z, s * q.w]
}

/// A JSON string that is safe inside `<script>`: `</` never appears.
fn json_string(s: &mut String, text: &str) {
    let quoted = serde_json::to_string(text).unwrap_or_else(|_| "\"?\"".into());
    s.push_str(&quoted.replace("</", "<\\/"));
}

/// The view's data as JSON: `{"links": [mesh…], "problems": [{"name", "caption",
/// "obstacles": mesh, "frames": [[x, y, z, qx, qy, qz, qw per link]…], "waypoints": […]}…]}`,
/// a mesh being `{"p": [x, y, z, …], "t": [i, j, k, …]}`; numbers to 4 decimals (0.1 mm).
///
/// ```
/// use polyquery_report::view::{RobotGeometry, view_json};
///
/// assert_eq!(view_json(&RobotGeometry::default(), &[]), r#"{"links":[],"problems":[]}"#);
/// ```
pub fn view_json(geometry: &RobotGeometry, problems: &[ProblemView]) -> String {
    let mut s = String::from("{\"links\":[");
    for (k, (_, m)) in geometry.links.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        mesh(&mut s, m);
    }
    s.push_str("],\"problems\":[");
    for (k, p) in problems.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"name\":");
        json_string(&mut s, &p.name);
        s.push_str(",\"caption\":");
        json_string(&mut s, &p.caption);
        s.push_str(",\"obstacles\":");
        mesh(&mut s, &p.obstacles);
        s.push_str(",\"frames\":[");
        for (f, frame) in p.frames.iter().enumerate() {
            if f > 0 {
                s.push(',');
            }
            numbers(&mut s, frame.iter().flat_map(pose_numbers));
        }
        s.push_str("],\"waypoints\":");
        numbers(&mut s, p.waypoints.iter().map(|&w| w as f64));
        s.push('}');
    }
    s.push_str("]}");
    s
}

/// One view's HTML (canvas, controls, data; the picker lists the problems when there are
/// several): `view_html(id, …)` holds `id="pq-view-{id}"`. The page needs [`VIEWER_SCRIPT`]
/// after it and [`VIEW_CSS`] in its style.
///
/// ```
/// use polyquery_report::view::{RobotGeometry, view_html};
///
/// assert!(view_html("a", &RobotGeometry::default(), &[]).contains("id=\"pq-view-a\""));
/// ```
pub fn view_html(id: &str, geometry: &RobotGeometry, problems: &[ProblemView]) -> String {
    let picker = if problems.len() > 1 {
        "<select class=\"pq-picker\" aria-label=\"problem\"></select>"
    } else {
        ""
    };
    format!(
        "<div class=\"pq-view\" id=\"pq-view-{id}\" data-status=\"loading\">\n\
         <canvas width=\"960\" height=\"600\"></canvas>\n\
         <div class=\"pq-controls\">{picker}<button type=\"button\" class=\"pq-play\">Play</button>\
         <input type=\"range\" class=\"pq-slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"frame\">\
         <span class=\"pq-frame\"></span></div>\n<div class=\"pq-caption\"></div>\n\
         <script type=\"application/json\" class=\"pq-data\">{}</script>\n</div>\n",
        view_json(geometry, problems)
    )
}

/// A self-contained page (no network) showing `problems` with one picker:
/// `page(title, g, ps)` = an HTML document holding [`view_html`]`("plan", g, ps)` and the viewer.
///
/// ```
/// use polyquery_report::view::{RobotGeometry, page};
///
/// let html = page("a plan", &RobotGeometry::default(), &[]);
/// assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<script>"));
/// assert!(!html.contains("http://") && !html.contains("https://"));
/// ```
pub fn page(title: &str, geometry: &RobotGeometry, problems: &[ProblemView]) -> String {
    let title = crate::format::escape_html(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n\
         <style>\nbody{{font-family:system-ui,sans-serif;margin:1em auto;max-width:1000px;padding:0 1em;color:#222}}\n{VIEW_CSS}</style>\n\
         </head>\n<body>\n<h1>{title}</h1>\n<p class=\"pq-caption\">Drag to orbit, wheel to zoom; \
         the robot's collision shapes (decomposed meshes as their convex pieces) and the scene's obstacles.</p>\n{}{VIEWER_SCRIPT}</body>\n</html>\n",
        view_html("plan", geometry, problems)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyquery::Point;

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        let mut s = String::new();
        numbers(&mut s, [0.123456, -0.00001, 2.0, -1.5, 1e-9]);
        assert_eq!(s, "[0.1235,0,2,-1.5,0]");
    }

    #[test]
    fn the_json_holds_meshes_frames_and_safe_names() {
        let geometry = RobotGeometry {
            links: vec![(
                1,
                Triangles {
                    points: vec![
                        Point::origin(),
                        Point::new(1.0, 0.0, 0.0),
                        Point::new(0.0, 1.0, 0.0),
                    ],
                    triangles: vec![[0, 1, 2]],
                },
            )],
        };
        let p = ProblemView {
            name: "a</script>b".into(),
            caption: "c".into(),
            obstacles: Triangles::default(),
            frames: vec![vec![Pose::translation(1.0, 2.0, 3.0)]],
            waypoints: vec![0],
        };
        let json = view_json(&geometry, &[p]);
        assert!(!json.contains("</"));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["links"][0]["t"], serde_json::json!([0, 1, 2]));
        assert_eq!(v["problems"][0]["name"], "a</script>b");
        assert_eq!(
            v["problems"][0]["frames"][0],
            serde_json::json!([1, 2, 3, 0, 0, 0, 1])
        );
    }
}

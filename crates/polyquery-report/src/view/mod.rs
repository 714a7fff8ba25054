//! The plan view: a robot's collision shapes, its scene and a path, drawn in a web page
//! (plain WebGL, inlined; the page needs no network and no kinematics).
//!
//! ```text
//! Checker ──robot_geometry──▶ RobotGeometry (each link's triangles, once)
//! Checker + path ──problem_view (frames_along, forward kinematics)──▶ ProblemView
//! RobotGeometry + [ProblemView] ──page / view_html──▶ HTML
//! ```
//!
//! Where it sits: on the library's public robot types only; `polyquery robot plan --html F`
//! writes [`page()`], the report's planning section embeds [`view_html`].
//!
//! * [`mesh`](mod@mesh): shapes as triangles ([`triangles`], [`collision_triangles`]).
//! * [`scene`]: the links, the obstacles, the frames along a path.
//! * [`page`](mod@page): JSON and HTML, the viewer script.

/// Shapes as triangles: `triangles(shape, pose).points[i] = pose · (a surface point)`.
pub mod mesh;
/// JSON and HTML: `page(title, g, ps)` = a whole document, `view_html` one view.
pub mod page;
/// Links, obstacles and frames: `problem_view(…)?.frames[f][k]` = `world ← link k` at frame `f`.
pub mod scene;

pub use mesh::{Triangles, collision_triangles, triangles};
pub use page::{VIEW_CSS, VIEWER_SCRIPT, page, view_html, view_json};
pub use scene::{
    FRAME_STEP, FRAMES_PER_EDGE, MAX_FRAMES, ProblemView, RobotGeometry, frames_along, plan_view,
    problem_view, robot_geometry,
};

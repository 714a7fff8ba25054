//! The collision checker: a robot, a scene and an allowed-collision matrix, built once and
//! shared across threads, answering "does configuration `q` collide?", "how far is it from
//! colliding?" and "is the straight motion from `q0` to `q1` free?".
//!
//! Where it sits: the last stage of a robot check, after the robot model, the scene and the
//! shapes,
//!
//! ```text
//! q ──FK──▶ link poses ──broad phase──▶ candidate pairs ──narrow phase (GJK on cores)──▶ verdict / distance
//! ```
//!
//! * **Broad phase**: each link's shapes are enclosed in one bounding sphere (link frame),
//!   each shape in its own sphere, each obstacle in a world box. A link pair whose spheres are
//!   apart, or a link whose sphere misses an obstacle's box, is skipped before any shape is
//!   placed; the same test then runs per shape pair. The boolean check also skips a shape
//!   pair (or a piece pair) whose bounding boxes, each in its shape's frame, are apart as
//!   oriented boxes (`LocalBox::apart`) — tighter than balls around long links.
//! * **Narrow phase**: GJK on the shapes' cores ([`ConvexShape::core`], margins added back),
//!   the hulls answering through their normal vector maps. Each shape pair keeps its last
//!   separating axis in the [`CheckWorkspace`] and starts the next configuration from it
//!   (nearby configurations, the planner's common case, separate again after one or two
//!   support queries).
//! * [`Checker::check`] exits at the first colliding pair, scene pairs first (they collide
//!   more often); [`Checker::distance`] visits pairs in increasing order of their bounding
//!   lower bounds and stops when the next bound is no better than the best distance found,
//!   every GJK run cut short once it is certified farther than that.
//! * [`Checker::check_motion`] certifies a straight joint-space segment by conservative
//!   advancement (see the `motion` module); the `_many` forms run many queries in parallel,
//!   with results independent of the number of threads ([`Checker::map_many`]).
//!
//! Verdicts are GJK's exact answers on the shapes (touching counts as colliding); the broad
//! phase only skips pairs whose bounding volumes are certainly apart.
//!
//! The modules, leaves first (none imports one that imports it back): `results` (what the
//! queries answer, the options), `geometry` (frames, placed shapes, bounding volumes),
//! `bounds` (the terms of motion bounds), `workspace` (a thread's scratch space), `core`
//! (the checker: construction, placement), `pairs` (the one loop over active pairs and their
//! shape pairs), `adjust` (link padding, moving obstacles, link poses), then the queries on
//! it: `check` (configurations), `motion` (segments) and `batch` (many in parallel).
//!
//! [`ConvexShape::core`]: crate::robot::ConvexShape::core

mod adjust;
mod batch;
mod bounds;
mod check;
mod core;
mod geometry;
mod motion;
mod pairs;
mod results;
mod workspace;

pub use self::core::Checker;
pub(crate) use self::core::CheckerParts;
pub use adjust::LinkPadding;
pub use motion::{DEFAULT_MOTION_RESOLUTION, MotionOptions, MotionResult};
pub use results::{Body, CheckCounts, CheckResult, CheckerOptions, DistanceResult};
pub use workspace::CheckWorkspace;

//! parry3d as a robot collision checker (`peer.check(q) = checker.check(q)` away from contact), for the report's robot section: the same robot,
//! scene, active pairs and configurations as a [`Checker`], with every shape handed to parry
//! (hulls as `ConvexPolyhedron`, boxes, balls, capsules, cylinders as parry's own) and parry's
//! `Bvh` over the obstacles.
//!
//! Where it sits: the report times [`PeerRobotChecker::check`] and
//! [`PeerRobotChecker::distance`] side by side with [`Checker::check_with`] and
//! [`Checker::distance_with`] on identical configurations, and compares their answers.
//! Forward kinematics is polyquery's in both (parry has none), so the difference measured is
//! the collision part: broad phase and narrow phase.
//!
//! Broad phase on parry's side, in its idiom: each link's world box (the union of its shapes'
//! `compute_aabb`), obstacles found through the `Bvh` with that box, link pairs whose boxes
//! overlap; then `intersection_test` per shape pair, early exit at the first collision. The
//! distance query visits the shape pairs whose box distance is below the best distance so
//! far and asks `query::distance` for each.

#[cfg(feature = "peers")]
use polyquery::Pose;
#[cfg(feature = "peers")]
use polyquery::robot::{Checker, LinkPoses};

/// Why the peer checker could not be built or answer: `PeerError(message)`.
///
/// ```
/// use polyquery_report::robot_peer::PeerError;
///
/// assert_eq!(PeerError("no".into()).to_string(), "no");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PeerError(pub String);

#[cfg(feature = "peers")]
pub use parry_robot::PeerRobotChecker;

#[cfg(feature = "peers")]
mod parry_robot {
    use super::*;
    use crate::peers::{self, pose, vector};
    use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
    use parry3d_f64::math::{Pose as PPose, Vector as PVector};
    use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy};
    use parry3d_f64::query;
    use parry3d_f64::shape::{Ball, Capsule, Cone, Cuboid, Cylinder, Shape, SharedShape};
    use polyquery::robot::ConvexShape;

    /// One shape of a link: parry's shape and its origin in the link frame (parry's cylinder
    /// stands along y, ours along z: the origin then includes the quarter turn about x).
    struct PeerLinkShape {
        shape: SharedShape,
        origin: Pose,
    }

    /// The robot and scene handed to parry (see the module notes): `check(q) = checker.check(q)`
    /// on every configuration where both answer exactly.
    ///
    /// ```no_run
    /// # use polyquery::robot::*;
    /// # fn demo(checker: &Checker) -> Result<(), polyquery_report::robot_peer::PeerError> {
    /// use polyquery_report::robot_peer::PeerRobotChecker;
    /// let peer = PeerRobotChecker::new(checker)?;
    /// let mut poses = LinkPoses::new(checker.robot());
    /// let q = vec![0.0; checker.robot().dof()];
    /// let collides = peer.check(&mut poses, &q)?;
    /// # let _ = collides; Ok(()) }
    /// ```
    pub struct PeerRobotChecker {
        robot: polyquery::robot::Robot,
        base: Pose,
        links: Vec<Vec<PeerLinkShape>>,
        obstacles: Vec<(SharedShape, PPose, Aabb)>,
        bvh: Bvh,
        self_pairs: Vec<(usize, usize)>,
        /// `scene_active[link · obstacles + o]`: whether the pair is checked.
        scene_active: Vec<bool>,
    }

    /// parry's shape for ours, and the extra rotation (ours ← parry's) its frame needs.
    fn shape(s: &ConvexShape) -> Result<(SharedShape, Pose), PeerError> {
        let quarter = Pose::rotation(nalgebra::Vector3::x() * std::f64::consts::FRAC_PI_2);
        Ok(match s {
            ConvexShape::Hull(map) => {
                let poly = peers::shape_from_polytope(map.polytope())
                    .map_err(PeerError)?
                    .0;
                (SharedShape::new(poly), Pose::identity())
            }
            ConvexShape::Cuboid { half_extents } => (
                SharedShape::new(Cuboid::new(vector(half_extents))),
                Pose::identity(),
            ),
            ConvexShape::Sphere { radius } => {
                (SharedShape::new(Ball::new(*radius)), Pose::identity())
            }
            ConvexShape::Capsule {
                radius,
                half_length,
            } => (
                SharedShape::new(Capsule::new_z(*half_length, *radius)),
                Pose::identity(),
            ),
            // parry's cylinder stands along y; a quarter turn about x puts it along z.
            ConvexShape::Cylinder {
                radius,
                half_length,
            } => (
                SharedShape::new(Cylinder::new(*half_length, *radius)),
                quarter,
            ),
            // parry's cone stands along y with its apex at +y: the same quarter turn puts the
            // apex at +z, as ours.
            ConvexShape::Cone {
                radius,
                half_length,
            } => (SharedShape::new(Cone::new(*half_length, *radius)), quarter),
            _ => return Err(PeerError(format!("no parry shape for a {}", s.kind()))),
        })
    }

    impl PeerRobotChecker {
        /// Hands `checker`'s robot, shapes, obstacles and active pairs to parry:
        /// `new(checker)` checks exactly `checker.self_pairs() ∪ checker.scene_pairs()`.
        pub fn new(checker: &Checker) -> Result<PeerRobotChecker, PeerError> {
            let robot = checker.robot().clone();
            let mut links = Vec::with_capacity(robot.links().len());
            for l in 0..robot.links().len() {
                let mut shapes = Vec::new();
                for (s, origin) in checker.link_shapes(l) {
                    let (shape, turn) = shape(s)?;
                    shapes.push(PeerLinkShape {
                        shape,
                        origin: origin * turn,
                    });
                }
                links.push(shapes);
            }
            let mut obstacles = Vec::new();
            for k in 0..checker.obstacle_count() {
                let s = checker
                    .obstacle_shape(k)
                    .ok_or_else(|| PeerError(format!("obstacle {k} missing")))?;
                let (shape, turn) = shape(s)?;
                let p = pose(&(*checker.obstacle_pose(k).unwrap_or(&Pose::identity()) * turn));
                let aabb = shape.compute_aabb(&p);
                obstacles.push((shape, p, aabb));
            }
            let aabbs: Vec<Aabb> = obstacles.iter().map(|o| o.2).collect();
            let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &aabbs);
            let n = obstacles.len();
            let mut scene_active = vec![false; links.len() * n];
            for (l, o) in checker.scene_pairs() {
                scene_active[l * n + o] = true;
            }
            Ok(PeerRobotChecker {
                robot,
                base: checker.base_pose(),
                links,
                obstacles,
                bvh,
                self_pairs: checker.self_pairs(),
                scene_active,
            })
        }

        /// World poses of every shape of every link at `q` (`poses` is scratch space).
        fn place(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<Vec<Vec<PPose>>, PeerError> {
            self.robot
                .forward_kinematics(q, poses)
                .map_err(|e| PeerError(e.to_string()))?;
            Ok(self
                .links
                .iter()
                .zip(poses.as_slice())
                .map(|(shapes, link)| {
                    let world = self.base * link;
                    shapes.iter().map(|s| pose(&(world * s.origin))).collect()
                })
                .collect())
        }

        /// The union of a link's shapes' world boxes.
        fn link_box(&self, l: usize, placed: &[PPose]) -> Option<Aabb> {
            self.links[l]
                .iter()
                .zip(placed)
                .map(|(s, p)| s.shape.compute_aabb(p))
                .reduce(|a, b| a.merged(&b))
        }

        /// Whether some active pair intersects at `q`: `check(q) ⟺ ∃ active (A, B): A ∩ B ≠ ∅`.
        pub fn check(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, PeerError> {
            let placed = self.place(poses, q)?;
            let boxes: Vec<Option<Aabb>> = (0..self.links.len())
                .map(|l| self.link_box(l, &placed[l]))
                .collect();
            let n = self.obstacles.len();
            let fail = |e: query::Unsupported| PeerError(format!("parry: unsupported {e:?}"));
            for (l, b) in boxes.iter().enumerate() {
                let Some(b) = b else { continue };
                for o in self.bvh.intersect_aabb(b) {
                    let o = o as usize;
                    if !self.scene_active[l * n + o] {
                        continue;
                    }
                    let (shape, p, aabb) = &self.obstacles[o];
                    for (s, sp) in self.links[l].iter().zip(&placed[l]) {
                        if !s.shape.compute_aabb(sp).intersects(aabb) {
                            continue;
                        }
                        if query::intersection_test(sp, &*s.shape, p, &**shape)
                            .map_err(fail)?
                            .intersecting
                        {
                            return Ok(true);
                        }
                    }
                }
            }
            for &(a, b) in &self.self_pairs {
                let (Some(ba), Some(bb)) = (&boxes[a], &boxes[b]) else {
                    continue;
                };
                if !ba.intersects(bb) {
                    continue;
                }
                for (sa, pa) in self.links[a].iter().zip(&placed[a]) {
                    for (sb, pb) in self.links[b].iter().zip(&placed[b]) {
                        if query::intersection_test(pa, &*sa.shape, pb, &*sb.shape)
                            .map_err(fail)?
                            .intersecting
                        {
                            return Ok(true);
                        }
                    }
                }
            }
            Ok(false)
        }

        /// The minimum distance over the active pairs at `q` (0 when colliding):
        /// `distance(q) = min_{active (A, B)} dist(A, B)`.
        pub fn distance(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, PeerError> {
            let placed = self.place(poses, q)?;
            let fail = |e: query::Unsupported| PeerError(format!("parry: unsupported {e:?}"));
            let n = self.obstacles.len();
            let mut best = f64::INFINITY;
            let visit = |sa: &dyn Shape, pa: &PPose, sb: &dyn Shape, pb: &PPose, best: &mut f64| {
                let (ba, bb) = (sa.compute_aabb(pa), sb.compute_aabb(pb));
                if aabb_gap(&ba, &bb) >= *best {
                    return Ok(());
                }
                let d = query::distance(pa, sa, pb, sb).map_err(fail)?;
                *best = best.min(d.distance);
                Ok::<(), PeerError>(())
            };
            for (l, shapes) in self.links.iter().enumerate() {
                for (o, (shape, p, _)) in self.obstacles.iter().enumerate() {
                    if !self.scene_active[l * n + o] {
                        continue;
                    }
                    for (s, sp) in shapes.iter().zip(&placed[l]) {
                        visit(&*s.shape, sp, &**shape, p, &mut best)?;
                    }
                }
            }
            for &(a, b) in &self.self_pairs {
                for (sa, pa) in self.links[a].iter().zip(&placed[a]) {
                    for (sb, pb) in self.links[b].iter().zip(&placed[b]) {
                        visit(&*sa.shape, pa, &*sb.shape, pb, &mut best)?;
                    }
                }
            }
            Ok(best.max(0.0))
        }
    }

    /// The distance between two boxes (0 when they overlap): a lower bound on their contents'.
    fn aabb_gap(a: &Aabb, b: &Aabb) -> f64 {
        let gap = (a.mins - b.maxs).max(b.mins - a.maxs).max(PVector::ZERO);
        gap.length()
    }
}

//! What one source's queries are answered on (`cases = queries / 2` overlapping `+ queries / 2`
//! disjoint pose pairs): the preprocessed hull (`Prepared`), the pose pairs (`Case`) and
//! directions, drawn reproducibly per source, and one method's answer (`Answer`).
//!
//! Where it sits: a leaf of the runner; the methods answer on it, the sources draw it.

use crate::peers::PeerShape;
use nalgebra::{Translation3, UnitQuaternion};
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::{EpaSettings, PortalSettings};
use polyquery::{NormalVectorMap, Point, Pose, Posed, SupportMap, Vector};
use polyquery_synth::{random_direction, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One posed pair and the query inputs drawn for it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Case {
    pub(super) pose_a: Pose,
    pub(super) pose_b: Pose,
    /// Unit direction (support, directional penetration).
    pub(super) direction: Vector,
    /// B's velocity towards A (time of impact).
    pub(super) velocity: Vector,
    /// Bound on `|x|` over `D` (the peer's ray-cast reach).
    pub(super) reach: f64,
    pub(super) overlapping: bool,
}

/// One method's answer to one case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Answer {
    /// Intersecting / overlapping / hit.
    pub(super) hit: bool,
    /// Support value, distance, depth or time; 0 when `hit` is false.
    pub(super) value: f64,
    /// The depth's direction (EPA families only): unit, from A towards B.
    pub(super) normal: Option<Vector>,
    pub(super) support_calls: u32,
    pub(super) iterations: u32,
}

impl Answer {
    /// A yes/no answer.
    pub(super) fn verdict(hit: bool, support_calls: u32, iterations: u32) -> Answer {
        Answer {
            hit,
            value: 0.0,
            normal: None,
            support_calls,
            iterations,
        }
    }

    /// A value, `hit` when there is one.
    pub(super) fn value(value: Option<f64>, support_calls: u32, iterations: u32) -> Answer {
        Answer {
            hit: value.is_some(),
            value: value.unwrap_or(0.0),
            normal: None,
            support_calls,
            iterations,
        }
    }

    /// `d·s` of a support point `s` in direction `d`.
    pub(super) fn support(d: &Vector, s: &Point, support_calls: u32, iterations: u32) -> Answer {
        let value = d.dot(&s.coords);
        Answer::value(Some(value), support_calls, iterations)
    }

    /// A depth and its direction (EPA families): `hit` when there is one.
    pub(super) fn depth(
        depth: Option<(f64, Vector)>,
        support_calls: u32,
        iterations: u32,
    ) -> Answer {
        Answer {
            normal: depth.map(|(_, normal)| normal),
            ..Answer::value(depth.map(|(d, _)| d), support_calls, iterations)
        }
    }
}

/// The settings our queries run with (the defaults, built once per source).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct QuerySettings {
    pub(super) gjk: GjkSettings,
    pub(super) nio: PortalSettings,
    pub(super) toi: PortalSettings,
    pub(super) epa: EpaSettings,
}

/// The preprocessed forms of one source.
pub(super) struct Prepared {
    pub(super) nvm: NormalVectorMap,
    pub(super) peer: Result<PeerShape, String>,
    /// Centre of the bounding box (poses rotate about it).
    pub(super) centre: Vector,
    /// Half the bounding-box diagonal: every point is within it of `centre`.
    pub(super) radius: f64,
    pub(super) settings: QuerySettings,
}

impl Prepared {
    /// The peer's shape of the hull, or why it could not be built.
    pub(super) fn peer_shape(&self) -> Result<&PeerShape, String> {
        self.peer.as_ref().map_err(Clone::clone)
    }
}

/// A stable seed per source so every run draws the same poses.
pub(super) fn seed_of(name: &str, n: usize) -> u64 {
    name.bytes().fold(n as u64 ^ 0x9E37_79B9_7F4A_7C15, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// `x ↦ R·(x − centre) + t`.
pub(super) fn pose_about(centre: &Vector, rotation: UnitQuaternion<f64>, t: Vector) -> Pose {
    let shift = t - rotation * centre;
    Pose::from_parts(Translation3::from(shift), rotation)
}

/// Draws `count` pose pairs, half overlapping and half disjoint (classified by GJK on the
/// NVM; rejection sampling with a bound, so a shape that cannot fill a half gives fewer).
pub(super) fn draw_cases(p: &Prepared, count: usize, seed: u64) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let want_overlap = count / 2;
    let want_disjoint = count - want_overlap;
    let (mut overlap, mut disjoint) = (Vec::new(), Vec::new());
    let r = p.radius.max(f64::MIN_POSITIVE);
    for _ in 0..(60 * count.max(1)) {
        if overlap.len() >= want_overlap && disjoint.len() >= want_disjoint {
            break;
        }
        let pose_a = pose_about(&p.centre, random_rotation(&mut rng), Vector::zeros());
        let offset = random_direction(&mut rng) * (rng.random::<f64>() * 2.2 * r);
        let pose_b = pose_about(&p.centre, random_rotation(&mut rng), offset);
        let a = Posed::new(&p.nvm, pose_a);
        let b = Posed::new(&p.nvm, pose_b);
        let Ok(verdict) = gjk::intersects(&a, &b, &gjk::GjkSettings::default()) else {
            continue;
        };
        let wobble = random_direction(&mut rng) * 0.3 * offset.norm();
        let case = Case {
            pose_a,
            pose_b,
            direction: random_direction(&mut rng),
            velocity: -offset + wobble,
            reach: 2.0 * (offset.norm() + 2.0 * r) + r,
            overlapping: verdict.intersecting,
        };
        let bucket = if case.overlapping {
            (&mut overlap, want_overlap)
        } else {
            (&mut disjoint, want_disjoint)
        };
        if bucket.0.len() < bucket.1 && case.velocity.norm() > 1e-9 * r {
            bucket.0.push(case);
        }
    }
    // Interleaved, so that every prefix (what a capped method times) is half overlapping.
    let mut out = Vec::with_capacity(overlap.len() + disjoint.len());
    let (mut o, mut d) = (overlap.into_iter(), disjoint.into_iter());
    loop {
        match (o.next(), d.next()) {
            (None, None) => break,
            (x, y) => out.extend(x.into_iter().chain(y)),
        }
    }
    out
}

/// `count` independent uniformly random unit directions (distinct with probability 1).
pub(super) fn draw_directions(count: usize, seed: u64) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| random_direction(&mut rng)).collect()
}

/// `a` and `b` in the case's poses.
pub(super) fn posed<S: SupportMap>(a: S, b: S, c: &Case) -> (Posed<S>, Posed<S>) {
    (Posed::new(a, c.pose_a), Posed::new(b, c.pose_b))
}

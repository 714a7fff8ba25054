//! The motion bounds of the active pairs (see the notes of the motion checks): which joints
//! move a pair's bodies relative to each other and how far — a revolute joint `j` moves a
//! point at distance `r` from its axis at speed `|Δq_j| · r` per unit of `s` — built once
//! with the checker ([`MotionBounds::new`]), their rates per motion
//! ([`MotionBounds::rates`]), and the bound at a placed configuration
//! ([`MotionBounds::bound`]). A leaf over the robot model.

use crate::robot::{Joint, JointKind, Robot};
use crate::{Point, Vector};

/// One joint in a pair's motion bound: joint `joint` moves link `link` (one body of the
/// pair) relative to the other, and `position` is its place in `link`'s chain (0 = the joint
/// nearest the link).
#[derive(Clone, Copy, Debug)]
struct BoundTerm {
    link: usize,
    joint: usize,
    position: usize,
    variable: usize,
    /// `|multiplier|` of a mimic joint, 1 otherwise.
    scale: f64,
    prismatic: bool,
}

/// A term's rates over one motion (per unit of `s`): `speed = |Δq_j|` (times a mimic's
/// multiplier); `below` = how fast the joints below `j` move the link relative to `j`
/// (`Σ |Δq_u| · arm_u`); `above` = how fast the unshared revolute joints above `j` turn its
/// axis (`Σ |Δq_u|`); `arm` = the static bound on the distance from `j`'s axis to the link.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TermRates {
    speed: f64,
    below: f64,
    above: f64,
    arm: f64,
}

/// Per link, the joints that move it with their arm lengths `r_ij` (or 1 for prismatic):
/// `(joint index, coefficient)`, from the link up to the root.
fn link_chains(robot: &Robot, reach: &[f64]) -> Vec<Vec<(usize, f64)>> {
    (0..robot.links().len())
        .map(|i| {
            let mut chain = Vec::new();
            let mut arm = reach[i];
            let mut link = i;
            while let Some(j) = robot.parent_joint(link) {
                let joint = &robot.joints()[j];
                let travel = match joint.kind {
                    JointKind::Revolute | JointKind::Continuous => {
                        chain.push((j, arm));
                        0.0
                    }
                    JointKind::Prismatic => {
                        chain.push((j, 1.0));
                        joint
                            .limits
                            .map_or(f64::INFINITY, |l| l.lower.abs().max(l.upper.abs()))
                    }
                    JointKind::Fixed => 0.0,
                };
                arm += joint.origin.translation.vector.norm() + travel;
                link = joint.parent;
            }
            chain
        })
        .collect()
}

/// The joints in a pair's motion bound (`b = None`: a link against the fixed world): both
/// chains, joints shared by them dropped (they move both bodies rigidly together), mimic
/// joints mapped to their variable.
fn pair_terms(
    robot: &Robot,
    chains: &[Vec<(usize, f64)>],
    a: usize,
    b: Option<usize>,
) -> Vec<BoundTerm> {
    let empty = Vec::new();
    let chain_b = b.map_or(&empty, |b| &chains[b]);
    let shared = |j: usize, other: &Vec<(usize, f64)>| other.iter().any(|&(k, _)| k == j);
    let mut terms = Vec::new();
    let sides = [
        (a, &chains[a], chain_b),
        (b.unwrap_or(a), chain_b, &chains[a]),
    ];
    for (link, chain, other) in sides {
        for (position, &(j, _)) in chain.iter().enumerate() {
            if shared(j, other) {
                continue;
            }
            let joint = &robot.joints()[j];
            let Some((variable, scale)) = joint_variable(joint) else {
                continue;
            };
            terms.push(BoundTerm {
                link,
                joint: j,
                position,
                variable,
                scale,
                prismatic: joint.kind == JointKind::Prismatic,
            });
        }
    }
    terms
}

/// The configuration variable moving `joint` and how much: `Some((v, |multiplier|))` for a
/// mimic joint following variable `v`, `Some((v, 1))` for a variable joint, `None` for fixed.
fn joint_variable(joint: &Joint) -> Option<(usize, f64)> {
    match (joint.variable, joint.mimic) {
        (Some(v), _) => Some((v, 1.0)),
        (None, Some(m)) => Some((m.variable, m.multiplier.abs())),
        (None, None) => None,
    }
}

/// The relative precision added to every motion bound `M` (rounding of the bound itself and of
/// forward kinematics).
const BOUND_SLACK: f64 = 1e-9;

/// The motion bounds of a checker's active pairs (scene pairs, then self pairs), built once.
#[derive(Clone, Debug)]
pub(super) struct MotionBounds {
    /// Per pair, the terms of its motion bound.
    terms: Vec<Vec<BoundTerm>>,
    /// Per link, the joints moving it with their static arms (see [`link_chains`]).
    chains: Vec<Vec<(usize, f64)>>,
    /// Pair `p`'s terms in a flattened per-term array: `offsets[p]..offsets[p + 1]`.
    offsets: Vec<usize>,
    /// Absolute slack (metres) subtracted from every certified distance in motion checks.
    slack: f64,
}

impl MotionBounds {
    /// The bounds of `pairs` (`(a, Some(b))` a link pair, `(l, None)` a link against the
    /// world), given each link's reach from its frame's origin (its shapes' farthest point):
    /// per joint the arm, per pair its terms, and the slack `1e-12 · (1 + longest arm)`.
    pub(super) fn new(
        robot: &Robot,
        reach: &[f64],
        pairs: impl Iterator<Item = (usize, Option<usize>)>,
    ) -> MotionBounds {
        let chains = link_chains(robot, reach);
        let terms: Vec<Vec<BoundTerm>> = pairs
            .map(|(a, b)| pair_terms(robot, &chains, a, b))
            .collect();
        let mut offsets = vec![0];
        for t in &terms {
            offsets.push(offsets.last().copied().unwrap_or(0) + t.len());
        }
        let longest_arm = chains
            .iter()
            .flatten()
            .map(|&(_, arm)| arm)
            .filter(|a| a.is_finite())
            .fold(0.0, f64::max);
        MotionBounds {
            terms,
            chains,
            offsets,
            slack: 1e-12 * (1.0 + longest_arm),
        }
    }

    /// The absolute slack (metres) subtracted from every certified distance:
    /// `slack = 1e-12 · (1 + longest arm)`.
    #[inline]
    pub(super) fn slack(&self) -> f64 {
        self.slack
    }

    /// Per pair and term, the rates of the motion with `|Δq| = dq` (see [`TermRates`]), into
    /// `rates` (flattened, pair `p`'s terms at `offsets[p]..offsets[p + 1]`).
    pub(super) fn rates(&self, robot: &Robot, dq: &[f64], rates: &mut Vec<TermRates>) {
        rates.clear();
        for terms in &self.terms {
            let speed = |t: &BoundTerm| t.scale * dq[t.variable];
            for t in terms {
                let chain = &self.chains[t.link];
                // Joints below `t` on its link's chain: none is shared with the other body.
                let below: f64 = chain[..t.position]
                    .iter()
                    .map(|&(j, arm)| {
                        joint_variable(&robot.joints()[j]).map_or(0.0, |(v, k)| k * dq[v]) * arm
                    })
                    .sum();
                // Unshared revolute joints above `t` turn its axis.
                let above: f64 = terms
                    .iter()
                    .filter(|u| u.link == t.link && u.position > t.position && !u.prismatic)
                    .map(speed)
                    .sum();
                rates.push(TermRates {
                    speed: speed(t),
                    below,
                    above,
                    arm: chain[t.position].1,
                });
            }
        }
    }

    /// Pair `p`'s rates among all pairs' `rates`.
    #[inline]
    fn of<'r>(&self, rates: &'r [TermRates], p: usize) -> &'r [TermRates] {
        &rates[self.offsets[p]..self.offsets[p + 1]]
    }

    /// How far pair `p`'s bodies can sweep over the whole motion with the static arms alone,
    /// no axis placed: `Σ speed · arm`, padded by a relative 1e-9.
    pub(super) fn sweep(&self, rates: &[TermRates], p: usize) -> f64 {
        self.of(rates, p)
            .iter()
            .map(|r| r.speed * r.arm)
            .sum::<f64>()
            * (1.0 + BOUND_SLACK)
    }

    /// Pair `p`'s motion bound at the placed configuration (see the module notes of the
    /// motion checks): over `[s, s + Δs]` the gap of a separating plane with unit normal `n`
    /// (fixed in the frame of the link both bodies hang from) falls by at most
    /// `A·Δs + B·Δs²/2`, with `A = Σ_j |Δq_j| · |n × a_j| · r_j` (`a_j` the joint's axis, `r_j`
    /// the distance from it to the link's bounding sphere plus its radius; `|a_j · n|` for a
    /// prismatic joint) and `B = Σ_j |Δq_j| · (|n × a_j| · below_j + above_j · arm_j)`. Without
    /// `n` the bound holds for every direction (`|n × a_j|` taken as 1). `joint_axes[j]` =
    /// joint `j`'s world origin and axis, `links[l]` = link `l`'s world bounding sphere
    /// (`None`: no shapes). Returns `(A, B)`, padded by a relative 1e-9.
    pub(super) fn bound(
        &self,
        (rates, p): (&[TermRates], usize),
        joint_axes: &[(Vector, Vector)],
        links: impl Fn(usize) -> Option<(Point, f64)>,
        n: Option<&Vector>,
    ) -> (f64, f64) {
        let (mut a, mut b) = (0.0, 0.0);
        for (t, r) in self.terms[p].iter().zip(self.of(rates, p)) {
            if r.speed == 0.0 {
                continue;
            }
            let (origin, axis) = &joint_axes[t.joint];
            if t.prismatic {
                match n {
                    Some(n) => {
                        a += r.speed * axis.dot(n).abs();
                        b += r.speed * r.above;
                    }
                    None => a += r.speed,
                }
                continue;
            }
            let Some((centre, radius)) = links(t.link) else {
                continue;
            };
            let arm = (centre.coords - origin).cross(axis).norm() + radius;
            match n {
                Some(n) => {
                    let sine = n.cross(axis).norm();
                    a += r.speed * sine * arm;
                    b += r.speed * (sine * r.below + r.above * r.arm);
                }
                None => {
                    a += r.speed * arm;
                    b += r.speed * r.below;
                }
            }
        }
        (a * (1.0 + BOUND_SLACK), b * (1.0 + BOUND_SLACK))
    }
}

//! The terms of a pair's motion bound: which joints move the pair's bodies relative to each
//! other and how far (see the notes of the motion checks: a revolute joint `j` moves a point
//! at distance `r` from its axis at speed `|Δq_j| · r` per unit of `s`), computed once when the
//! checker is built. A leaf: data and free functions over the robot model.

use crate::robot::{Joint, JointKind, Robot};

/// One joint in a pair's motion bound: joint `joint` moves link `link` (one body of the
/// pair) relative to the other, and `position` is its place in `link`'s chain (0 = the joint
/// nearest the link).
#[derive(Clone, Copy, Debug)]
pub(super) struct BoundTerm {
    pub(super) link: usize,
    pub(super) joint: usize,
    pub(super) position: usize,
    pub(super) variable: usize,
    /// `|multiplier|` of a mimic joint, 1 otherwise.
    pub(super) scale: f64,
    pub(super) prismatic: bool,
}

/// A term's rates over one motion (per unit of `s`): `speed = |Δq_j|` (times a mimic's
/// multiplier); `below` = how fast the joints below `j` move the link relative to `j`
/// (`Σ |Δq_u| · arm_u`); `above` = how fast the unshared revolute joints above `j` turn its
/// axis (`Σ |Δq_u|`); `arm` = the static bound on the distance from `j`'s axis to the link.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TermRates {
    pub(super) speed: f64,
    pub(super) below: f64,
    pub(super) above: f64,
    pub(super) arm: f64,
}

/// Per link, the joints that move it with their arm lengths `r_ij` (or 1 for prismatic):
/// `(joint index, coefficient)`, from the link up to the root.
pub(super) fn link_chains(robot: &Robot, reach: &[f64]) -> Vec<Vec<(usize, f64)>> {
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
pub(super) fn pair_terms(
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
pub(super) fn joint_variable(joint: &Joint) -> Option<(usize, f64)> {
    match (joint.variable, joint.mimic) {
        (Some(v), _) => Some((v, 1.0)),
        (None, Some(m)) => Some((m.variable, m.multiplier.abs())),
        (None, None) => None,
    }
}

/// The relative precision added to every motion bound `M` (rounding of the bound itself and of
/// forward kinematics).
pub(super) const BOUND_SLACK: f64 = 1e-9;

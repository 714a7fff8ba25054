//! RRT-Connect (Kuffner and LaValle, 2000): two trees, one from the start and one from the
//! goal. Each iteration draws a uniform sample, extends one tree one step (at most `range`,
//! L2 in joint space) towards it, then grows the other tree towards the new node step by step
//! until it is reached (a path) or blocked; then the trees swap roles, except that the larger
//! tree never extends towards a sample while the other is smaller (a tree stuck in a pocket of
//! free space draws the samples until it grows out). A new node is a free
//! configuration joined to its parent by an edge that passed the search's edge check.
//! A user of the leaves `space`, `tree`, `validity` and `budget` of `robot::plan`.

use super::budget::Budget;
use super::options::EdgeCheck;
use super::result::{PlanError, Stop};
use super::space::{Random, Space, distance};
use super::tree::Tree;
use super::validity::Validity;
use std::time::Instant;

/// One search's settings: its step and its edge check.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    /// The longest step (L2): `range > 0`.
    pub(super) range: f64,
    /// How tree edges are checked.
    pub(super) edges: EdgeCheck,
}

/// What a search ended with: a path from the start to the goal (exactly), or why it stopped.
pub(super) struct Outcome {
    /// The path, or the limit hit first.
    pub(super) path: Result<Vec<Vec<f64>>, Stop>,
    /// Nodes in both trees at the end.
    pub(super) tree_nodes: u64,
}

/// How one extension step ended.
enum Step {
    /// Blocked: nothing added.
    Trapped,
    /// A node added short of the target.
    Advanced(usize),
    /// The target itself added (or already there): the node's index.
    Reached(usize),
}

/// The tree to extend next: `next`, unless it holds more nodes than the other (then the
/// other). A tree stuck in a pocket of free space stays small, so it draws the samples until
/// it grows out as large as the other.
fn balanced(trees: &[Tree; 2], next: usize) -> usize {
    if trees[next].len() > trees[1 - next].len() {
        1 - next
    } else {
        next
    }
}

/// A search in progress.
pub(super) struct Search<'a, 'c> {
    pub(super) space: &'a Space,
    pub(super) validity: &'a mut Validity<'c>,
    pub(super) random: &'a mut Random,
    pub(super) budget: &'a mut Budget,
    pub(super) settings: Settings,
    /// Scratch configuration.
    q: Vec<f64>,
}

impl<'a, 'c> Search<'a, 'c> {
    /// A search with these parts.
    pub(super) fn new(
        space: &'a Space,
        validity: &'a mut Validity<'c>,
        random: &'a mut Random,
        budget: &'a mut Budget,
        settings: Settings,
    ) -> Self {
        Search {
            space,
            validity,
            random,
            budget,
            settings,
            q: Vec::with_capacity(space.dof()),
        }
    }

    /// Searches from `start` to `goal` (both free). With `direct`, the straight edge between
    /// them is tried first.
    pub(super) fn run(
        &mut self,
        start: &[f64],
        goal: &[f64],
        direct: bool,
    ) -> Result<Outcome, PlanError> {
        if direct
            && self
                .validity
                .edge_free(self.space, start, goal, self.settings.edges)?
        {
            return Ok(Outcome {
                path: Ok(vec![start.to_vec(), goal.to_vec()]),
                tree_nodes: 2,
            });
        }
        let mut trees = [Tree::new(start), Tree::new(goal)];
        let mut sample = vec![0.0; self.space.dof()];
        // `a` is the tree extended towards the sample, `1 − a` the one connected to it.
        let mut a = 0;
        let nodes = |trees: &[Tree; 2]| (trees[0].len() + trees[1].len()) as u64;
        loop {
            if let Err(stop) = self.budget.take() {
                return Ok(Outcome {
                    path: Err(stop),
                    tree_nodes: nodes(&trees),
                });
            }
            self.space.sample(self.random, &mut sample);
            let new = match self.extend(&mut trees[a], &sample, false)? {
                Step::Trapped => {
                    a = balanced(&trees, 1 - a);
                    continue;
                }
                Step::Advanced(i) | Step::Reached(i) => i,
            };
            let target = trees[a].point(new).to_vec();
            let b = 1 - a;
            loop {
                match self.extend(&mut trees[b], &target, true)? {
                    Step::Advanced(_) if !self.budget.timed_out() => continue,
                    Step::Reached(j) => {
                        let mut path = trees[a].branch(new);
                        let mut other = trees[b].branch(j);
                        other.pop(); // node j is `target`, already last in `path`
                        path.extend(other.into_iter().rev());
                        if a == 1 {
                            path.reverse();
                        }
                        return Ok(Outcome {
                            path: Ok(path),
                            tree_nodes: nodes(&trees),
                        });
                    }
                    _ => break,
                }
            }
            a = balanced(&trees, b);
        }
    }

    /// One step of `tree` towards `target` (`target_free`: it is known free). The new node is
    /// `target` when within `range` of the nearest node, else the point at `range` towards it.
    fn extend(
        &mut self,
        tree: &mut Tree,
        target: &[f64],
        target_free: bool,
    ) -> Result<Step, PlanError> {
        let t0 = Instant::now();
        let (near, d2) = tree.nearest(target);
        self.validity.counts.nearest_seconds += t0.elapsed().as_secs_f64();
        if d2 == 0.0 {
            return Ok(Step::Reached(near));
        }
        let d = d2.sqrt();
        let reached = d <= self.settings.range;
        let mut q = std::mem::take(&mut self.q);
        let t = if reached {
            1.0
        } else {
            self.settings.range / d
        };
        self.space.interpolate(tree.point(near), target, t, &mut q);
        let free = ((reached && target_free) || self.validity.state_free(&q)?)
            && distance(tree.point(near), &q) > 0.0
            && self
                .validity
                .edge_free(self.space, tree.point(near), &q, self.settings.edges)?;
        let step = if !free {
            Step::Trapped
        } else {
            let i = tree.add(&q, near);
            if reached {
                Step::Reached(i)
            } else {
                Step::Advanced(i)
            }
        };
        self.q = q;
        Ok(step)
    }
}

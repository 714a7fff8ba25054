//! The direction-hint table of a normal vector map: per chart a square grid over the chart's
//! `(u, v)` square, each cell naming the record of the vertex that is the support for the
//! direction at the cell's centre (its **hint**), and the record of the support most common
//! over the rest of the cell (its **runner-up**).
//!
//! Where it sits: in front of the charts' point locators in [`crate::nvm`]'s queries. A query
//! reads its cell's two entries (one array of about sixteen bytes a vertex, small beside the
//! records), requests the runner-up's record from memory together with the hint's, and
//! polishes from the hint: the hint is the answer, or a step or two from it, when the cells
//! are no larger than the regions of the Gauss map, and the step most often lands on the
//! runner-up, whose record is then already on its way (one trip to memory instead of two). The query keeps the polish's answer
//! only if it ended within [`HINT_STEPS`] steps with every neighbour proven worse in exact
//! arithmetic (`Polished::certain`: a polish from an arbitrary start may otherwise stop on a
//! plateau of rounding ties short of the maximum); else it goes through the locator, whose
//! answer takes O(log n) work whatever the polytope. So a hint saves memory trips and never
//! changes an answer. A cell whose hint is not within [`CORNER_STEPS`] of each corner's support
//! (regions thinner than the cell, as on a many-sided cylinder) stores [`NO_HINT`] instead, and
//! its queries go straight to the locator.

/// Steps of the polish from a hint before the query falls back to the point locator.
pub(crate) const HINT_STEPS: u32 = 3;

/// The entry of a cell without a hint: its queries go straight to the locator (the cell
/// spans regions too thin for one start to be within a step or two of all of them). Never a
/// record start (record starts stay below `2³¹`).
pub(crate) const NO_HINT: u32 = u32::MAX;

/// A cell keeps its hint when the polish from it reaches the exact support of each of the
/// cell's corners within this many steps.
pub(crate) const CORNER_STEPS: u32 = 2;

/// Hint cells per hull vertex, over the six charts (the table's side is the whole number
/// nearest to `√(HINTS_PER_VERTEX·n/6)`): `6·side² ≈ HINTS_PER_VERTEX·n`. Measured on the
/// 1,048,576-vertex sphere: in one process alternating several maps, two cells a vertex with
/// a runner-up each answered fastest (against one cell with a runner-up, one cell with three,
/// four cells without); with the map alone (`examples/support_cold`), `support_many` took
/// 127–130 ns a query against 154 ns with one cell a vertex, one query waiting for the last
/// 393–408 against 371–389 ns.
pub(crate) const HINTS_PER_VERTEX: f64 = 2.0;

/// Entries of a cell: the record start of its hint, then of its runner-up (either
/// [`NO_HINT`] when there is none).
pub(crate) const ENTRIES_PER_CELL: usize = 2;
// `Hints::get` reads a cell as the pair `[hint, runner_up]`.
const _: () = assert!(ENTRIES_PER_CELL == 2);

/// The largest side of a chart's hint grid (6 × 4096² cells = 403 MB would be the most).
const MAX_SIDE: usize = 4096;

/// The hint table: `starts[2·((c·side + row)·side + col)]` is the record start of the cell's
/// hint, the entry after it that of its runner-up.
#[derive(Clone, Debug)]
pub(crate) struct Hints {
    side: usize,
    /// `side / 2` as `f64`: the cell of `u` is `⌊(u + 1)·half_side⌋`.
    half_side: f64,
    pub(crate) starts: Vec<u32>,
}

impl Hints {
    /// The side of the hint grids of a map of `vertices` vertices: `√(HINTS_PER_VERTEX·n/6)`
    /// rounded to the nearest whole number, at least 1 and at most 4096.
    pub(crate) fn side_for(vertices: usize) -> usize {
        ((HINTS_PER_VERTEX * vertices as f64 / 6.0).sqrt().round() as usize).clamp(1, MAX_SIDE)
    }

    /// The table of `side × side` cells per chart. For the cell `(c, row, col)` with centre
    /// `(u, v)` and half-width `h`, `answer(c, u, v, h, previous)` gives the record of the
    /// centre's support and the entries to store (hint and runner-up, or [`NO_HINT`]s), where
    /// `previous` is the centre record of the cell before it in its row (`None` for a row's
    /// first cell): the caller may start its search there, a cell away.
    pub(crate) fn build(
        side: usize,
        mut answer: impl FnMut(usize, f64, f64, f64, Option<u32>) -> (u32, [u32; ENTRIES_PER_CELL]),
    ) -> Hints {
        let side = side.clamp(1, MAX_SIDE);
        let cells = super::chart::NUM_CHARTS * side * side;
        let mut starts = Vec::with_capacity(ENTRIES_PER_CELL * cells);
        crate::memory_hints::advise_huge_pages(&starts);
        let width = 2.0 / side as f64;
        for c in 0..super::chart::NUM_CHARTS {
            for row in 0..side {
                let v = -1.0 + (row as f64 + 0.5) * width;
                let mut previous = None;
                for col in 0..side {
                    let u = -1.0 + (col as f64 + 0.5) * width;
                    let (centre, entries) = answer(c, u, v, width / 2.0, previous);
                    starts.extend_from_slice(&entries);
                    previous = Some(centre);
                }
            }
        }
        Hints::new(side, starts)
    }

    /// A table of `side × side` cells per chart from its entries (a load checks that there
    /// are `2·6·side²` of them, each a record start or [`NO_HINT`]).
    pub(crate) fn new(side: usize, starts: Vec<u32>) -> Hints {
        Hints {
            side,
            half_side: side as f64 / 2.0,
            starts,
        }
    }

    /// A table without cells: [`Hints::get`] finds no hint, so every query asks the locator
    /// (what a map has while its own table is being built from its queries).
    pub(crate) fn without_cells() -> Hints {
        Hints::new(1, Vec::new())
    }

    /// The side of each chart's grid.
    pub(crate) fn side(&self) -> usize {
        self.side
    }

    /// Whether `side` is one a table may have: `1 ≤ side ≤ 4096`.
    pub(crate) fn valid_side(side: usize) -> bool {
        (1..=MAX_SIDE).contains(&side)
    }

    /// Heap bytes of the table: `capacity × 4`.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.starts.capacity() * std::mem::size_of::<u32>()
    }

    /// Cells of the table: `6·side²`.
    pub(crate) fn num_cells(&self) -> usize {
        self.starts.len() / ENTRIES_PER_CELL
    }

    /// The hint and the runner-up (if the cell has one) of the cell of `(u, v)` in chart `c`
    /// (points beyond the square are clamped into it; NaN lands in cell 0); `None` for a cell
    /// without a hint.
    #[inline(always)]
    pub(crate) fn get(&self, c: usize, u: f64, v: f64) -> Option<(u32, Option<u32>)> {
        let at = self.index(c, u, v);
        match self.starts.get(at..at + ENTRIES_PER_CELL)? {
            &[hint, runner_up] if hint != NO_HINT => {
                Some((hint, (runner_up != NO_HINT).then_some(runner_up)))
            }
            _ => None,
        }
    }

    /// Starts loading the entries [`Hints::get`] reads for `(c, u, v)` (a hint only).
    #[inline(always)]
    pub(crate) fn prefetch(&self, c: usize, u: f64, v: f64) {
        crate::memory_hints::prefetch(self.starts.as_ptr().wrapping_add(self.index(c, u, v)));
    }

    /// The first entry of the cell of `(u, v)` in chart `c`: `2·((c·side + row)·side + col)`.
    #[inline(always)]
    fn index(&self, c: usize, u: f64, v: f64) -> usize {
        let last = self.side.saturating_sub(1);
        let col = (((u + 1.0) * self.half_side) as usize).min(last);
        let row = (((v + 1.0) * self.half_side) as usize).min(last);
        ENTRIES_PER_CELL * ((c * self.side + row) * self.side + col)
    }
}

/// Votes for a cell's runner-up: each distinct record with the weight of the sample
/// directions of the cell it answered.
#[derive(Default)]
pub(crate) struct Votes(Vec<(u32, u32)>);

impl Votes {
    /// Adds `weight` votes for `record`.
    pub(crate) fn add(&mut self, record: u32, weight: u32) {
        match self.0.iter_mut().find(|(r, _)| *r == record) {
            Some((_, n)) => *n += weight,
            None => self.0.push((record, weight)),
        }
    }

    /// The record with the most votes other than `hint` (the first counted on a tie), or
    /// [`NO_HINT`] when every vote went to `hint`.
    pub(crate) fn runner_up(&self, hint: u32) -> u32 {
        self.0
            .iter()
            .filter(|(r, _)| *r != hint)
            .fold(None, |best: Option<(u32, u32)>, &(r, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((r, n)),
            })
            .map_or(NO_HINT, |(r, _)| r)
    }
}

#[cfg(test)]
mod tests {
    use super::{HINT_STEPS, NO_HINT, Votes};
    use crate::hull::convex_hull;
    use crate::nvm::NormalVectorMap;
    use crate::{LinearScan, Point, SupportMap, Vector};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `n` points on the unit sphere (a Fibonacci spiral): every point a hull vertex.
    fn sphere(n: usize) -> Vec<Point> {
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let t = golden * i as f64;
                Point::new(r * t.cos(), r * t.sin(), z)
            })
            .collect()
    }

    fn directions(count: usize) -> Vec<Vector> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        (0..count)
            .map(|_| {
                Vector::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            })
            .collect()
    }

    /// The answer's value `d·p` is the linear scan's, within 8 ulps of `|d|·max|p|` (the points
    /// are on the unit sphere: ties within rounding may pick either vertex).
    fn assert_exact(map: &NormalVectorMap, d: &Vector) {
        let want = d.dot(&LinearScan::new(map.polytope()).support(d).point.coords);
        let got = d.dot(&map.support(d).point.coords);
        assert!(
            got >= want - 8.0 * f64::EPSILON * d.norm(),
            "{d:?}: {got} < {want}"
        );
    }

    /// Hints in the right cells: most queries end within a step of their hint and none asks
    /// the locator on a sphere; every answer is the linear scan's.
    #[test]
    fn hinted_queries_end_near_their_hint() {
        let map = NormalVectorMap::build(convex_hull(&sphere(3000)).expect("hull")).expect("map");
        let ds = directions(4000);
        let (mut steps, mut located) = (0u32, 0u32);
        for d in &ds {
            let (support, stats) = map.support_with_stats(d);
            assert_eq!(support, map.support(d));
            assert_exact(&map, d);
            steps += stats.polish_steps;
            located += u32::from(stats.located);
        }
        let mean = f64::from(steps) / ds.len() as f64;
        assert!(mean <= 1.0, "mean polish steps from a hint {mean}");
        assert_eq!(located, 0);
    }

    /// Every hint pointing at one vertex (the worst table a file could hold): the answers are
    /// still exact, a query far from that vertex falls back to the locator after at most
    /// `HINT_STEPS` steps, and the locator's path counts its reads.
    #[test]
    fn a_wrong_hint_falls_back_to_the_locator() {
        let mut map =
            NormalVectorMap::build(convex_hull(&sphere(3000)).expect("hull")).expect("map");
        map.hints.starts.fill(0);
        let mut located = 0;
        for d in &directions(2000) {
            let (support, stats) = map.support_with_stats(d);
            assert_exact(&map, d);
            let (again, direct) = map.support_located_with_stats(d);
            assert_eq!(support, again);
            assert!(direct.located && direct.nodes_visited + direct.slab_probes > 0);
            if stats.located {
                located += 1;
                assert!(stats.slab_probes > 0 && stats.polish_steps >= HINT_STEPS);
            } else {
                assert_eq!(stats.nodes_visited + stats.slab_probes, 0);
                assert!(stats.polish_steps <= HINT_STEPS);
            }
        }
        assert!(
            located > 1900,
            "{located} of 2000 queries asked the locator"
        );
    }

    /// The runner-up is the most voted record other than the hint (the first counted on a
    /// tie), and none when every vote went to the hint.
    #[test]
    fn the_runner_up_is_the_most_voted_other_record() {
        let mut votes = Votes::default();
        votes.add(7, 1);
        assert_eq!(votes.runner_up(7), NO_HINT);
        for (record, weight) in [(3, 1), (9, 2), (3, 1), (5, 2)] {
            votes.add(record, weight);
        }
        assert_eq!(votes.runner_up(7), 3);
        assert_eq!(votes.runner_up(3), 9);
    }

    /// Where a polish from the hint steps, it most often ends on the cell's runner-up, whose
    /// record the query requested with the hint's: on a 3,000-vertex sphere, of 4,000 random
    /// directions, more than a third of those that step end there (asserted; measured: 818
    /// of 1,198, about two in three).
    #[test]
    fn a_step_from_the_hint_most_often_ends_on_the_runner_up() {
        let map = NormalVectorMap::build(convex_hull(&sphere(3000)).expect("hull")).expect("map");
        let (mut stepped, mut on_runner_up) = (0u32, 0u32);
        for d in &directions(4000) {
            let (c, u, v) = super::super::chart_point(d).expect("a unit direction");
            let (hint, runner_up) = map.hints.get(c, u, v).expect("a hint on a sphere");
            let polished = map.records.polish(d, hint, HINT_STEPS);
            if polished.steps > 0 {
                stepped += 1;
                on_runner_up += u32::from(Some(polished.record) == runner_up);
            }
        }
        eprintln!("{on_runner_up} of {stepped} stepping polishes end on the runner-up");
        assert!(stepped > 400, "{stepped} of 4000 polishes stepped");
        assert!(3 * on_runner_up > stepped, "{on_runner_up} of {stepped}");
    }
}

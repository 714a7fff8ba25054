//! The direction-hint table of a normal vector map: per chart a square grid over the chart's
//! `(u, v)` square, each cell naming the record of the vertex that is the support for the
//! direction at the cell's centre.
//!
//! Where it sits: in front of the charts' point locators in [`crate::nvm`]'s queries. A query
//! reads its cell's hint (one small array, about four bytes a vertex, so it mostly stays in
//! cache) and polishes from there: the hint is the answer, or a step or two from it, when the
//! cells are no larger than the regions of the Gauss map. The query keeps the polish's answer
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

/// Hint cells per hull vertex, over the six charts (the table's side is the smallest with at
/// least this many cells a vertex): `6·side² ≥ HINTS_PER_VERTEX·n`.
pub(crate) const HINTS_PER_VERTEX: f64 = 1.0;

/// The largest side of a chart's hint grid (6 × 4096² cells = 403 MB would be the most).
const MAX_SIDE: usize = 4096;

/// The hint table: `starts[(c·side + row)·side + col]` is a record start.
#[derive(Clone, Debug)]
pub(crate) struct Hints {
    side: usize,
    /// `side / 2` as `f64`: the cell of `u` is `⌊(u + 1)·half_side⌋`.
    half_side: f64,
    pub(crate) starts: Vec<u32>,
}

impl Hints {
    /// The side of the hint grids of a map of `vertices` vertices: `⌈√(HINTS_PER_VERTEX·n/6)⌉`,
    /// at least 1 and at most 4096.
    pub(crate) fn side_for(vertices: usize) -> usize {
        ((HINTS_PER_VERTEX * vertices as f64 / 6.0).sqrt().ceil() as usize).clamp(1, MAX_SIDE)
    }

    /// The table of `side × side` cells per chart. For the cell `(c, row, col)` with centre
    /// `(u, v)` and half-width `h`, `answer(c, u, v, h, previous)` gives the record of the
    /// centre's support and the entry to store (that record, or [`NO_HINT`]), where
    /// `previous` is the centre record of the cell before it in its row (`None` for a row's
    /// first cell): the caller may start its search there, a cell away.
    pub(crate) fn build(
        side: usize,
        mut answer: impl FnMut(usize, f64, f64, f64, Option<u32>) -> (u32, u32),
    ) -> Hints {
        let side = side.clamp(1, MAX_SIDE);
        let cells = super::chart::NUM_CHARTS * side * side;
        let mut starts = Vec::with_capacity(cells);
        crate::memory_hints::advise_huge_pages(&starts);
        let width = 2.0 / side as f64;
        for c in 0..super::chart::NUM_CHARTS {
            for row in 0..side {
                let v = -1.0 + (row as f64 + 0.5) * width;
                let mut previous = None;
                for col in 0..side {
                    let u = -1.0 + (col as f64 + 0.5) * width;
                    let (centre, entry) = answer(c, u, v, width / 2.0, previous);
                    starts.push(entry);
                    previous = Some(centre);
                }
            }
        }
        Hints::new(side, starts)
    }

    /// A table of `side × side` cells per chart from its entries (a load checks that there
    /// are `6·side²` of them, each a record start or [`NO_HINT`]).
    pub(crate) fn new(side: usize, starts: Vec<u32>) -> Hints {
        Hints {
            side,
            half_side: side as f64 / 2.0,
            starts,
        }
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

    /// The hint of the cell of `(u, v)` in chart `c` (points beyond the square are clamped
    /// into it; NaN lands in cell 0); `None` for a cell without one.
    #[inline(always)]
    pub(crate) fn get(&self, c: usize, u: f64, v: f64) -> Option<u32> {
        self.starts
            .get(self.index(c, u, v))
            .copied()
            .filter(|&x| x != NO_HINT)
    }

    /// Starts loading the entry [`Hints::get`] reads for `(c, u, v)` (a hint only).
    #[inline(always)]
    pub(crate) fn prefetch(&self, c: usize, u: f64, v: f64) {
        crate::memory_hints::prefetch(self.starts.as_ptr().wrapping_add(self.index(c, u, v)));
    }

    /// The entry of `(u, v)` in chart `c`: `(c·side + row)·side + col`.
    #[inline(always)]
    fn index(&self, c: usize, u: f64, v: f64) -> usize {
        let last = self.side.saturating_sub(1);
        let col = (((u + 1.0) * self.half_side) as usize).min(last);
        let row = (((v + 1.0) * self.half_side) as usize).min(last);
        (c * self.side + row) * self.side + col
    }
}

#[cfg(test)]
mod tests {
    use super::HINT_STEPS;
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
}

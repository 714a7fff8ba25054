//! Timing of one table cell (`cell time = median over batches of batch time / queries per batch`): warm-up, then several batches of the same queries, each batch
//! long enough (≥ ~1 ms) for `Instant` to resolve it; the cell is the median time per query
//! over the batches with the interquartile range as its spread.
//!
//! Where it sits: a leaf (numbers printed by [`crate::format`]). The report's runner ([`crate::runner`]) and robot section
//! ([`crate::robot`]) run a checking pass ([`checking_pass`]) whose answers they compare, then
//! hand a closure that answers the same inputs once ("one pass"); this module decides how many
//! passes make a batch and how many batches fit the cell's time budget ([`cell_timing`]).
//! Both kinds of row carry the result as a [`CellTiming`], which also writes their table
//! cells and their CSV/JSON columns (each kind of row names them: [`TIMING_COLUMNS`]).

use crate::format::group;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::time::{Duration, Instant};

/// How long to spend on one cell: `batches ∈ [min_batches, max_batches]`, each `≥ min_batch`, about `per_cell` in all.
#[derive(Clone, Copy, Debug)]
pub struct TimingBudget {
    /// `per_cell` = the wall time to aim for over all batches of one cell.
    pub per_cell: Duration,
    /// Shortest batch: passes are repeated until `batch time ≥ min_batch`.
    pub min_batch: Duration,
    /// `min_batches` = the fewest batches (the median needs a few).
    pub min_batches: usize,
    /// `max_batches` = the most batches.
    pub max_batches: usize,
}

/// The timing of one cell: per query, in nanoseconds (`median_ns ± spread_ns / 2`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Timing {
    /// `median_ns = median over batches of (batch time / queries in the batch)`.
    pub median_ns: f64,
    /// `spread_ns = Q3 − Q1`: the interquartile range of the same per-query times.
    pub spread_ns: f64,
    /// `batches` = the batches timed.
    pub batches: usize,
    /// `queries_per_batch` = the queries answered per batch.
    pub queries_per_batch: usize,
}

impl Timing {
    /// Total timed repetitions of the query: `repetitions() = batches × queries_per_batch`.
    pub fn repetitions(&self) -> usize {
        self.batches * self.queries_per_batch
    }

    /// One pass over `queries` inputs taking `elapsed` in all: their mean, no spread
    /// (`median_ns = elapsed / queries`); a one-shot measurement (preprocessing) is
    /// `single_pass(elapsed, 1)`.
    pub fn single_pass(elapsed: Duration, queries: usize) -> Timing {
        Timing {
            median_ns: elapsed.as_secs_f64() * 1e9 / queries.max(1) as f64,
            spread_ns: 0.0,
            batches: 1,
            queries_per_batch: queries.max(1),
        }
    }
}

/// A measured cell's timing as its row states it, shared by the pair-query rows and the
/// robot rows: the median time per input over the timing batches, their spread, and how
/// many inputs were timed of those drawn (`inputs ≤ inputs_drawn`). The rows name its
/// figures in their own words in the CSV and JSON ([`TIMING_COLUMNS`]).
///
/// ```
/// use polyquery_report::measure::{CellTiming, Timing};
///
/// let mut t = CellTiming { inputs: 3, inputs_drawn: 4, ..CellTiming::default() };
/// t.record(&Timing { median_ns: 250.0, spread_ns: 50.0, batches: 5, queries_per_batch: 6 });
/// assert_eq!((t.median_ns, t.repetitions, t.per_second()), (Some(250.0), 30, Some(4e6)));
/// assert_eq!(t.decorate("250 ns", false), "250 ns ±10% (3 of 4)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CellTiming {
    /// `median_ns` = median over the batches of (batch time / inputs in the batch), ns per
    /// input; `None` when not timed (it failed everywhere, or was skipped).
    pub median_ns: Option<f64>,
    /// `spread_ns = Q3 − Q1` of the batches' times per input, ns (0 for one batch).
    pub spread_ns: Option<f64>,
    /// `batches` = the timing batches (of passes over the inputs) the median is over.
    pub batches: usize,
    /// `repetitions = batches × inputs per batch`: the timed repetitions in all.
    pub repetitions: usize,
    /// `inputs` = the inputs timed: all those drawn, or a prefix of them for a slow (capped)
    /// method.
    pub inputs: usize,
    /// `inputs_drawn` = the inputs drawn for the cell: `inputs ≤ inputs_drawn`.
    pub inputs_drawn: usize,
}

/// One figure of a [`CellTiming`], as a row's column names it ([`TIMING_COLUMNS`]):
/// `value = timing.value(figure)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingFigure {
    /// `value(Median) = Number(median_ns)`.
    Median,
    /// `value(Spread) = Number(spread_ns)`.
    Spread,
    /// `value(PerSecond) = Number(1e9 / median_ns)` ([`CellTiming::per_second`]).
    PerSecond,
    /// `value(Batches) = Count(batches)`.
    Batches,
    /// `value(Repetitions) = Count(repetitions)`.
    Repetitions,
    /// `value(Inputs) = Count(inputs)`.
    Inputs,
    /// `value(InputsDrawn) = Count(inputs_drawn)`.
    InputsDrawn,
}

/// The value of one figure: a time or a rate (`None` when not timed), or a count
/// (`value(Batches) = Count(batches)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FigureValue {
    /// A time or rate, serialised as the number: `Number(Some(x)) ↦ x`, `Number(None) ↦ null`.
    Number(Option<f64>),
    /// A count, serialised as the number: `Count(n) ↦ n`.
    Count(usize),
}

impl Serialize for FigureValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FigureValue::Number(x) => x.serialize(serializer),
            FigureValue::Count(n) => n.serialize(serializer),
        }
    }
}

/// The kind of row a timing belongs to, which names its columns ([`TIMING_COLUMNS`]):
/// `Pair` = a pair-query row of `results.csv` / `results.json`, `Robot` = a robot row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingRow {
    /// A pair-query row: `columns = mean_ns, spread_ns, passes, repetitions, poses, poses_drawn`.
    Pair,
    /// A robot row: `columns = median_ns, spread_ns, per_second, batches, inputs, inputs_drawn`.
    Robot,
}

/// The timing's columns in order, as each kind of row names them (`None`: that row does
/// not show the figure): `TIMING_COLUMNS[i] = (figure, pair-query column, robot column)`.
pub const TIMING_COLUMNS: [(TimingFigure, Option<&str>, Option<&str>); 7] = {
    use TimingFigure::*;
    [
        (Median, Some("mean_ns"), Some("median_ns")),
        (Spread, Some("spread_ns"), Some("spread_ns")),
        (PerSecond, None, Some("per_second")),
        (Batches, Some("passes"), Some("batches")),
        (Repetitions, Some("repetitions"), None),
        (Inputs, Some("poses"), Some("inputs")),
        (InputsDrawn, Some("poses_drawn"), Some("inputs_drawn")),
    ]
};

/// The columns `row` shows, in order: `(name, figure)` for each of [`TIMING_COLUMNS`] it names.
///
/// ```
/// use polyquery_report::measure::{TimingFigure, TimingRow, timing_columns};
///
/// let robot: Vec<_> = timing_columns(TimingRow::Robot).collect();
/// assert_eq!(robot[2], ("per_second", TimingFigure::PerSecond));
/// assert_eq!(timing_columns(TimingRow::Pair).count(), 6);
/// ```
pub fn timing_columns(row: TimingRow) -> impl Iterator<Item = (&'static str, TimingFigure)> {
    TIMING_COLUMNS
        .iter()
        .filter_map(move |&(figure, pair, robot)| {
            let name = match row {
                TimingRow::Pair => pair,
                TimingRow::Robot => robot,
            };
            name.map(|n| (n, figure))
        })
}

impl CellTiming {
    /// Takes a measured timing's figures (the inputs stay): `median_ns = Some(t.median_ns)`,
    /// `repetitions = t.repetitions()`.
    pub fn record(&mut self, t: &Timing) {
        self.median_ns = Some(t.median_ns);
        self.spread_ns = Some(t.spread_ns);
        self.batches = t.batches;
        self.repetitions = t.repetitions();
    }

    /// Inputs per second: `per_second() = 1e9 / median_ns`.
    pub fn per_second(&self) -> Option<f64> {
        self.median_ns.map(|m| 1e9 / m)
    }

    /// The value of `figure`: `value(Median) = Number(median_ns)`.
    pub fn value(&self, figure: TimingFigure) -> FigureValue {
        match figure {
            TimingFigure::Median => FigureValue::Number(self.median_ns),
            TimingFigure::Spread => FigureValue::Number(self.spread_ns),
            TimingFigure::PerSecond => FigureValue::Number(self.per_second()),
            TimingFigure::Batches => FigureValue::Count(self.batches),
            TimingFigure::Repetitions => FigureValue::Count(self.repetitions),
            TimingFigure::Inputs => FigureValue::Count(self.inputs),
            TimingFigure::InputsDrawn => FigureValue::Count(self.inputs_drawn),
        }
    }

    /// Serialises the figures under the columns of `row`, in order, into the row that
    /// flattens it (`#[serde(flatten, serialize_with = …)]`): `{name: value(figure)}` for
    /// each `(name, figure)` of [`timing_columns`]`(row)`.
    pub fn serialize_as<S: Serializer>(
        &self,
        row: TimingRow,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (name, figure) in timing_columns(row) {
            map.serialize_entry(name, &self.value(figure))?;
        }
        map.end()
    }

    /// A table cell of the timing: `value` (the time or the rate), then the spread over the
    /// batches as a percentage of the median when there were several, `(k of n)` when timed
    /// on a prefix of the inputs, and ` ⚠` when the answers disagree:
    /// `"{value} ±{50 · spread / median}%{ (k of n)}{ ⚠}"`.
    pub fn decorate(&self, value: &str, disagrees: bool) -> String {
        let spread = match (self.median_ns, self.spread_ns) {
            (Some(m), Some(s)) if self.batches > 1 && m > 0.0 => {
                format!(" ±{:.0}%", 50.0 * s / m)
            }
            _ => String::new(),
        };
        let sample = if self.inputs < self.inputs_drawn {
            format!(" ({} of {})", group(self.inputs), group(self.inputs_drawn))
        } else {
            String::new()
        };
        let mark = if disagrees { " ⚠" } else { "" };
        format!("{value}{spread}{sample}{mark}")
    }
}

/// Times `pass`, which answers `queries_per_pass` queries each call. `warm_up` is the time the
/// caller's own first (checking) pass took; it sizes the batches, so no extra warm-up pass is
/// spent on slow cells: `median_ns = median over batches of batch time / queries per batch`.
pub fn time_passes(
    mut pass: impl FnMut(),
    queries_per_pass: usize,
    warm_up: Duration,
    budget: &TimingBudget,
) -> Timing {
    let queries_per_pass = queries_per_pass.max(1);
    // A second warm-up pass for fast cells: caches and branch predictors settle.
    let mut per_pass = warm_up.max(Duration::from_nanos(1));
    if per_pass < budget.min_batch {
        let t = Instant::now();
        pass();
        per_pass = t.elapsed().max(Duration::from_nanos(1));
    }
    let passes_per_batch = (budget.min_batch.as_secs_f64() / per_pass.as_secs_f64())
        .ceil()
        .clamp(1.0, 1e6) as usize;
    let batch_time = per_pass.as_secs_f64() * passes_per_batch as f64;
    let batches = ((budget.per_cell.as_secs_f64() / batch_time).floor() as usize)
        .clamp(budget.min_batches.max(1), budget.max_batches.max(1));
    let mut per_query: Vec<f64> = Vec::with_capacity(batches);
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..passes_per_batch {
            pass();
        }
        let ns = t.elapsed().as_secs_f64() * 1e9;
        per_query.push(ns / (passes_per_batch * queries_per_pass) as f64);
    }
    per_query.sort_by(f64::total_cmp);
    Timing {
        median_ns: quantile(&per_query, 0.5),
        spread_ns: quantile(&per_query, 0.75) - quantile(&per_query, 0.25),
        batches,
        queries_per_batch: passes_per_batch * queries_per_pass,
    }
}

/// A slow method's limit on its checking pass: it stops once `budget` has passed and at least
/// `min` inputs were answered (`answered ≥ min`).
#[derive(Clone, Copy, Debug)]
pub struct SampleCap {
    /// `budget` = the wall time after which the pass stops.
    pub budget: Duration,
    /// `min` = the fewest inputs answered, whatever it costs.
    pub min: usize,
}

/// The checking pass of a cell: `answer` on `inputs` in order, until `stop(answer)` is true
/// (that answer is kept) or the `cap` says so; returns the answers and the pass's wall time:
/// `answers.len() ≤ inputs.len()`.
///
/// ```
/// use polyquery_report::measure::checking_pass;
///
/// let (answers, _) = checking_pass(&[1, 2, 3, 4], None, |x| x * 10, |a| *a == 20);
/// assert_eq!(answers, [10, 20]);
/// ```
pub fn checking_pass<I, T>(
    inputs: &[I],
    cap: Option<SampleCap>,
    mut answer: impl FnMut(&I) -> T,
    mut stop: impl FnMut(&T) -> bool,
) -> (Vec<T>, Duration) {
    let start = Instant::now();
    let mut out = Vec::with_capacity(inputs.len());
    for (i, x) in inputs.iter().enumerate() {
        if let Some(cap) = cap
            && i >= cap.min
            && start.elapsed() >= cap.budget
        {
            break;
        }
        let a = answer(x);
        let last = stop(&a);
        out.push(a);
        if last {
            break;
        }
    }
    (out, start.elapsed())
}

/// A cell's timing after its checking pass over `k` inputs took `first`: the checking pass
/// alone when it took half the cell's budget, else batches of `pass` ([`time_passes`]):
/// `first ≥ per_cell / 2 ⟹ Timing::single_pass(first, k)`.
pub fn cell_timing(first: Duration, k: usize, budget: &TimingBudget, pass: impl FnMut()) -> Timing {
    if first >= budget.per_cell / 2 {
        Timing::single_pass(first, k)
    } else {
        time_passes(pass, k, first, budget)
    }
}

/// The `q`-quantile of sorted `values` by linear interpolation; 0 for an empty slice.
///
/// ```
/// use polyquery_report::measure::quantile;
///
/// let sorted = [1.0, 2.0, 4.0, 8.0];
/// assert_eq!(quantile(&sorted, 0.5), 3.0); // halfway between 2 and 4
/// assert_eq!((quantile(&sorted, 0.0), quantile(&sorted, 1.0)), (1.0, 8.0));
/// assert_eq!(quantile(&[], 0.5), 0.0);
/// ```
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        len => {
            let pos = q.clamp(0.0, 1.0) * (len - 1) as f64;
            let lo = pos.floor() as usize;
            let hi = (lo + 1).min(len - 1);
            let frac = pos - lo as f64;
            sorted[lo] * (1.0 - frac) + sorted[hi] * frac
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.25), 2.0);
        assert_eq!(quantile(&[7.0], 0.9), 7.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn batches_count_every_pass() {
        let mut calls = 0usize;
        let budget = TimingBudget {
            per_cell: Duration::from_millis(5),
            min_batch: Duration::from_micros(200),
            min_batches: 3,
            max_batches: 5,
        };
        let t = time_passes(
            || {
                calls += 1;
                std::hint::black_box(calls);
            },
            4,
            Duration::from_nanos(10),
            &budget,
        );
        assert!(t.batches >= 3 && t.batches <= 5);
        assert_eq!(t.queries_per_batch % 4, 0);
        // One extra warm-up pass, then every batch's passes.
        assert_eq!(calls, 1 + t.batches * t.queries_per_batch / 4);
    }
}

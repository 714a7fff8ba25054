//! Saving and loading the search structure of a [`NormalVectorMap`] (its polish records and
//! its charts' point locators) as it is, without rebuilding.
//!
//! Where it sits: [`crate::format`] writes the polytope section itself and calls this for
//! the map's section. This file and `pointloc::encode` are the only places that know the
//! map's on-disk arrays: a change of the frozen layout changes them (and
//! [`crate::format::FORMAT_VERSION`]).
//!
//! Layout (little-endian): `num_segments: u64` · `linear: u8` (1: answers by a linear scan) ·
//! `records: count u64, then 16-byte units` (see `records`: per vertex a 32-byte head, then a
//! 10-byte link per neighbour, padded to a unit; read straight into place) · `charts: u32` (always 6) ·
//! per chart its point locator · the hint table: `side: u32` (1 to 4096), then `count: u64`
//! (`2·6·side²`) and per chart, row and column the record starts of its cell's hint and
//! runner-up (`u32` each; `u32::MAX`: the cell has none).
//!
//! A load reads the units into place, then checks them against the (already checked)
//! polytope record by record: vertex `w`'s record must be exactly what `vertex_record` makes
//! of the polytope (its point, id and degree, then per neighbour `q` in the polytope's order
//! the offset rounded at the record's scale and the record start of `q`, then zero padding), records of vertices `0, 1, …`
//! back to back. So the polish, which trusts the records, climbs the real polytope with
//! offsets its error bound covers. Every locator payload and every hint must be a record start
//! (a head).

use super::NormalVectorMap;
use super::chart::NUM_CHARTS;
use super::hints::{self, Hints};
use super::records::{RecordUnit, Records, record_starts, vertex_record};
use crate::codec::{ByteReader, ByteWriter, DecodeError};
use crate::pointloc::PointLocator;
use crate::{Polytope, VertexId};
use std::io::Read;

impl NormalVectorMap {
    /// Appends the records and the charts (not the polytope) to `w`.
    pub(crate) fn encode_search(&self, w: &mut ByteWriter) {
        w.put_len(self.num_segments);
        w.put_u8(u8::from(self.linear));
        w.put_array(&self.records.units);
        w.put_u32(self.charts.len() as u32);
        for chart in &self.charts {
            chart.encode(w);
        }
        w.put_u32(self.hints.side() as u32);
        w.put_u32s(&self.hints.starts);
    }

    /// Reads the records and charts written by [`NormalVectorMap::encode_search`] and joins
    /// them to `polytope`, checking the records against it and every locator index and
    /// payload, so no later query can index out of bounds or climb a wrong adjacency.
    /// O(size); nothing is rebuilt.
    pub(crate) fn decode_search<R: Read>(
        polytope: Polytope,
        r: &mut ByteReader<R>,
    ) -> Result<NormalVectorMap, DecodeError> {
        let num_segments = usize::try_from(r.u64("segment count")?)
            .map_err(|_| DecodeError::corrupt("segment count does not fit in memory"))?;
        let linear = match r.u8("linear scan flag")? {
            0 => false,
            1 => true,
            x => {
                return Err(DecodeError::corrupt(format!(
                    "linear scan flag {x} (expected 0 or 1)"
                )));
            }
        };
        let (records, is_head) = decode_records(&polytope, r)?;
        // Checked: the map answers without the adjacency (rebuilt if a caller asks for it).
        let mut polytope = polytope;
        polytope.release_adjacency();
        let is_payload = |x: u32| is_head.get(x as usize).copied().unwrap_or(false);
        let count = r.u32("chart count")?;
        if count as usize != NUM_CHARTS {
            return Err(DecodeError::corrupt(format!(
                "chart count {count} (a normal vector map has {NUM_CHARTS})"
            )));
        }
        let mut charts = Vec::with_capacity(NUM_CHARTS);
        for c in 0..NUM_CHARTS {
            let locator = PointLocator::decode(r, &is_payload)
                .map_err(|e| prefix(e, &format!("chart {c} ")))?;
            charts.push(locator);
        }
        let map = NormalVectorMap {
            polytope,
            charts,
            records,
            hints: decode_hints(r, &is_payload)?,
            linear,
            num_segments,
        };
        Ok(map)
    }
}

/// Reads the hint table: its side, then `2·6·side²` entries, each a record start or `NO_HINT`.
fn decode_hints<R: Read>(
    r: &mut ByteReader<R>,
    is_payload: &dyn Fn(u32) -> bool,
) -> Result<Hints, DecodeError> {
    let side = r.u32("hint table side")? as usize;
    if !Hints::valid_side(side) {
        return Err(DecodeError::corrupt(format!(
            "hint table side {side} (expected 1 to 4096)"
        )));
    }
    let starts = r.u32s("hint table")?;
    let entries = hints::ENTRIES_PER_CELL * NUM_CHARTS * side * side;
    if starts.len() != entries {
        return Err(DecodeError::corrupt(format!(
            "hint table: {} entries, a side of {side} needs {entries}",
            starts.len()
        )));
    }
    if let Some(at) = starts
        .iter()
        .position(|&x| x != hints::NO_HINT && !is_payload(x))
    {
        return Err(DecodeError::corrupt(format!(
            "hint table entry {at}: {} is not a polish record start",
            starts.get(at).copied().unwrap_or(0)
        )));
    }
    Ok(Hints::new(side, starts))
}

/// Reads the polish records and checks them record by record against `polytope` (see the
/// module notes); also returns which units are record starts.
fn decode_records<R: Read>(
    polytope: &Polytope,
    r: &mut ByteReader<R>,
) -> Result<(Records, Vec<bool>), DecodeError> {
    // The record start of every vertex, from the polytope's degrees (as the build does).
    let (record_of, total) = record_starts(polytope);
    let units: Vec<RecordUnit> = r.array("polish records")?;
    let count = units.len();
    if count != total {
        return Err(DecodeError::corrupt(format!(
            "polish records: {count} units, the polytope needs {total}"
        )));
    }
    if u32::try_from(total).is_err() {
        return Err(DecodeError::corrupt(format!(
            "polish records: {total} units exceed the 32-bit index range"
        )));
    }
    let start = |q: VertexId| record_of.get(q.index()).copied().unwrap_or(u32::MAX);
    let mut is_head = vec![false; count];
    let mut expected = Vec::new();
    for w in polytope.vertex_ids() {
        let at = record_of.get(w.index()).map_or(count, |&x| x as usize);
        expected.clear();
        vertex_record(polytope, w, &start, &mut expected);
        let stored = units.get(at..at + expected.len()).unwrap_or_default();
        if stored.len() != expected.len()
            || stored
                .iter()
                .zip(&expected)
                .any(|(a, b)| a.bytes != b.bytes)
        {
            return Err(DecodeError::corrupt(format!(
                "polish record of vertex {}: differs from the polytope's point, degree, \
                 neighbour offsets or neighbour record starts",
                w.0
            )));
        }
        if let Some(h) = is_head.get_mut(at) {
            *h = true;
        }
    }
    Ok((Records::new(units), is_head))
}

/// `e` with `what` prefixed by `context`.
fn prefix(mut e: DecodeError, context: &str) -> DecodeError {
    let (DecodeError::Truncated { what, .. }
    | DecodeError::Corrupt { what }
    | DecodeError::Io { what, .. }) = &mut e;
    what.insert_str(0, context);
    e
}

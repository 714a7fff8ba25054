//! Saving and loading the search structure of a [`NormalVectorMap`] (its polish records and
//! its charts' point locators) as it is, without rebuilding.
//!
//! Where it sits: [`crate::format`] writes the polytope section itself and calls this for
//! the map's section. This file and `pointloc::encode` are the only places that know the
//! map's on-disk arrays: a change of the frozen layout changes them (and
//! [`crate::format::FORMAT_VERSION`]).
//!
//! Layout (little-endian): `num_segments: u64` · `linear: u8` (1: answers by a linear scan) ·
//! `records: count u64, then per entry point: [f64; 3], vertex: u32, link: u32` (32 bytes,
//! [`RecordEntry`]'s `#[repr(C)]` layout, so the array is read straight into place) ·
//! `charts: u32` (always 6) · per chart its point locator.
//!
//! A load reads the records into place, then checks them against the (already checked) polytope entry by entry: vertex
//! `w`'s record is its head `{point of w, w, degree}` followed by `{point of q, q, record
//! start of q}` for each neighbour `q` in the polytope's order, records of vertices `0, 1, …`
//! back to back. So the polish, which trusts the records, climbs the real polytope. Every
//! locator payload must be a record start (a head).

use super::chart::NUM_CHARTS;
use super::{NormalVectorMap, RecordEntry};
use crate::Polytope;
use crate::codec::{ByteReader, ByteWriter, DecodeError, Element};
use crate::pointloc::PointLocator;
use std::io::Read;

impl Element for RecordEntry {
    fn swap_from_le(&mut self) {
        self.point.swap_from_le();
        self.vertex.swap_from_le();
        self.link.swap_from_le();
    }
}

impl NormalVectorMap {
    /// Appends the records and the charts (not the polytope) to `w`.
    pub(crate) fn encode_search(&self, w: &mut ByteWriter) {
        w.put_len(self.num_segments);
        w.put_u8(u8::from(self.linear));
        w.put_array(&self.records);
        w.put_u32(self.charts.len() as u32);
        for chart in &self.charts {
            chart.encode(w);
        }
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
        Ok(NormalVectorMap {
            polytope,
            charts,
            records,
            linear,
            num_segments,
        })
    }
}

/// Reads the polish records and checks them entry by entry against `polytope` (see the
/// module notes); also returns which entries are record starts.
fn decode_records<R: Read>(
    polytope: &Polytope,
    r: &mut ByteReader<R>,
) -> Result<(Vec<RecordEntry>, Vec<bool>), DecodeError> {
    // The record start of every vertex, from the polytope's degrees (as the build does).
    let mut record_of = Vec::with_capacity(polytope.num_vertices());
    let mut total = 0usize;
    for w in polytope.vertex_ids() {
        record_of.push(total);
        total += 1 + polytope.neighbors(w).len();
    }
    let records: Vec<RecordEntry> = r.array("polish records")?;
    let count = records.len();
    if count != total {
        return Err(DecodeError::corrupt(format!(
            "polish records: {count} entries, the polytope needs {total}"
        )));
    }
    if u32::try_from(total).is_err() {
        return Err(DecodeError::corrupt(format!(
            "polish records: {total} entries exceed the 32-bit index range"
        )));
    }
    let mut is_head = vec![false; count];
    let mut at = 0;
    for w in polytope.vertex_ids() {
        let nbrs = polytope.neighbors(w);
        if let Some(h) = is_head.get_mut(at) {
            *h = true;
        }
        let expected = std::iter::once((w, nbrs.len())).chain(
            nbrs.iter()
                .map(|&q| (q, record_of.get(q.index()).copied().unwrap_or(usize::MAX))),
        );
        for (k, (q, link)) in expected.enumerate() {
            let index = at + k;
            // `count == total`, the sum of these records' lengths: always in range.
            let Some(e) = records.get(index) else {
                return Err(DecodeError::corrupt("polish records: too few entries"));
            };
            if e.vertex != q.0 {
                return Err(DecodeError::corrupt(format!(
                    "polish record entry {index}: vertex {} where the polytope has {}",
                    e.vertex, q.0
                )));
            }
            let p = polytope.points().get(q.index());
            if p.is_none_or(|p| [p.x, p.y, p.z].map(f64::to_bits) != e.point.map(f64::to_bits)) {
                return Err(DecodeError::corrupt(format!(
                    "polish record entry {index}: the point of vertex {} differs from the \
                     polytope's",
                    q.0
                )));
            }
            if e.link as usize != link {
                return Err(DecodeError::corrupt(format!(
                    "polish record entry {index}: link {} where the polytope gives {link} \
                     ({})",
                    e.link,
                    if k == 0 {
                        "the degree"
                    } else {
                        "the neighbour's record start"
                    }
                )));
            }
        }
        at += 1 + nbrs.len();
    }
    Ok((records, is_head))
}

/// `e` with `what` prefixed by `context`.
fn prefix(mut e: DecodeError, context: &str) -> DecodeError {
    let (DecodeError::Truncated { what, .. }
    | DecodeError::Corrupt { what }
    | DecodeError::Io { what, .. }) = &mut e;
    what.insert_str(0, context);
    e
}

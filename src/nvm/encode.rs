//! Saving and loading the search structure of a [`NormalVectorMap`] (its charts: slab owners
//! and point locators) as it is, without rebuilding.
//!
//! Where it sits: [`crate::format`] writes the polytope section itself and calls this for
//! the map's section. This file and `pointloc::encode` are the only places that know the
//! map's on-disk arrays: a change of the frozen layout changes them (and
//! [`crate::format::FORMAT_VERSION`]).
//!
//! Layout (little-endian): `num_segments: u64` · `charts: u32` (always 6) · per chart:
//! `owners: [u32]` (one per slab, a vertex id or `u32::MAX` when segments answer) and the
//! chart's point locator.

use super::chart::NUM_CHARTS;
use super::{Chart, NO_OWNER, NormalVectorMap};
use crate::Polytope;
use crate::format::codec::{ByteReader, ByteWriter, DecodeError};
use crate::pointloc::PointLocator;

impl NormalVectorMap {
    /// Appends the charts (not the polytope) to `w`.
    pub(crate) fn encode_search(&self, w: &mut ByteWriter) {
        w.put_len(self.num_segments);
        w.put_u32(self.charts.len() as u32);
        for chart in &self.charts {
            w.put_u32s(&chart.owners);
            chart.locator.encode(w);
        }
    }

    /// Reads the charts written by [`NormalVectorMap::encode_search`] and joins them to
    /// `polytope`, checking every vertex id, edge id (segment payload) and node index, so no
    /// later query can index out of bounds. O(size); nothing is rebuilt.
    pub(crate) fn decode_search(
        polytope: Polytope,
        r: &mut ByteReader<'_>,
    ) -> Result<NormalVectorMap, DecodeError> {
        let num_segments = usize::try_from(r.u64("segment count")?)
            .map_err(|_| DecodeError::corrupt("segment count does not fit in memory"))?;
        let count = r.u32("chart count")?;
        if count as usize != NUM_CHARTS {
            return Err(DecodeError::corrupt(format!(
                "chart count {count} (a normal vector map has {NUM_CHARTS})"
            )));
        }
        let nv = polytope.num_vertices() as u32;
        let ne = polytope.num_edges() as u32;
        let mut charts = Vec::with_capacity(NUM_CHARTS);
        for c in 0..NUM_CHARTS {
            let owners = r.indices(nv, Some(NO_OWNER), &format!("chart {c} slab owners"))?;
            let locator =
                PointLocator::decode(r, ne).map_err(|e| prefix(e, &format!("chart {c} ")))?;
            if owners.len() != locator.num_boundaries() + 1 {
                return Err(DecodeError::corrupt(format!(
                    "chart {c}: {} slab owners for {} slabs",
                    owners.len(),
                    locator.num_boundaries() + 1
                )));
            }
            charts.push(Chart { locator, owners });
        }
        Ok(NormalVectorMap {
            polytope,
            charts,
            num_segments,
        })
    }
}

/// `e` with `what` prefixed by `context`.
fn prefix(e: DecodeError, context: &str) -> DecodeError {
    match e {
        DecodeError::Truncated {
            what,
            needed,
            available,
        } => DecodeError::Truncated {
            what: format!("{context}{what}"),
            needed,
            available,
        },
        DecodeError::Corrupt { what } => DecodeError::Corrupt {
            what: format!("{context}{what}"),
        },
    }
}

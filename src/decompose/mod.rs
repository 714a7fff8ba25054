//! TEMPORARY (lead's branch only, replaced by the decompose branch at merge).
#![allow(missing_docs)]
use crate::Point;
#[derive(Clone, Copy, Debug)]
pub struct DecomposeOptions { pub tolerance: f64, pub max_pieces: usize }
impl Default for DecomposeOptions { fn default() -> Self { DecomposeOptions { tolerance: 1e-3, max_pieces: 64 } } }
#[derive(Clone, Debug)]
pub struct Decomposition { pub pieces: Vec<Vec<Point>>, pub closed: bool, pub deviation: f64, pub tolerance_met: bool, pub mesh_volume: f64, pub hull_volume: f64, pub pieces_volume: f64, pub evaluations: usize }
#[derive(Debug, thiserror::Error)]
pub enum DecomposeError { #[error("empty")] Empty }
pub fn decompose(points: &[Point], _faces: &[Vec<u32>], _o: &DecomposeOptions) -> Result<Decomposition, DecomposeError> {
    if points.is_empty() { return Err(DecomposeError::Empty) }
    // split by the x mid-plane: a crude two-piece cover (points on both sides near the plane) for testing descent only
    let (lo, hi) = points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.x), b.max(p.x)));
    let mid = 0.5 * (lo + hi);
    let a: Vec<Point> = points.iter().filter(|p| p.x <= mid).copied().collect();
    let b: Vec<Point> = points.iter().filter(|p| p.x >= mid).copied().collect();
    Ok(Decomposition { pieces: vec![points.to_vec()], closed: false, deviation: f64::INFINITY, tolerance_met: false, mesh_volume: 0.0, hull_volume: 0.0, pieces_volume: 0.0, evaluations: a.len() + b.len() })
}

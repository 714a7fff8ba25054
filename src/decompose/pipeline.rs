//! The decomposition end to end: weld, decide closedness, certify the hull, then cut the
//! worst piece until every piece meets the tolerance or the piece budget is spent.
//!
//! Where it sits: the entry point of [`crate::decompose`]; uses every other file of it.

use super::cell::{Plane, box_planes};
use super::deviation::{Stop, bound, bound_beyond};
use super::fill::fill_voids;
use super::merge::{MERGE_REFUSE_SHARE, MERGE_TOLERANCE_SHARE, merge};
use super::solid::MeshSolid;
use super::split::{Certified, Context, Piece};
use super::types::{DecomposeError, DecomposeOptions, Decomposition};
use super::union::union_volume;
use super::weld::{Welded, enclosed_volume, weld};
use crate::hull::convex_hull;
use crate::{Point, Polytope, Vector};

/// The most cut-then-merge phases (each after the first runs only when the last merged
/// some pieces and some piece is still over the tolerance).
const MERGE_PHASES: usize = 4;

/// A merge's certification gets `max_evaluations / MERGE_BUDGET_SHARE` evaluations.
const MERGE_BUDGET_SHARE: usize = 8;

/// Decomposes the solid bounded by the mesh `points` / `faces` (polygons, 0-based indices)
/// into convex pieces whose union contains it, within `options.tolerance` where the piece
/// budget allows. A mesh that is not closed gives one piece, the hull of all its vertices.
///
/// ```
/// use polyquery::decompose::{decompose, DecomposeOptions};
/// use polyquery::Point;
///
/// // An L: the unit cube [0,2]×[0,1]×[0,1] plus [0,1]×[1,2]×[0,1], as one closed mesh.
/// let xy = [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)];
/// let mut points: Vec<Point> = xy.iter().map(|&(x, y)| Point::new(x, y, 0.0)).collect();
/// points.extend(xy.iter().map(|&(x, y)| Point::new(x, y, 1.0)));
/// // The caps are fanned from their first corner: start them at the reflex corner (1, 1).
/// let mut faces = vec![vec![3, 2, 1, 0, 5, 4], vec![9, 10, 11, 6, 7, 8]];
/// faces.extend((0..6u32).map(|i| vec![i, (i + 1) % 6, (i + 1) % 6 + 6, i + 6]));
/// let d = decompose(&points, &faces, &DecomposeOptions::default())?;
/// assert!(d.closed && d.tolerance_met && d.pieces.len() == 2);
/// assert!((d.mesh_volume - 3.0).abs() < 1e-12 && (d.pieces_volume - 3.0).abs() < 1e-3);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn decompose(
    points: &[Point],
    faces: &[Vec<u32>],
    options: &DecomposeOptions,
) -> Result<Decomposition, DecomposeError> {
    check_options(options)?;
    let welded = weld(points, faces)?;
    let tolerance = options.tolerance;
    // Enclosed voids are filled (module `fill`): the solid measured against is `S_filled ⊇ S`.
    let filled = welded.closed.then(|| fill_voids(&welded).0);
    let mesh = filled.as_ref().unwrap_or(&welded);
    let solid = MeshSolid::new(&mesh.points, &mesh.triangles);
    let stop = |surface_only| Stop {
        resolution: tolerance / 4.0,
        threshold: Some(tolerance),
        refuse: None,
        budget: options.max_evaluations,
        surface_only,
    };
    if !welded.closed {
        let hull = convex_hull(&welded.points)?;
        // No early decision: the bound itself is the answer here.
        let tight = Stop {
            threshold: None,
            ..stop(true)
        };
        let b = bound(&solid, &hull, &tight);
        let deviation = if solid.num_triangles() == 0 {
            f64::INFINITY
        } else {
            b.upper
        };
        let volume = hull.volume();
        return Ok(Decomposition {
            pieces: vec![hull.points().to_vec()],
            closed: false,
            deviation,
            tolerance_met: deviation <= tolerance && !b.exhausted,
            mesh_volume: 0.0,
            hull_volume: volume,
            pieces_volume: volume,
            evaluations: b.evaluations,
            budget_exhausted: b.exhausted,
        });
    }
    let (mut ctx, first) = start(mesh, &solid, tolerance)?;
    let hull_volume = first.volume;
    // `known`: pieces inside this one, already certified with their bounds (a merge's two
    // parts). A merge gets a share of the budget (one that needs more is refused: not met,
    // so not merged), and the volume it adds must lie within `MERGE_TOLERANCE_SHARE` of the
    // tolerance (the parts keep theirs): merged pieces stay about as tight as cut ones.
    let certify = |ctx: &mut Context, piece: Piece, known: &[(&Polytope, f64)]| {
        let merging = !known.is_empty();
        let limit = if merging {
            tolerance * MERGE_TOLERANCE_SHARE
        } else {
            tolerance
        };
        let stop = Stop {
            threshold: Some(limit),
            refuse: merging.then_some(tolerance * MERGE_REFUSE_SHARE),
            budget: if merging {
                (options.max_evaluations / MERGE_BUDGET_SHARE).max(1)
            } else {
                options.max_evaluations
            },
            ..stop(false)
        };
        let parts: Vec<&Polytope> = known.iter().map(|(p, _)| *p).collect();
        let b = bound_beyond(&solid, &piece.hull, &parts, &stop);
        ctx.evaluations += b.evaluations;
        let floor = known.iter().map(|(_, b)| *b).fold(0.0, f64::max);
        let refused = merging && b.lower > tolerance * MERGE_REFUSE_SHARE;
        Certified {
            met: !refused && b.upper <= limit && floor <= tolerance && !b.exhausted,
            bound: b.upper.max(floor),
            lower: b.lower,
            witness: b.witness,
            exhausted: b.exhausted,
            splittable: true,
            piece,
        }
    };
    let mut pieces = vec![certify(&mut ctx, first, &[])];
    // Each piece's id, for the merge's memory of refused pairs.
    let (mut ids, mut next_id) = (vec![0], 1);
    let mut rejected = std::collections::HashSet::new();
    // Cut, then merge neighbours; merging frees room under `max_pieces` for more cuts of
    // the pieces still over the tolerance. Each phase either merges or ends the loop.
    for _ in 0..MERGE_PHASES {
        // Each round adds a piece or retires one from cutting: at most 2·max_pieces rounds.
        for _ in 0..2 * options.max_pieces {
            if pieces.len() >= options.max_pieces {
                break;
            }
            let worst = pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.met && p.splittable)
                .max_by(|a, b| {
                    (a.1.lower, a.1.bound)
                        .partial_cmp(&(b.1.lower, b.1.bound))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .map(|(i, _)| i);
            let Some(i) = worst else { break };
            match ctx.best_cut(&pieces[i].piece, pieces[i].witness) {
                Some((a, b)) => {
                    pieces[i] = certify(&mut ctx, a, &[]);
                    ids[i] = next_id;
                    let b = certify(&mut ctx, b, &[]);
                    pieces.push(b);
                    ids.push(next_id + 1);
                    next_id += 2;
                }
                None => pieces[i].splittable = false,
            }
        }
        let merged = merge(
            &mut ctx,
            &mut pieces,
            &mut ids,
            &mut next_id,
            &mut rejected,
            tolerance,
            &certify,
        );
        let cuttable = pieces.iter().any(|p| !p.met && p.splittable);
        if merged == 0 || !cuttable {
            break;
        }
    }
    // A piece not meeting the tolerance stopped as soon as that was decided: tighten its
    // bound to within `tolerance / 4` (or the budget) for the report.
    for p in pieces.iter_mut().filter(|p| !p.met) {
        let tight = Stop {
            threshold: None,
            ..stop(false)
        };
        let b = bound(&solid, &p.piece.hull, &tight);
        ctx.evaluations += b.evaluations;
        p.bound = p.bound.min(b.upper);
        p.exhausted |= b.exhausted;
    }
    let deviation = pieces.iter().map(|p| p.bound).fold(0.0, f64::max);
    Ok(Decomposition {
        closed: true,
        deviation,
        tolerance_met: pieces.iter().all(|p| p.met),
        mesh_volume: enclosed_volume(&welded),
        hull_volume,
        // Merged pieces may overlap: the union's volume, or the sum (an upper bound) when
        // the union has too many fragments to measure.
        pieces_volume: union_volume(&pieces.iter().map(|p| &p.piece.hull).collect::<Vec<_>>())
            .unwrap_or_else(|| pieces.iter().map(|p| p.piece.volume).sum()),
        evaluations: ctx.evaluations,
        budget_exhausted: pieces.iter().any(|p| p.exhausted),
        pieces: pieces
            .into_iter()
            .map(|p| p.piece.hull.points().to_vec())
            .collect(),
    })
}

/// The cut-free start of a closed mesh: the context and the one piece `S ∩ R_0` (`R_0` the
/// mesh's bounding box grown by a thousandth of its diagonal), whose hull is the mesh's.
fn start<'a>(
    welded: &Welded,
    solid: &'a MeshSolid,
    tolerance: f64,
) -> Result<(Context<'a>, Piece), DecomposeError> {
    let polygons: Vec<Vec<Point>> = welded
        .triangles
        .iter()
        .map(|t| t.iter().map(|&i| welded.points[i as usize]).collect())
        .collect();
    let surface: Vec<Point> = polygons.iter().flatten().copied().collect();
    let (lo, hi) = convex_hull(&surface)?.bounding_box();
    let magnitude = lo.coords.amax().max(hi.coords.amax()) + (hi - lo).norm();
    let grow = (hi - lo).norm() * 1e-3 + magnitude * 1e-9;
    let planes = box_planes(&lo.map(|v| v - grow), &hi.map(|v| v + grow));
    let mut ctx = Context {
        solid,
        near: tolerance / 16.0,
        slack: 1e-9 * magnitude,
        evaluations: 0,
    };
    // The piece's points include the surface's, which have a hull: it always builds.
    let first = ctx.piece(planes, polygons).ok_or(DecomposeError::Hull(
        crate::hull::HullError::TooFewDistinct { distinct: 0 },
    ))?;
    Ok((ctx, first))
}

/// The pieces of the solid after cutting it by every plane `n · x = d` of `planes` in turn
/// (each piece a plane crosses is split by it; a plane that would leave a side without a 3D
/// hull leaves that piece whole), each as its hull's vertices: the cut-and-hull step
/// without the greedy choice, to study cuts and check containment. A mesh that is not
/// closed gives one piece, its hull.
///
/// ```
/// use polyquery::decompose::{cut_by_planes, DecomposeOptions};
/// use polyquery::{Point, Vector};
///
/// let points: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// let faces = vec![vec![0, 2, 3, 1], vec![4, 5, 7, 6], vec![0, 1, 5, 4],
///                  vec![2, 6, 7, 3], vec![0, 4, 6, 2], vec![1, 3, 7, 5]];
/// let halves = cut_by_planes(&points, &faces, &[(Vector::x(), 0.5)], &DecomposeOptions::default())?;
/// assert_eq!(halves.len(), 2);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn cut_by_planes(
    points: &[Point],
    faces: &[Vec<u32>],
    planes: &[(Vector, f64)],
    options: &DecomposeOptions,
) -> Result<Vec<Vec<Point>>, DecomposeError> {
    check_options(options)?;
    let welded = weld(points, faces)?;
    if !welded.closed {
        return Ok(vec![convex_hull(&welded.points)?.points().to_vec()]);
    }
    let filled = fill_voids(&welded).0;
    let solid = MeshSolid::new(&filled.points, &filled.triangles);
    let (mut ctx, first) = start(&filled, &solid, options.tolerance)?;
    let mut pieces = vec![first];
    for (n, d) in planes {
        let norm = n.norm();
        if !(norm > 0.0 && norm.is_finite() && d.is_finite()) {
            continue;
        }
        let plane = Plane {
            n: n / norm,
            d: d / norm,
        };
        pieces = pieces
            .into_iter()
            .flat_map(|p| match ctx.cut(&p, &plane) {
                Some((a, b)) => vec![a, b],
                None => vec![p],
            })
            .collect();
    }
    Ok(pieces
        .into_iter()
        .map(|p| p.hull.points().to_vec())
        .collect())
}

/// `tolerance` finite and positive, `max_pieces ≥ 1`, `max_evaluations ≥ 1`.
fn check_options(options: &DecomposeOptions) -> Result<(), DecomposeError> {
    let reason = if !(options.tolerance.is_finite() && options.tolerance > 0.0) {
        format!("tolerance {} is not finite and positive", options.tolerance)
    } else if options.max_pieces == 0 {
        "max_pieces is 0".to_string()
    } else if options.max_evaluations == 0 {
        "max_evaluations is 0".to_string()
    } else {
        return Ok(());
    };
    Err(DecomposeError::Options { reason })
}

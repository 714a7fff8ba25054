//! Many queries in parallel (rayon), deterministically: the items are cut into fixed chunks
//! of [`Checker::CHUNK`] consecutive items, each chunk runs in order on a workspace without
//! warm starts, and the chunks run in parallel. Warm starts then carry along a chunk only, so
//! every result is the same bit for bit for any number of threads and any scheduling —
//! distances and contact parameters included, not only verdicts.

use super::core::Checker;
use super::motion::{MotionOptions, MotionResult};
use super::results::{CheckResult, DistanceResult};
use super::workspace::CheckWorkspace;
use crate::robot::RobotError;
use rayon::prelude::*;

impl Checker {
    /// Consecutive items (configurations, motions) of a parallel batch that share one
    /// workspace, warm starts carrying along them: item `i` runs in chunk `⌊i / CHUNK⌋`,
    /// `CHUNK = 64`.
    pub const CHUNK: usize = 64;

    /// `f(ws, item)` for every item, in parallel on the current rayon pool, results in input
    /// order; item `i` runs on a workspace that starts chunk `⌊i / CHUNK⌋` without warm
    /// starts and has run the chunk's earlier items, in order. Results are therefore the same
    /// for any number of threads: `map_many(items, f, p)[i] = f(ws_i, items[i])` with
    /// `ws_i` = a fresh workspace after `f` on `items[CHUNK·⌊i/CHUNK⌋ .. i]`. `progress(m)`
    /// is called after each chunk of `m` items (from any thread).
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// # let urdf = r#"<robot name="r"><link name="a"/></robot>"#;
    /// # let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// # let checker = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let qs = vec![Vec::<f64>::new(); 100];
    /// let free = checker.map_many(&qs, |ws, q| checker.check_with(ws, q).map(|r| !r.collides), &|_| {});
    /// assert!(free.iter().all(|r| *r.as_ref().unwrap()));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn map_many<T: Sync, R: Send>(
        &self,
        items: &[T],
        f: impl Fn(&mut CheckWorkspace, &T) -> R + Sync + Send,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Vec<R> {
        items
            .par_chunks(Self::CHUNK)
            .map_init(
                || self.workspace(),
                |ws, chunk| {
                    ws.restart();
                    let out: Vec<R> = chunk.iter().map(|item| f(ws, item)).collect();
                    progress(chunk.len());
                    out
                },
            )
            .flatten_iter()
            .collect()
    }

    /// [`Checker::map_many`] on the calling thread with the caller's workspace (no rayon):
    /// the same chunks, each started without warm starts, so the results are the same bit for
    /// bit as `map_many`'s: `map_many_serial(ws, items, f) = map_many(items, f, _)`. For callers
    /// that parallelise themselves (a process pool, a Ray worker) and keep one workspace.
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// # let urdf = r#"<robot name="r"><link name="a"/></robot>"#;
    /// # let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// # let checker = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let qs = vec![Vec::<f64>::new(); 100];
    /// let mut ws = checker.workspace();
    /// let serial = checker.map_many_serial(&mut ws, &qs, |ws, q| checker.distance_with(ws, q).map(|r| r.distance));
    /// let parallel = checker.map_many(&qs, |ws, q| checker.distance_with(ws, q).map(|r| r.distance), &|_| {});
    /// assert_eq!(serial.len(), parallel.len());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn map_many_serial<T, R>(
        &self,
        ws: &mut CheckWorkspace,
        items: &[T],
        f: impl Fn(&mut CheckWorkspace, &T) -> R,
    ) -> Vec<R> {
        let mut out = Vec::with_capacity(items.len());
        for chunk in items.chunks(Self::CHUNK) {
            ws.restart();
            out.extend(chunk.iter().map(|item| f(ws, item)));
        }
        out
    }

    /// Checks many configurations in parallel (rayon), results in input order and the same
    /// for any number of threads (see [`Checker::map_many`]): `check_many(qs)[i] = check(qs[i])`.
    pub fn check_many<Q: AsRef<[f64]> + Sync>(
        &self,
        configurations: &[Q],
    ) -> Vec<Result<CheckResult, RobotError>> {
        self.map_many(
            configurations,
            |ws, q| self.check_with(ws, q.as_ref()),
            &|_| {},
        )
    }

    /// [`Checker::distance`] for many configurations in parallel, results in input order and
    /// bit for bit the same for any number of threads (see [`Checker::map_many`]):
    /// `distance_many(qs)[i] = distance(qs[i])` up to GJK's tolerance (warm starts).
    pub fn distance_many<Q: AsRef<[f64]> + Sync>(
        &self,
        configurations: &[Q],
    ) -> Vec<Result<DistanceResult, RobotError>> {
        self.map_many(
            configurations,
            |ws, q| self.distance_with(ws, q.as_ref()),
            &|_| {},
        )
    }

    /// Certifies many motions in parallel (rayon), results in input order and the same for
    /// any number of threads (see [`Checker::map_many`]):
    /// `check_motions(ms)[i] = check_motion(ms[i].0, ms[i].1)` with `options`.
    pub fn check_motions<Q: AsRef<[f64]> + Sync>(
        &self,
        motions: &[(Q, Q)],
        options: &MotionOptions,
    ) -> Vec<Result<MotionResult, RobotError>> {
        self.map_many(
            motions,
            |ws, (a, b)| self.check_motion_with(ws, a.as_ref(), b.as_ref(), options),
            &|_| {},
        )
    }

    /// [`Checker::check_motion_sampled`] for many motions in parallel, in input order and the
    /// same for any number of threads (see [`Checker::map_many`]):
    /// `check_motions_sampled(ms, r)[i] = check_motion_sampled(ms[i].0, ms[i].1, r)`.
    pub fn check_motions_sampled<Q: AsRef<[f64]> + Sync>(
        &self,
        motions: &[(Q, Q)],
        resolution: f64,
    ) -> Vec<Result<MotionResult, RobotError>> {
        self.map_many(
            motions,
            |ws, (a, b)| self.check_motion_sampled(ws, a.as_ref(), b.as_ref(), resolution),
            &|_| {},
        )
    }
}

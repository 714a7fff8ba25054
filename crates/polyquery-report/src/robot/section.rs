//! What the robot section measured (`per_second = 1e9 / median_ns` of every cell): the
//! methods, queries and units of its rows ([`RobotMethod`], [`RobotQuery`], [`Unit`]), the
//! rows, the cross-checks per scene, the warm load, the motion counts, pinocchio's figures,
//! and the whole [`RobotSection`].
//!
//! Where it sits: a leaf of the robot section (with [`super::plan`]): the bench fills it, the
//! tables and summary lines read it, `results.json` serialises it (key `robot`).

use super::plan::{CONFIGURATIONS_FILE, MOTIONS_FILE};
use crate::measure::{CellTiming, TimingRow};
use crate::named::named_enum;
use crate::status::Status;
use polyquery_synth::robot_scenes::{Motion, configurations_text, motions_text};
use serde::Serialize;

named_enum! {
    /// Who answers a robot cell: `RobotMethod::Nvm.name() = "polyquery (NVM)"`.
    ///
    /// ```
    /// use polyquery_report::robot::RobotMethod;
    ///
    /// assert_eq!(RobotMethod::PlainGjk.name(), "plain GJK (linear scan)");
    /// assert_eq!(RobotMethod::Sampled.to_string(), "sampled at 0.01 rad");
    /// ```
    RobotMethod {
        /// polyquery's checker on normal vector maps: `name() = "polyquery (NVM)"`.
        Nvm = "polyquery (NVM)",
        /// The same checker on linear-scan support: `name() = "plain GJK (linear scan)"`.
        PlainGjk = "plain GJK (linear scan)",
        /// parry3d's checker ([`crate::robot_peer`]): `name() = "parry3d"`.
        Parry = "parry3d",
        /// The certified motion check: `name() = "certified"`.
        Certified = "certified",
        /// The sampled motion check at [`MOTION_RESOLUTION`](super::plan::MOTION_RESOLUTION): `name() = "sampled at 0.01 rad"`.
        Sampled = "sampled at 0.01 rad",
        /// The NVM checker with every mesh as its hull (`MeshShape::Hull`): `name() = "hull"`.
        Hull = "hull",
        /// The NVM checker with non-convex meshes as certified convex pieces
        /// (`MeshShape::Decomposed`): `name() = "decomposed"`.
        Decomposed = "decomposed",
    }
}

named_enum! {
    /// What a robot cell asks: `RobotQuery::Check.name() = "check"`.
    ///
    /// ```
    /// use polyquery_report::robot::RobotQuery;
    ///
    /// assert_eq!(RobotQuery::Distance.name(), "distance");
    /// ```
    RobotQuery {
        /// Whether the configuration collides (stop at the first colliding pair): `name() = "check"`.
        Check = "check",
        /// The minimum distance over the active pairs: `name() = "distance"`.
        Distance = "distance",
        /// Whether a straight joint-space motion is free: `name() = "motion"`.
        Motion = "motion",
    }
}

named_enum! {
    /// What a robot cell's `per_second` counts: `Unit::Motions.name() = "motions"`.
    ///
    /// ```
    /// use polyquery_report::robot::Unit;
    ///
    /// assert_eq!(Unit::Configurations.to_string(), "configurations");
    /// ```
    Unit {
        /// Configurations checked: `name() = "configurations"`.
        Configurations = "configurations",
        /// Motions checked: `name() = "motions"`.
        Motions = "motions",
    }
}

/// One timed cell: a method answering one query on one scene with some threads
/// (`per_second = 1e9 / median_ns`).
#[derive(Clone, Debug, Serialize)]
pub struct RobotRow {
    /// `scene` = the scene's slug ([`SceneSpec::slug`](super::plan::SceneSpec::slug)); `table_shelf` for motions.
    pub scene: String,
    /// `query` ∈ {`check`, `distance`, `motion`}.
    pub query: RobotQuery,
    /// `method` = which checker answered ([`RobotMethod::name`]).
    pub method: RobotMethod,
    /// `threads` = 1, or the all-threads pool's size.
    pub threads: usize,
    /// `unit` ∈ {`configurations`, `motions`}: what `per_second` counts.
    pub unit: Unit,
    /// `status` ∈ {`ok`, `disagrees`, `failed`}.
    pub status: Status,
    /// `note` = why it failed or disagrees, or `""`.
    pub note: String,
    /// The timing over the configurations (motions), with the columns of [`TimingRow::Robot`]:
    /// `per_second = 1e9 / median_ns` configurations (or motions) per second; a capped method
    /// times a prefix of those drawn (`inputs < inputs_drawn`).
    #[serde(flatten, serialize_with = "serialize_timing")]
    pub timing: CellTiming,
}

/// A robot row's timing under the robot columns ([`TimingRow::Robot`]).
fn serialize_timing<S: serde::Serializer>(t: &CellTiming, s: S) -> Result<S::Ok, S::Error> {
    t.serialize_as(TimingRow::Robot, s)
}

/// Two checkers' verdicts on the same configurations: `disagreements ≤ compared`.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct Agreement {
    /// `compared` = configurations both answered.
    pub compared: usize,
    /// `disagreements` = configurations whose verdicts differ.
    pub disagreements: usize,
    /// `max_distance_difference = max |d₁ − d₂|` in metres over the configurations both
    /// answered by distance (`None` when none).
    pub max_distance_difference: Option<f64>,
    /// `distances_compared` = configurations both answered by distance.
    pub distances_compared: usize,
}

/// A configuration where parry3d's verdict differs from ours (`ours ≠ parry`), with both
/// minimum distances (0 when colliding): near contact, one of them is within a rounding error of 0.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct PeerDisagreement {
    /// `configuration` = its index in [`CONFIGURATIONS_FILE`] (line `configuration + 1`).
    pub configuration: usize,
    /// `ours` = polyquery's verdict (true: colliding).
    pub ours: bool,
    /// `parry` = parry3d's verdict.
    pub parry: bool,
    /// `our_distance` = polyquery's minimum distance there, metres.
    pub our_distance: Option<f64>,
    /// `parry_distance` = parry3d's minimum distance there, metres.
    pub parry_distance: Option<f64>,
}

/// What one scene is and how the checkers agree on it: `colliding_fraction = colliding / configurations`.
#[derive(Clone, Debug, Serialize)]
pub struct RobotScene {
    /// `scene` = [`SceneSpec::slug`](super::plan::SceneSpec::slug).
    pub scene: String,
    /// `label` = [`SceneSpec::label`](super::plan::SceneSpec::label).
    pub label: String,
    /// `obstacles` = the scene's obstacles.
    pub obstacles: usize,
    /// `largest_hull` = the most hull vertices of one obstacle (0 without hulls).
    pub largest_hull: usize,
    /// `active_pairs` = link–link plus link–obstacle pairs checked.
    pub active_pairs: usize,
    /// `colliding_fraction` = colliding configurations / configurations (NVM checker, all of them).
    pub colliding_fraction: f64,
    /// `setup_seconds` = building or loading the obstacles' maps and both checkers.
    pub setup_seconds: f64,
    /// `vs_plain_gjk` = NVM against plain GJK (must agree exactly).
    pub vs_plain_gjk: Agreement,
    /// `vs_parry` = NVM against parry3d (`None` without the `peers` feature).
    pub vs_parry: Option<Agreement>,
    /// `parry_disagreements` = the first [`LISTED_DISAGREEMENTS`](super::plan::LISTED_DISAGREEMENTS) configurations parry3d decides otherwise.
    pub parry_disagreements: Vec<PeerDisagreement>,
    /// `all_threads_agree` = the all-threads answers equal the one-thread answers (verdicts
    /// exactly, distances within [`DISTANCE_TOLERANCE`](super::plan::DISTANCE_TOLERANCE)).
    pub all_threads_agree: bool,
}

/// Loading the Panda a second time: `median_ms = median of the timed loads`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct WarmLoad {
    /// `median_ms` = median wall time of URDF + SRDF + scene + `Checker::new`, warm cache, ms.
    pub median_ms: f64,
    /// `spread_ms = Q3 − Q1` of the loads, ms.
    pub spread_ms: f64,
    /// `loads` = timed loads.
    pub loads: usize,
    /// `maps_built` = mesh maps built during the timed loads (0: all from the cache).
    pub maps_built: usize,
    /// `cache_hits` = maps read from the cache per load.
    pub cache_hits: usize,
}

/// The motion checks: certified against sampled on the same motions: `missed_by_sampled ≤ colliding_certified`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct MotionSummary {
    /// `motions` = random motions checked.
    pub motions: usize,
    /// `resolution` = the sampled check's step in radians ([`MOTION_RESOLUTION`](super::plan::MOTION_RESOLUTION)).
    pub resolution: f64,
    /// `colliding_certified` = motions the certified check finds colliding.
    pub colliding_certified: usize,
    /// `colliding_sampled` = motions the sampled check finds colliding.
    pub colliding_sampled: usize,
    /// `missed_by_sampled` = certified colliding, sampled free (contacts between samples).
    pub missed_by_sampled: usize,
    /// `contradictions` = sampled colliding, certified free (never expected: a certified
    /// check is never "free" for a colliding motion).
    pub contradictions: usize,
    /// `failed` = motions the certified check could not finish (too many steps).
    pub failed: usize,
}

/// pinocchio + coal's figures from `benches/robot_pinocchio.py --out FILE`: `modes[i] = (mode, per second)`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PinocchioFigures {
    /// `file` = the JSON file read, or the command that measured them when `run_by_report`.
    pub file: String,
    /// `run_by_report` = this report ran `benches/robot_pinocchio.py` itself, on its own
    /// inputs and on this machine (else the figures were read from `--pinocchio FILE`).
    pub run_by_report: bool,
    /// `versions` = `pinocchio X, coal Y, numpy Z, python W` as the script recorded them.
    pub versions: String,
    /// `configurations` = what the script ran on (a file path, or random).
    pub configurations: String,
    /// `n` = configurations it measured.
    pub n: usize,
    /// `same_configurations` = it ran on this report's [`CONFIGURATIONS_FILE`] with as many
    /// configurations (this report's are reproducible from the seed).
    pub same_configurations: bool,
    /// `colliding_fraction` = its colliding fraction.
    pub colliding_fraction: Option<f64>,
    /// `modes[i] = (mode, per second, threads, unit)`.
    pub modes: Vec<PinocchioMode>,
    /// `motions_colliding` = colliding motions its sampled motion check found.
    pub motions_colliding: Option<usize>,
    /// `motions` = motions it checked.
    pub motions: Option<usize>,
    /// `same_motions` = it ran on this report's [`MOTIONS_FILE`] with as many motions.
    pub same_motions: bool,
    /// `tolerances` = the GJK/EPA tolerances it used.
    pub tolerances: String,
}

/// One mode of the pinocchio script: `per_second = inputs / seconds` of `unit`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PinocchioMode {
    /// `mode` = the script's mode key (`check_loop`, `check_batched_1_thread`, …).
    pub mode: String,
    /// `per_second` = the best of its rounds (the script's headline figure).
    pub per_second: f64,
    /// `median_per_second` = the median of its rounds, when it recorded one.
    pub median_per_second: Option<f64>,
    /// `threads` = its thread count (1 unless batched over several).
    pub threads: usize,
    /// `unit` ∈ {`configurations`, `motions`}.
    pub unit: Unit,
}

/// One link mesh's decomposition (`MeshShape::Decomposed`): `hull_over_mesh = hull volume / mesh volume`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkDecomposition {
    /// `link` = the link's name.
    pub link: String,
    /// `pieces` = convex pieces (1: the hull is within the tolerance).
    pub pieces: usize,
    /// `deviation` = certified bound on how far the pieces reach beyond the mesh's solid, metres.
    pub deviation: f64,
    /// `tolerance_met = deviation ≤ tolerance`.
    pub tolerance_met: bool,
    /// `hull_over_mesh = hull volume / mesh volume`.
    pub hull_over_mesh: f64,
    /// `pieces_over_mesh = pieces' volume / mesh volume`.
    pub pieces_over_mesh: f64,
    /// `seconds` = `DecompositionSummary::seconds`: the decomposition's time when it was built
    /// (the shape cache keeps it, so a warm load shows the first build's time).
    pub seconds: f64,
}

/// One mesh shape's checker on the UR5 against the exact meshes' verdicts:
/// `false_alarms = #{ours colliding, exact free}`, `missed = #{exact colliding, ours free}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MeshShapeResult {
    /// `method` ∈ {`hull`, `decomposed`}.
    pub method: RobotMethod,
    /// `build_seconds` = `Checker::new` wall time (decompositions from the shape cache when there).
    pub build_seconds: f64,
    /// `colliding` = configurations this checker calls colliding.
    pub colliding: usize,
    /// `missed` = colliding by the exact meshes, free by this checker (must be 0).
    pub missed: usize,
    /// `false_alarms` = free by the exact meshes, colliding by this checker.
    pub false_alarms: usize,
    /// `links` = each decomposed mesh (empty for `hull`).
    pub links: Vec<LinkDecomposition>,
}

impl MeshShapeResult {
    /// `total_pieces = Σ links[i].pieces`.
    pub fn total_pieces(&self) -> usize {
        self.links.iter().map(|l| l.pieces).sum()
    }

    /// `largest_deviation = max links[i].deviation` (`None` without decomposed links).
    pub fn largest_deviation(&self) -> Option<f64> {
        self.links.iter().map(|l| l.deviation).reduce(f64::max)
    }
}

/// The UR5 on the table top, hulls against decomposed meshes, held to pinocchio + coal's
/// exact-mesh verdicts (`data/robots/ur5/expected_2000.txt`): `methods = [hull, decomposed]`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ur5Section {
    /// `folder` = the UR5's data folder.
    pub folder: String,
    /// `configurations` = configurations checked (of [`UR5_CONFIGURATIONS`](super::plan::UR5_CONFIGURATIONS)).
    pub configurations: usize,
    /// `subset_seed` = the random subset's seed (`None`: all of them, in file order).
    pub subset_seed: Option<u64>,
    /// `exact_colliding` = configurations colliding by the exact meshes (self or scene).
    pub exact_colliding: usize,
    /// `tolerance` = the decomposition's tolerance asked for, metres.
    pub tolerance: f64,
    /// `methods` = one per mesh shape measured, hull first.
    pub methods: Vec<MeshShapeResult>,
    /// `pinocchio_exact` = pinocchio + coal's checks with the exact meshes (triangle BVHs) on
    /// all of configs_2000.txt, when this report could measure them.
    pub pinocchio_exact: Option<PinocchioFigures>,
}

impl Ur5Section {
    /// The result of `method`: `method(m)?.method = m`.
    pub fn method(&self, method: RobotMethod) -> Option<&MeshShapeResult> {
        self.methods.iter().find(|m| m.method == method)
    }
}

/// Everything the robot section measured: `rows` = scenes × queries × methods × threads plus the motion cells.
#[derive(Clone, Debug, Serialize)]
pub struct RobotSection {
    /// `configurations` = random configurations per scene (the same in every scene).
    pub configurations: usize,
    /// `configuration_seed` = [`CONFIGURATION_SEED`](super::plan::CONFIGURATION_SEED).
    pub configuration_seed: u64,
    /// `threads` = the all-threads pool's size.
    pub threads: usize,
    /// `configurations_file` = [`CONFIGURATIONS_FILE`] (in the output folder).
    pub configurations_file: String,
    /// `motions_file` = [`MOTIONS_FILE`] (in the output folder).
    pub motions_file: String,
    /// `folder` = the output folder the two files are written to (as given).
    pub folder: String,
    /// `peer_available` = parry3d was compiled in (feature `peers`).
    pub peer_available: bool,
    /// `scenes` = one per scene measured, in table order.
    pub scenes: Vec<RobotScene>,
    /// `rows` = every timed cell.
    pub rows: Vec<RobotRow>,
    /// `warm_load` = the second load's time (`None` when it failed: see `notes`).
    pub warm_load: Option<WarmLoad>,
    /// `motions` = the motion checks' counts (`None` when they failed).
    pub motions: Option<MotionSummary>,
    /// `pinocchio` = figures read from `--pinocchio FILE` or measured by this report.
    pub pinocchio: Option<PinocchioFigures>,
    /// `pinocchio_missing` = why pinocchio + coal were not measured (`None` when they were):
    /// e.g. `"python3 cannot import pinocchio and coal"`.
    pub pinocchio_missing: Option<String>,
    /// `ur5` = the UR5's hulls against decomposed meshes (`None` when it failed: see `notes`);
    /// its timed cells are in `rows` (scene [`UR5_SCENE`](super::plan::UR5_SCENE)).
    pub ur5: Option<Ur5Section>,
    /// `notes` = what failed or was skipped, and why.
    pub notes: Vec<String>,
    /// `load` = the machine's load before and after the section (set by [`crate::run::measure`]).
    pub load: Option<crate::machine::SectionLoad>,
    /// The configurations, for [`CONFIGURATIONS_FILE`] (not in the JSON): `configuration_values.len() = configurations`.
    #[serde(skip)]
    pub configuration_values: Vec<Vec<f64>>,
    /// The motions, for [`MOTIONS_FILE`] (not in the JSON): `motion_values[i] = (q0, q1)`.
    #[serde(skip)]
    pub motion_values: Vec<Motion>,
}

impl RobotSection {
    /// The row of (`scene`, `query`, `method`, `threads`), when measured:
    /// `row(s, q, m, t)?.scene = s`.
    pub fn row(
        &self,
        scene: &str,
        query: RobotQuery,
        method: RobotMethod,
        threads: usize,
    ) -> Option<&RobotRow> {
        self.rows.iter().find(|r| {
            r.scene == scene && r.query == query && r.method == method && r.threads == threads
        })
    }

    /// The usable median ns per input of a row: `time(…) = row(…).timing.median_ns` unless failed.
    pub fn time(
        &self,
        scene: &str,
        query: RobotQuery,
        method: RobotMethod,
        threads: usize,
    ) -> Option<f64> {
        self.row(scene, query, method, threads)
            .filter(|r| r.status != Status::Failed)
            .and_then(|r| r.timing.median_ns)
            .filter(|t| t.is_finite() && *t > 0.0)
    }

    /// The scanned scenes measured, ascending by hull size: `scan_scenes()[i] = (slug, vertices)`.
    pub fn scan_scenes(&self) -> Vec<(String, usize)> {
        let mut v: Vec<(String, usize)> = self
            .scenes
            .iter()
            .filter(|x| x.scene.starts_with("scan_"))
            .map(|x| (x.scene.clone(), x.largest_hull))
            .collect();
        v.sort_by_key(|x| x.1);
        v
    }

    /// The two input files of `benches/robot_pinocchio.py` as (file name, text):
    /// `inputs()[0] = (CONFIGURATIONS_FILE, one configuration per line)`, then [`MOTIONS_FILE`].
    pub fn inputs(&self) -> [(&'static str, String); 2] {
        [
            (
                CONFIGURATIONS_FILE,
                configurations_text(&self.configuration_values),
            ),
            (MOTIONS_FILE, motions_text(&self.motion_values)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `results.json` keeps a robot row's keys, in order, with the timing flattened into it
    /// (`per_second` from the median; no `repetitions`); an untimed row has nulls.
    #[test]
    fn a_robot_row_serialises_with_its_columns_in_order() {
        let mut row = RobotRow {
            scene: "self".into(),
            query: RobotQuery::Check,
            method: RobotMethod::Nvm,
            threads: 1,
            unit: Unit::Configurations,
            status: Status::Ok,
            note: String::new(),
            timing: CellTiming {
                median_ns: Some(2_000.0),
                spread_ns: Some(100.0),
                batches: 7,
                repetitions: 70,
                inputs: 10,
                inputs_drawn: 10,
            },
        };
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            "{\"scene\":\"self\",\"query\":\"check\",\"method\":\"polyquery (NVM)\",\
             \"threads\":1,\"unit\":\"configurations\",\"status\":\"ok\",\"note\":\"\",\
             \"median_ns\":2000.0,\"spread_ns\":100.0,\"per_second\":500000.0,\"batches\":7,\
             \"inputs\":10,\"inputs_drawn\":10}"
        );
        row.timing = CellTiming::default();
        let json = serde_json::to_string(&row).unwrap();
        assert!(
            json.ends_with(
                "\"median_ns\":null,\"spread_ns\":null,\"per_second\":null,\"batches\":0,\
                 \"inputs\":0,\"inputs_drawn\":0}"
            ),
            "{json}"
        );
    }
}

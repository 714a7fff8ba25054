//! Quick measurement: Panda with table and shelf, configurations per second, one thread.
use polyquery::robot::*;
use std::path::Path;
use std::time::Instant;
fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda");
    let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &PackageDirs::new()).unwrap();
    let allowed = AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot).unwrap();
    let scene = Scene::from_json_file(&dir.join("scene_table_shelf.json")).unwrap();
    let checker = Checker::new(
        &robot,
        &scene,
        &allowed,
        &ShapeCache::disabled(),
        CheckerOptions::default(),
    )
    .unwrap();
    let mut state = 0x9E3779B97F4A7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let limits: Vec<_> = robot.limits().collect();
    let qs: Vec<Vec<f64>> = (0..100_000)
        .map(|_| {
            limits
                .iter()
                .map(|l| l.lower + (l.upper - l.lower) * next())
                .collect()
        })
        .collect();
    let mut ws = checker.workspace();
    for round in 0..3 {
        let t = Instant::now();
        let mut hits = 0;
        let mut counts = (0u64, 0u64, 0u64);
        for q in &qs {
            let (r, c) = checker.check_counted(&mut ws, q).unwrap();
            hits += r.collides as usize;
            counts.0 += c.candidate_pairs as u64;
            counts.1 += c.gjk_runs as u64;
            counts.2 += c.support_calls as u64;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "round {round} check: {:.0}/s, colliding {:.3}, per config: candidates {:.2} gjk {:.2} support {:.2}",
            qs.len() as f64 / s,
            hits as f64 / qs.len() as f64,
            counts.0 as f64 / qs.len() as f64,
            counts.1 as f64 / qs.len() as f64,
            counts.2 as f64 / qs.len() as f64
        );
    }
    let t = Instant::now();
    let mut c2 = (0u64, 0u64);
    for q in &qs[..20000] {
        let (_, c) = checker.distance_counted(&mut ws, q).unwrap();
        c2.0 += c.gjk_runs as u64;
        c2.1 += c.support_calls as u64;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "distance: {:.0}/s gjk {:.2} support {:.2}",
        20000.0 / s,
        c2.0 as f64 / 20000.0,
        c2.1 as f64 / 20000.0
    );
    let t = Instant::now();
    let r = checker.check_many(&qs);
    println!(
        "check_many all threads: {:.0}/s ({})",
        qs.len() as f64 / t.elapsed().as_secs_f64(),
        r.len()
    );
}

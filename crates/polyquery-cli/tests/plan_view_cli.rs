//! `polyquery robot plan --problems DIR --html F` on two shipped MotionBenchMaker Panda
//! problems: the page is self-contained (no address, no external script), holds one view with
//! a picker over both problems, its frames are the library's forward kinematics along each
//! planned path (to the page's 0.1 mm rounding) with one frame per waypoint, and headless
//! Chromium draws it with WebGL (SwiftShader): the viewer reports `data-status="drawn"` and the
//! canvas's non-background pixels, and the screenshot is kept (its path is printed).

use crate::common::binary::{s, stdout_json_lines, succeeds};
use crate::common::browser::{chromium, chromium_or_skip, png_width};
use crate::robot_plan_cli::{copy_problems, panda, plan_args};
use polyquery::robot::{LinkPoses, MotionRequest};
use polyquery_report::view::robot_geometry;
use serde_json::Value;
use std::path::Path;

/// The JSON block of the page's one view.
fn view_data(html: &str) -> Value {
    let open = "<script type=\"application/json\" class=\"pq-data\">";
    let at = html.find(open).expect("the view's data") + open.len();
    let end = at + html[at..].find("</script>").expect("its end");
    serde_json::from_str(&html[at..end]).expect("the view's data is JSON")
}

/// The attribute `name="…"` of the view element in a dumped DOM.
fn attribute<'a>(dom: &'a str, name: &str) -> &'a str {
    let view = &dom[dom
        .find("id=\"pq-view-plan\"")
        .expect("the view in the DOM")..];
    let tag = &view[..view.find('>').unwrap()];
    let key = format!("{name}=\"");
    let at = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    &tag[at..at + tag[at..].find('"').unwrap()]
}

#[test]
fn html_page_draws_the_plans_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let problems = [("box_panda", "0001"), ("cage_panda", "0001")];
    copy_problems(dir.path(), &problems);
    let page = dir.path().join("plan.html");
    let out = succeeds(plan_args(&[
        "--problems",
        &s(dir.path()),
        "--html",
        &s(&page),
        "--threads",
        "2",
    ]));
    let lines = stdout_json_lines(&out);
    let html = std::fs::read_to_string(&page).expect("the page was written");
    for outside in ["http://", "https://", "<script src", "<link"] {
        assert!(
            !html.contains(outside),
            "the page reaches outside: {outside}"
        );
    }
    assert!(html.contains("<select class=\"pq-picker\""), "no picker");

    // The frames are the library's forward kinematics at the path's waypoints.
    let loaded = panda();
    let geometry = robot_geometry(&loaded.checker);
    let data = view_data(&html);
    assert_eq!(
        data["links"].as_array().unwrap().len(),
        geometry.links.len()
    );
    let shown = data["problems"].as_array().unwrap();
    assert_eq!(shown.len(), problems.len());
    let mut poses = LinkPoses::new(&loaded.robot);
    for ((line, view), (set, n)) in lines.iter().zip(shown).zip(problems) {
        assert_eq!(view["name"], line["problem"]);
        let path: Vec<Vec<f64>> = match line["path"].as_array() {
            Some(path) => path
                .iter()
                .map(|q| {
                    q.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_f64().unwrap())
                        .collect()
                })
                .collect(),
            None => {
                let request = MotionRequest::from_yaml_file(
                    &dir.path().join(set).join(format!("request{n}.yaml")),
                    &loaded.robot,
                )
                .unwrap();
                vec![request.start, request.goal]
            }
        };
        let frames = view["frames"].as_array().unwrap();
        let waypoints: Vec<usize> = view["waypoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(
            waypoints.len(),
            path.len(),
            "{set}/{n}: one frame per waypoint"
        );
        assert_eq!(waypoints[0], 0);
        assert_eq!(*waypoints.last().unwrap(), frames.len() - 1);
        for (q, &w) in path.iter().zip(&waypoints) {
            loaded.robot.forward_kinematics(q, &mut poses).unwrap();
            let frame = frames[w].as_array().unwrap();
            assert_eq!(frame.len(), 7 * geometry.links.len());
            for (k, (link, _)) in geometry.links.iter().enumerate() {
                let p = loaded.checker.base_pose() * poses.as_slice()[*link];
                let t = p.translation.vector;
                for (axis, want) in [t.x, t.y, t.z].into_iter().enumerate() {
                    let got = frame[7 * k + axis].as_f64().unwrap();
                    // Written with 4 decimals: within 0.05 mm (+ rounding of the sum).
                    assert!(
                        (got - want).abs() <= 5.1e-5,
                        "{set}/{n} link {link}: {got} vs {want}"
                    );
                }
                // The rotation: the same quaternion (up to sign), each part to 4 decimals.
                let q = p.rotation.coords;
                let got: Vec<f64> = (3..7).map(|i| frame[7 * k + i].as_f64().unwrap()).collect();
                let sign = if q.w < 0.0 { -1.0 } else { 1.0 };
                for (g, want) in got.iter().zip([q.x, q.y, q.z, q.w]) {
                    assert!(
                        (g - sign * want).abs() <= 5.1e-5,
                        "{set}/{n} link {link}: {got:?} vs {q:?}"
                    );
                }
            }
        }
    }

    // Drawn in a browser.
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let profile = dir.path().join("profile");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plan_view.png");
    // One run: the screenshot, then the DOM as the viewer left it.
    let dom = chromium(
        &browser,
        &profile,
        (1100, 900),
        &[
            "--virtual-time-budget=5000".into(),
            format!("--screenshot={}", shot.display()),
            "--dump-dom".into(),
            format!("file://{}", page.display()),
        ],
    );
    assert_eq!(attribute(&dom, "data-status"), "drawn");
    let pixels: usize = attribute(&dom, "data-pixels").parse().unwrap();
    // The canvas is 960 × 600: the robot and its obstacles cover well over 1 % of it.
    assert!(pixels > 960 * 600 / 100, "only {pixels} pixels drawn");
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert_eq!(png_width(&png), 1100);
    println!(
        "plan view screenshot: {} ({pixels} non-background pixels in the canvas)",
        shot.display()
    );
}

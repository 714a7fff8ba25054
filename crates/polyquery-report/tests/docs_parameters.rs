//! The report's parameters that docs/getting-started.md quotes (sizes, directions, pose
//! pairs, configurations, motions, obstacles, problems, output folders) are the report's
//! own constants, so the page cannot drift from what `polyquery report` runs. Text is compared
//! with runs of white space as one space, so a quoted phrase may wrap.

use crate::quoted;
use polyquery_report::format::group;
use polyquery_report::planning::{QUICK_PROBLEMS, VAMP_FIGURES, VIEWED_PROBLEMS};
use polyquery_report::robot::{
    DEFAULT_CONFIGURATIONS, DEFAULT_MOTIONS, DEFAULT_SCAN_SIZES, QUICK_CONFIGURATIONS,
    QUICK_MOTIONS, QUICK_SCAN_SIZES, RANDOM_OBSTACLES,
};
use polyquery_report::view::scene::{FRAME_STEP, FRAMES_PER_EDGE, MAX_FRAMES};
use polyquery_report::workload::{
    DEFAULT_DIRECTIONS, DEFAULT_QUERIES, DEFAULT_SIZES, QUICK_DIRECTIONS, QUICK_QUERIES,
    QUICK_SIZES,
};
use polyquery_report::{DEFAULT_OUT, QUICK_OUT};

const PAGE: &str = "docs/getting-started.md";

/// Asserts that the page quotes `text`, white space squeezed.
fn assert_quotes(text: &str) {
    quoted::assert_quotes(PAGE, text);
}

/// `10⁴` for 10,000: a power of ten written as the page writes it.
fn power_of_ten(n: usize) -> String {
    const DIGITS: [&str; 10] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"];
    let exponent = (n as f64).log10().round() as usize;
    assert_eq!(10usize.pow(exponent as u32), n, "{n} is not a power of ten");
    let digits = exponent.to_string();
    let raised: String = digits
        .bytes()
        .map(|d| DIGITS[(d - b'0') as usize])
        .collect();
    format!("10{raised}")
}

#[test]
fn getting_started_quotes_the_report_parameters() {
    let (first, last) = (DEFAULT_SIZES[0], DEFAULT_SIZES[DEFAULT_SIZES.len() - 1]);
    assert_quotes(&format!(
        "hulls of {} … {} vertices",
        group(first),
        group(last)
    ));
    assert_quotes(&format!("`{DEFAULT_OUT}/index.html`"));
    assert_quotes(&format!(
        "timed on {} distinct random unit directions per hull and the pair queries on {} random pose pairs per hull ({} overlapping ones",
        group(DEFAULT_DIRECTIONS),
        group(DEFAULT_QUERIES),
        group(DEFAULT_QUERIES / 2)
    ));
    assert_quotes(&format!(
        "`--quick` (sizes up to {}, {} pose pairs, {} directions)",
        group(QUICK_SIZES[QUICK_SIZES.len() - 1]),
        group(QUICK_QUERIES),
        group(QUICK_DIRECTIONS)
    ));
    assert_quotes(&format!("writes `{QUICK_OUT}/`"));
    assert_quotes(&format!("among {} random obstacles", RANDOM_OBSTACLES.0));
    let powers = |sizes: &[usize]| {
        let p: Vec<String> = sizes.iter().map(|&n| power_of_ten(n)).collect();
        p.join(", ")
    };
    assert_quotes(&format!(
        "one scanned obstacle of {} hull vertices ({} with `--quick`)",
        powers(&DEFAULT_SCAN_SIZES),
        powers(&QUICK_SCAN_SIZES)
    ));
    assert_quotes(&format!(
        "the same {} random configurations ({} with `--quick`)",
        group(DEFAULT_CONFIGURATIONS),
        group(QUICK_CONFIGURATIONS)
    ));
    assert_quotes(&format!(
        "on the same {} random motions ({} with `--quick`)",
        group(DEFAULT_MOTIONS),
        QUICK_MOTIONS
    ));
    let words = ["zero", "one", "two", "three", "four", "five"];
    assert_quotes(&format!("({} with `--quick`)", words[QUICK_PROBLEMS.len()]));
    assert_quotes(&format!("of the first {} embedded", words[VIEWED_PROBLEMS]));
}

/// VAMP's figures are quoted, not measured here: docs/planning.md's row and the report's
/// planning section quote the same strings (`VAMP_FIGURES`), and the prose the same median.
#[test]
fn planning_page_quotes_the_reports_vamp_figures() {
    let [solved, median, mean, p95, simplify, length, exact] = VAMP_FIGURES;
    let page = "docs/planning.md";
    let row = quoted::row(page, "VAMP 0.6.4");
    assert_eq!(row[1], solved, "{row:?}");
    assert_eq!(row[2], format!("{median} / {mean} / {p95}"), "{row:?}");
    assert_eq!(row[3], simplify, "{row:?}");
    assert_eq!(row[4], length, "{row:?}");
    let collide = exact.split(" (").next().unwrap_or(exact);
    assert!(
        row[5].starts_with(collide),
        "{row:?} does not start with {collide}"
    );
    quoted::assert_quotes(page, &format!("median {median}, mean {mean}"));
}

/// The plan viewer's frame rule as docs/planning.md describes it is the one the page builder
/// uses (`view::scene`'s constants).
#[test]
fn planning_page_quotes_the_viewer_frames() {
    let (fewest, most) = FRAMES_PER_EDGE;
    quoted::assert_quotes(
        "docs/planning.md",
        &format!(
            "at {fewest}–{most} frames along each edge (one per {FRAME_STEP} of joint-space \
             length, at most {} per problem)",
            group(MAX_FRAMES)
        ),
    );
}

//! The figures the documentation quotes, read back so that a test can hold them to what the
//! code computes: a cell of a Markdown table in `docs/*.md`, or a line of a page. A test that
//! computes a counted figure (pieces, collisions, support calls, bytes) asserts that the page
//! quotes the same value, so a page never goes stale (timings are measurements and are not
//! checked; they carry their command and machine beside them).
//!
//! A leaf shared by the test programs of the library, of the report crate and of the command
//! line (which include this file by path), so pages are found from the repository's root.

use std::path::{Path, PathBuf};

/// The repository's root: the nearest folder above the test's crate holding `ARCHITECTURE.md`.
pub fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("ARCHITECTURE.md").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// The text of `page` (a path from the repository's root, e.g. `docs/decomposition.md`).
pub fn page(page: &str) -> String {
    let path = root().join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of the Markdown table row of `page` whose first cell starts with `label`
/// (trimmed; the first cell included): panics unless exactly one row matches.
pub fn row(page_name: &str, label: &str) -> Vec<String> {
    let text = page(page_name);
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| {
            let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
            inner.split('|').map(|c| c.trim().to_string()).collect()
        })
        .filter(|cells: &Vec<String>| cells[0].starts_with(label))
        .collect();
    assert_eq!(
        rows.len(),
        1,
        "{page_name}: {} table rows start with {label:?}",
        rows.len()
    );
    rows.into_iter().next().unwrap()
}

/// Asserts that `page` quotes `text` (runs of white space compared as one space, so that a
/// quoted phrase may wrap).
pub fn assert_quotes(page_name: &str, text: &str) {
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squeeze(&page(page_name)).contains(&squeeze(text)),
        "{page_name} does not quote: {text}"
    );
}

/// `n` written as the pages (and the report) write counts, digits grouped by thousands:
/// `group(4201) = "4,201"`.
pub fn group(n: usize) -> String {
    let digits = n.to_string().into_bytes();
    let groups: Vec<&str> = digits
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}

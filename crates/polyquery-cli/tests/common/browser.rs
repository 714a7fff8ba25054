//! Headless Chromium for the page tests (`report`, `plan_view_cli`): finding it, and running it
//! on a page with WebGL by SwiftShader (software, no GPU needed).

use std::path::{Path, PathBuf};

/// Headless Chromium: `$POLYQUERY_CHROMIUM`, or `chromium` / `chromium-browser` /
/// `google-chrome` on the `PATH`; `None` when `POLYQUERY_SKIP_BROWSER=1` says to skip the
/// browser tests. Panics, naming how to get it, when there is none and no skip was asked.
pub fn chromium_or_skip() -> Option<PathBuf> {
    if std::env::var("POLYQUERY_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("skipped: POLYQUERY_SKIP_BROWSER=1");
        return None;
    }
    let found = std::env::var_os("POLYQUERY_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path)
                .flat_map(|dir| {
                    ["chromium", "chromium-browser", "google-chrome"].map(|name| dir.join(name))
                })
                .find(|p| p.is_file())
        });
    Some(found.expect(
        "headless Chromium is needed for this test (apt-get install -y chromium, or set \
         POLYQUERY_CHROMIUM); POLYQUERY_SKIP_BROWSER=1 skips it",
    ))
}

/// Runs headless Chromium in a window of `(width, height)` px with `args` (WebGL by
/// SwiftShader), returning its stdout; panics when it fails.
pub fn chromium(
    browser: &Path,
    profile: &Path,
    (width, height): (u32, u32),
    args: &[String],
) -> String {
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            "--ignore-gpu-blocklist",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The width of a PNG (its IHDR's first field); panics when `png` is not a PNG.
pub fn png_width(png: &[u8]) -> u32 {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    u32::from_be_bytes([png[16], png[17], png[18], png[19]])
}

//! Numbers and text as the report prints them (`group(1048576) = "1,048,576"`): counts with
//! thousands separators, ratios, times, rates, and the escaping of HTML, Markdown and CSV
//! cells.
//!
//! Where it sits: a leaf. Every module that renders a cell (the tables, the plots, the
//! first screen, the robot section) formats its numbers here, so a figure reads the same
//! wherever it appears.

/// `group(1048576) = "1,048,576"`.
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A ratio as `1,160×`, `12×`, `3.4×`, `1.04×`, `0.71×`: `ratio(3.44) = "3.4×"`.
pub fn ratio(x: f64) -> String {
    if x >= 9.95 {
        format!("{}×", group(x.round() as usize))
    } else if x >= 1.995 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// `12.3 ns`, `4.56 µs`, `7.89 ms`, `1.23 s` (three significant digits).
///
/// ```
/// use polyquery_report::format::{format_time, group};
///
/// assert_eq!(group(1_048_576), "1,048,576");
/// assert_eq!(format_time(4_560.0), "4.56 µs");
/// ```
pub fn format_time(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

/// `412,000/s`, `41,700/s`, `1,230/s`, `52.3/s` (three significant digits).
///
/// ```
/// use polyquery_report::format::rate;
///
/// assert_eq!(rate(412_345.0), "412,000/s");
/// assert_eq!(rate(52.34), "52.3/s");
/// ```
pub fn rate(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "n/a".into();
    }
    if x >= 1000.0 {
        let digits = x.log10().floor() as i32;
        let unit = 10f64.powi(digits - 2);
        format!("{}/s", group(((x / unit).round() * unit) as usize))
    } else if x >= 100.0 {
        format!("{x:.0}/s")
    } else if x >= 10.0 {
        format!("{x:.1}/s")
    } else {
        format!("{x:.2}/s")
    }
}

/// `Some(k)` when `n = 10^k`.
pub fn power_of_ten(n: usize) -> Option<u32> {
    let mut k = 0;
    let mut p = 1usize;
    while p < n {
        p = p.checked_mul(10)?;
        k += 1;
    }
    (p == n).then_some(k)
}

/// `10⁴`, `10⁶` or `12,345`: `vertices_label(10_000) = "10⁴"`, `vertices_label(12_345) = "12,345"`.
pub fn vertices_label(n: usize) -> String {
    match power_of_ten(n) {
        Some(k) => {
            let sup: String = k
                .to_string()
                .chars()
                .map(|c| match c {
                    '0' => '⁰',
                    '1' => '¹',
                    '2' => '²',
                    '3' => '³',
                    '4' => '⁴',
                    '5' => '⁵',
                    '6' => '⁶',
                    '7' => '⁷',
                    '8' => '⁸',
                    _ => '⁹',
                })
                .collect();
            format!("10{sup}")
        }
        None => group(n),
    }
}

/// A number that may be missing: `optional(Some(x), f) = f(x)` for finite `x`, else `"n/a"`.
pub fn optional(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.filter(|x| x.is_finite())
        .map(f)
        .unwrap_or_else(|| "n/a".into())
}

/// Distinct values in first-seen order: `distinct([2, 1, 2]) = [2, 1]`.
pub fn distinct<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// A CSV field, quoted when it holds a comma, quote or line break: `quote("a,b") = "\"a,b\""`.
pub fn quote(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Text inside HTML: `escape_html("a<b") = "a&lt;b"` (also `&`, `>` and `"`).
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text inside a Markdown table cell: `escape_md("a|b") = "a\\|b"`, line breaks become spaces.
pub fn escape_md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

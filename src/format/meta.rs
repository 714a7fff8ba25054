//! The `META` section's text: [`Metadata`] as one flat JSON object, written and read here
//! without a JSON library.
//!
//! Where it sits: a leaf of [`crate::format`] (which re-exports [`Metadata`]), between the
//! file header and the `POLY` section.
//! The object has exactly the fields of [`Metadata`], in its field order:
//! `{"polyquery_version":"0.1.0","source_file":"bunny.obj","input_points":1839,
//! "hull_ms":1.25,"nvm_build_ms":3.5,"persistence":"node-copying","created_unix_s":1700000000}`
//! — the form the earlier `serde_json` writer gave (the same text for the usual values), so
//! files written before and after read the same.
//!
//! Writing: strings escaped as JSON requires (`"`, `\`, control characters); counts as
//! integers; times in Rust's shortest round-trip form (`{:?}`: `1.0`, `0.125`, `1e-7`),
//! `null` for a non-finite time (read back as NaN). Reading is strict JSON for one flat
//! object: any order of fields, whitespace anywhere JSON allows it, every escape (`\uXXXX`
//! with surrogate pairs), unknown fields with a scalar value ignored; a nested value, a
//! duplicate or missing field, a wrong type, trailing text, or invalid UTF-8 is an error
//! naming what is wrong. No recursion: a crafted section cannot exhaust the stack.

use std::fmt::Write as _;

/// What a saved file says about how it was made (the `META` section, JSON).
///
/// ```
/// use polyquery::format::Metadata;
///
/// let meta = Metadata::new("cube.obj", 8, 0.1, 0.2);
/// assert_eq!(meta.polyquery_version, env!("CARGO_PKG_VERSION"));
/// assert_eq!((meta.source_file.as_str(), meta.input_points), ("cube.obj", 8));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Metadata {
    /// `polyquery_version` = the writing build's `CARGO_PKG_VERSION` (e.g. `"0.1.0"`).
    pub polyquery_version: String,
    /// `source_file` = the mesh file it was made from, its name as given.
    pub source_file: String,
    /// `input_points` = the number of points read from the mesh (before the hull).
    pub input_points: u64,
    /// `hull_ms` = wall time to build the hull, in milliseconds.
    pub hull_ms: f64,
    /// `nvm_build_ms` = wall time to build the normal vector map, in milliseconds.
    pub nvm_build_ms: f64,
    /// `persistence = pointloc::PERSISTENCE`, the point locators' persistence technique.
    pub persistence: String,
    /// `created_unix_s` = when the file was made, in seconds since 1970-01-01 UTC.
    pub created_unix_s: u64,
}

impl Metadata {
    /// Metadata for a map made now by this build from `source_file`: the arguments as given,
    /// `polyquery_version = CARGO_PKG_VERSION`, `created_unix_s = now`.
    pub fn new(source_file: &str, input_points: usize, hull_ms: f64, nvm_build_ms: f64) -> Self {
        Metadata {
            polyquery_version: env!("CARGO_PKG_VERSION").to_string(),
            source_file: source_file.to_string(),
            input_points: input_points as u64,
            hull_ms,
            nvm_build_ms,
            persistence: crate::pointloc::PERSISTENCE.to_string(),
            created_unix_s: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        }
    }
}

/// `metadata` as the `META` section's bytes (see the module notes).
pub(super) fn encode(metadata: &Metadata) -> Vec<u8> {
    let mut out = String::from("{");
    let string = |out: &mut String, key: &str, value: &str| {
        let _ = write!(out, "\"{key}\":");
        write_string(out, value);
        out.push(',');
    };
    let time = |out: &mut String, key: &str, value: f64| {
        if value.is_finite() {
            let _ = write!(out, "\"{key}\":{value:?},");
        } else {
            let _ = write!(out, "\"{key}\":null,");
        }
    };
    string(&mut out, "polyquery_version", &metadata.polyquery_version);
    string(&mut out, "source_file", &metadata.source_file);
    let _ = write!(out, "\"input_points\":{},", metadata.input_points);
    time(&mut out, "hull_ms", metadata.hull_ms);
    time(&mut out, "nvm_build_ms", metadata.nvm_build_ms);
    string(&mut out, "persistence", &metadata.persistence);
    let _ = write!(out, "\"created_unix_s\":{}}}", metadata.created_unix_s);
    out.into_bytes()
}

fn write_string(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One scalar JSON value.
enum Value {
    Str(String),
    /// A number, as its text (validated against JSON's grammar).
    Num(String),
    Null,
    Bool,
}

/// Reads the `META` section's bytes (see the module notes); the error says what is wrong.
pub(super) fn decode(bytes: &[u8]) -> Result<Metadata, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
    let mut p = Parser { s: text, at: 0 };
    p.expect('{')?;
    let mut fields: [Option<Value>; 7] = Default::default();
    const NAMES: [&str; 7] = [
        "polyquery_version",
        "source_file",
        "input_points",
        "hull_ms",
        "nvm_build_ms",
        "persistence",
        "created_unix_s",
    ];
    p.skip_ws();
    if p.peek() == Some('}') {
        p.at += 1;
    } else {
        loop {
            p.skip_ws();
            if p.peek() != Some('"') {
                return Err(p.unexpected("a field name"));
            }
            let key = p.string()?;
            p.expect(':')?;
            let value = p.value()?;
            if let Some(i) = NAMES.iter().position(|n| *n == key) {
                if fields[i].is_some() {
                    return Err(format!("duplicate field `{key}`"));
                }
                fields[i] = Some(value);
            }
            p.skip_ws();
            match p.peek() {
                Some(',') => p.at += 1,
                Some('}') => {
                    p.at += 1;
                    break;
                }
                _ => return Err(p.unexpected("',' or '}'")),
            }
        }
    }
    p.skip_ws();
    if p.at != text.len() {
        return Err(p.unexpected("the end of the section"));
    }
    let mut take = |i: usize| {
        fields[i]
            .take()
            .ok_or(format!("missing field `{}`", NAMES[i]))
    };
    let string = |name: &str, v: Value| match v {
        Value::Str(s) => Ok(s),
        _ => Err(format!("field `{name}` is not a string")),
    };
    let count = |name: &str, v: Value| match v {
        Value::Num(t) => t
            .parse::<u64>()
            .map_err(|_| format!("field `{name}` is not a count (an integer ≥ 0 below 2^64): {t}")),
        _ => Err(format!("field `{name}` is not a number")),
    };
    let time = |name: &str, v: Value| match v {
        Value::Null => Ok(f64::NAN),
        Value::Num(t) => match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!("field `{name}` is out of range: {t}")),
        },
        _ => Err(format!("field `{name}` is not a number")),
    };
    Ok(Metadata {
        polyquery_version: string(NAMES[0], take(0)?)?,
        source_file: string(NAMES[1], take(1)?)?,
        input_points: count(NAMES[2], take(2)?)?,
        hull_ms: time(NAMES[3], take(3)?)?,
        nvm_build_ms: time(NAMES[4], take(4)?)?,
        persistence: string(NAMES[5], take(5)?)?,
        created_unix_s: count(NAMES[6], take(6)?)?,
    })
}

struct Parser<'a> {
    s: &'a str,
    /// Byte offset of the next character.
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn skip_ws(&mut self) {
        while let Some(' ' | '\t' | '\n' | '\r') = self.peek() {
            self.at += 1;
        }
    }

    fn unexpected(&self, wanted: &str) -> String {
        match self.peek() {
            Some(c) => format!("expected {wanted} at byte {}, found {c:?}", self.at),
            None => format!("expected {wanted} at byte {}, found the end", self.at),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unexpected(&format!("{c:?}")))
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_ws();
        let rest = &self.s[self.at..];
        match self.peek() {
            Some('"') => self.string().map(Value::Str),
            Some('-' | '0'..='9') => self.number().map(Value::Num),
            Some('n') if rest.starts_with("null") => {
                self.at += 4;
                Ok(Value::Null)
            }
            Some('t') if rest.starts_with("true") => {
                self.at += 4;
                Ok(Value::Bool)
            }
            Some('f') if rest.starts_with("false") => {
                self.at += 5;
                Ok(Value::Bool)
            }
            Some('{' | '[') => Err(format!(
                "a nested value at byte {} (the section is one flat object)",
                self.at
            )),
            _ => Err(self.unexpected("a value")),
        }
    }

    /// A JSON number, checked against the grammar `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<String, String> {
        let start = self.at;
        let b = self.s.as_bytes();
        let digits = |at: &mut usize| {
            let from = *at;
            while *at < b.len() && b[*at].is_ascii_digit() {
                *at += 1;
            }
            *at - from
        };
        let mut at = self.at;
        if b.get(at) == Some(&b'-') {
            at += 1;
        }
        let int_start = at;
        let n = digits(&mut at);
        let bad = |at: usize| format!("malformed number at byte {start} (byte {at})");
        if n == 0 || (n > 1 && b[int_start] == b'0') {
            return Err(bad(at));
        }
        if b.get(at) == Some(&b'.') {
            at += 1;
            if digits(&mut at) == 0 {
                return Err(bad(at));
            }
        }
        if matches!(b.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(b.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            if digits(&mut at) == 0 {
                return Err(bad(at));
            }
        }
        self.at = at;
        Ok(self.s[start..at].to_string())
    }

    /// A JSON string, the opening quote next.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(format!("unterminated string from byte {start}"));
            };
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let escaped = match self.bump() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => self.unicode_escape()?,
                        _ => return Err(format!("bad escape at byte {}", self.at - 1)),
                    };
                    out.push(escaped);
                }
                c if (c as u32) < 0x20 => {
                    return Err(format!(
                        "control character in a string at byte {}",
                        self.at - 1
                    ));
                }
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let at = self.at;
        let digits = self
            .s
            .get(at..at + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(digits) = digits else {
            return Err(format!("bad \\u escape at byte {at}"));
        };
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| format!("bad \\u escape at byte {at}"))
    }

    /// The character of a `\uXXXX` escape (its `\u` consumed), a surrogate pair included.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let at = self.at;
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.s[self.at..].starts_with("\\u") {
                return Err(format!("unpaired surrogate at byte {at}"));
            }
            self.at += 2;
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(format!("unpaired surrogate at byte {at}"));
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| format!("unpaired surrogate at byte {at}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Metadata {
        Metadata {
            polyquery_version: "0.1.0".into(),
            source_file: "dir/bunny \"1\"\\\n\t\u{1}é😀.obj".into(),
            input_points: u64::MAX,
            hull_ms: 0.1 + 0.2,
            nvm_build_ms: 1e-300,
            persistence: "node-copying".into(),
            created_unix_s: 1_700_000_000,
        }
    }

    #[test]
    fn round_trips_exactly() {
        let m = sample();
        let bytes = encode(&m);
        assert_eq!(decode(&bytes).unwrap(), m);
        // Whole numbers keep a fraction, as serde_json wrote them.
        let m = Metadata {
            hull_ms: 12.0,
            ..sample()
        };
        assert!(
            String::from_utf8(encode(&m))
                .unwrap()
                .contains("\"hull_ms\":12.0,")
        );
    }

    #[test]
    fn reads_what_serde_json_wrote() {
        // A META section as the serde_json writer of format version 2 wrote it.
        let old = br#"{"polyquery_version":"0.1.0","source_file":"data/bunny_npm.obj","input_points":1839,"hull_ms":1.234,"nvm_build_ms":5.5,"persistence":"node-copying","created_unix_s":1760000000}"#;
        let m = decode(old).unwrap();
        assert_eq!(m.source_file, "data/bunny_npm.obj");
        assert_eq!(m.input_points, 1839);
        assert_eq!(m.hull_ms, 1.234);
        assert_eq!(encode(&m), old.to_vec());
    }

    #[test]
    fn any_order_whitespace_escapes_and_unknown_fields() {
        let text = " {\n \"created_unix_s\" : 5 , \"persistence\":\"a\\u00e9\\ud83d\\ude00\\/\",\
            \"extra\": [1],\"nvm_build_ms\":-0.5e+2,\"hull_ms\":null,\"input_points\":0,\
            \"source_file\":\"\",\"polyquery_version\":\"x\"} ";
        // A nested unknown value is refused: the section is flat.
        assert!(decode(text.as_bytes()).unwrap_err().contains("nested"));
        let text = text.replace("[1]", "true");
        let m = decode(text.as_bytes()).unwrap();
        assert_eq!(m.persistence, "aé😀/");
        assert_eq!(m.nvm_build_ms, -50.0);
        assert!(m.hull_ms.is_nan());
        assert_eq!(m.created_unix_s, 5);
    }

    #[test]
    fn malformed_sections_are_errors() {
        let good = String::from_utf8(encode(&sample())).unwrap();
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "expected '{'"),
            (
                good.replace(
                    "\"input_points\":18446744073709551615",
                    "\"input_points\":-1",
                ),
                "count",
            ),
            (
                good.replace(
                    "\"input_points\":18446744073709551615",
                    "\"input_points\":1.5",
                ),
                "count",
            ),
            (
                good.replace(
                    "\"input_points\":18446744073709551615",
                    "\"input_points\":\"1\"",
                ),
                "not a number",
            ),
            (
                good.replace("\"hull_ms\":", "\"hull_ms\":1e999,\"x\":"),
                "out of range",
            ),
            (
                good.replace("\"hull_ms\":", "\"hull_ms\":01,\"x\":"),
                "malformed number",
            ),
            (
                good.replace("\"hull_ms\":", "\"hull_ms\":1.,\"x\":"),
                "malformed number",
            ),
            (
                good.replace(",\"persistence\":\"node-copying\"", ""),
                "missing field `persistence`",
            ),
            (
                good.replace("}", ",\"persistence\":\"a\"}"),
                "duplicate field",
            ),
            (format!("{good}x"), "the end"),
            (good.replace("\\\\", "\\q"), "bad escape"),
            (good.replace("\\t", "\t"), "control character"),
            (
                good.replace(
                    "\"created_unix_s\":1700000000}",
                    "\"created_unix_s\":1700000000",
                ),
                "found the end",
            ),
            (good.replace("😀", "\\ud83d"), "unpaired surrogate"),
            (good[..good.len() / 2].to_string(), "expected"),
        ];
        for (text, wanted) in cases {
            let err = decode(text.as_bytes()).unwrap_err();
            assert!(err.contains(wanted), "{text:?}: {err}");
        }
        assert!(decode(b"{\"a\":\"\xff\"}").unwrap_err().contains("UTF-8"));
    }

    /// Every prefix, and every single-byte change, of a valid section is either read or an
    /// error: never a panic (the parser only indexes what it checked).
    #[test]
    fn damaged_sections_never_panic() {
        let good = encode(&sample());
        for cut in 0..good.len() {
            let _ = decode(&good[..cut]);
        }
        for i in 0..good.len() {
            for b in [
                b'"', b'\\', b'{', b'}', b',', b':', b'u', b'0', b'-', 0x80, 0xff,
            ] {
                let mut bad = good.clone();
                bad[i] = b;
                let _ = decode(&bad);
            }
        }
    }
}

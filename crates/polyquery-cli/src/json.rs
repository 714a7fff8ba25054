//! Writing JSON: never `-0`, never a NaN or an infinity, each float in its shortest
//! round-trip form (`-0.0 ↦ 0.0`, `NaN ↦ error`).
//!
//! Where it sits: under every JSON writer of the command line — `--json` output, batch
//! result lines, the report's `results.json`. [`to_writer`] / [`to_string`] /
//! [`to_string_pretty`] first check that every float is finite ([`check_finite`]: a
//! non-finite value is a [`NonFinite`] error, never a silent `null`) and then write each
//! float with `serde_json`'s shortest round-trip form, zero as `0.0` whatever its sign
//! ([`ExactFormatter`]). Plain text goes through the library's
//! [`polyquery::output::Shortest`].
//!
//! A non-finite number never arises from valid input: the answers and reports check it
//! where they are made, and these writers are the last guard.

use serde::ser::{self, Serialize};
use std::fmt;
use std::io;

/// A non-finite float met while writing: an internal error (valid input never gives one): `x.is_finite() == false`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error: a non-finite number (NaN or infinity) in {}", match .field { Some(f) => format!("field `{f}`"), None => "the output".to_string() })]
pub struct NonFinite {
    /// `field` = the innermost named field holding it, when there is one.
    pub field: Option<&'static str>,
}

impl ser::Error for NonFinite {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NonFinite { field: None }
    }
}

/// Checks that every float `value` serialises is finite (walking it as `serde` would write
/// it, writing nothing).
///
/// ```
/// use polyquery_cli::json::{check_finite, to_string};
///
/// assert!(check_finite(&[1.0, -0.0]).is_ok());
/// assert!(check_finite(&[f64::NAN]).is_err());
/// assert_eq!(to_string(&[-0.0, 0.1]).unwrap(), "[0.0,0.1]");
/// ```
pub fn check_finite<T: Serialize + ?Sized>(value: &T) -> Result<(), NonFinite> {
    value.serialize(&mut FiniteCheck)
}

/// A `serde` serializer that writes nothing and fails on the first non-finite float.
struct FiniteCheck;

type Check = Result<(), NonFinite>;

macro_rules! accept {
    ($($name:ident: $t:ty),* $(,)?) => {
        $(fn $name(self, _: $t) -> Check { Ok(()) })*
    };
}

impl ser::Serializer for &mut FiniteCheck {
    type Ok = ();
    type Error = NonFinite;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    accept!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char,
        serialize_str: &str, serialize_bytes: &[u8], serialize_unit_struct: &'static str,
    );

    fn serialize_f32(self, v: f32) -> Check {
        if v.is_finite() {
            Ok(())
        } else {
            Err(NonFinite { field: None })
        }
    }
    fn serialize_f64(self, v: f64) -> Check {
        if v.is_finite() {
            Ok(())
        } else {
            Err(NonFinite { field: None })
        }
    }
    fn serialize_none(self) -> Check {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Check {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Check {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Check {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Check {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> Check {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, NonFinite> {
        Ok(self)
    }
}

macro_rules! elements {
    ($($trait:ident :: $method:ident),* $(,)?) => {
        $(impl ser::$trait for &mut FiniteCheck {
            type Ok = ();
            type Error = NonFinite;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Check {
                v.serialize(&mut **self)
            }
            fn end(self) -> Check {
                Ok(())
            }
        })*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

/// Names the field a non-finite value was found in (the innermost one).
fn in_field(key: &'static str, result: Check) -> Check {
    result.map_err(|e| NonFinite {
        field: e.field.or(Some(key)),
    })
}

impl ser::SerializeMap for &mut FiniteCheck {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Check {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Check {
        v.serialize(&mut **self)
    }
    fn end(self) -> Check {
        Ok(())
    }
}

/// The named-field serializers (structs and struct variants): each field is checked, and
/// a non-finite value found in it is named by the field.
macro_rules! fields {
    ($($trait:ident),* $(,)?) => {
        $(impl ser::$trait for &mut FiniteCheck {
            type Ok = ();
            type Error = NonFinite;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Check {
                in_field(key, v.serialize(&mut **self))
            }
            fn end(self) -> Check {
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

/// A `serde_json` formatter that writes floats in their shortest round-trip form with zero
/// always as `0.0` (never `-0.0`), and otherwise behaves as the formatter it wraps
/// (compact or pretty): `-0.0 ↦ 0.0`, `x ↦ shortest text with text.parse() = x`.
#[derive(Clone, Debug, Default)]
pub struct ExactFormatter<F>(pub F);

macro_rules! delegate {
    ($($name:ident),* $(,)?) => {
        $(fn $name<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.0.$name(w)
        })*
    };
}

macro_rules! delegate_first {
    ($($name:ident),* $(,)?) => {
        $(fn $name<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
            self.0.$name(w, first)
        })*
    };
}

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for ExactFormatter<F> {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        let value = if value == 0.0 { 0.0 } else { value };
        self.0.write_f64(w, value)
    }
    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        let value = if value == 0.0 { 0.0 } else { value };
        self.0.write_f32(w, value)
    }
    delegate!(
        begin_array,
        end_array,
        end_array_value,
        begin_object,
        end_object,
        end_object_key,
        begin_object_value,
        end_object_value,
    );
    delegate_first!(begin_array_value, begin_object_key);
}

fn invalid(e: NonFinite) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Writes `value` as compact JSON (see the module notes): an error, and nothing written, when
/// a float is not finite: `Err` ⟺ `check_finite(value).is_err()`.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(w: W, value: &T) -> io::Result<()> {
    check_finite(value).map_err(invalid)?;
    let mut ser = serde_json::Serializer::with_formatter(
        w,
        ExactFormatter(serde_json::ser::CompactFormatter),
    );
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// Writes each of `values` as one line of compact JSON ([`to_writer`], then `\n`), in order:
/// JSON lines, as `batch` and the robot commands write their results.
///
/// ```
/// use polyquery_cli::json::write_lines;
///
/// let mut out = Vec::new();
/// write_lines(&mut out, [[1.0, -0.0], [0.5, 2.0]]).unwrap();
/// assert_eq!(out, b"[1.0,0.0]\n[0.5,2.0]\n");
/// ```
pub fn write_lines<T: Serialize>(
    w: &mut dyn io::Write,
    values: impl IntoIterator<Item = T>,
) -> io::Result<()> {
    for value in values {
        to_writer(&mut *w, &value)?;
        w.write_all(b"\n")?;
    }
    Ok(())
}

/// `to_string(v) = String::from_utf8(to_writer(v))`: `value` as compact JSON (see [`to_writer`]).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> io::Result<String> {
    let mut bytes = Vec::new();
    to_writer(&mut bytes, value)?;
    String::from_utf8(bytes).map_err(io::Error::other)
}

/// `value` as indented JSON (see [`to_writer`]): `to_string_pretty(v) = to_string(v)` with newlines and 2-space indents.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> io::Result<String> {
    check_finite(value).map_err(invalid)?;
    let mut bytes = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut bytes,
        ExactFormatter(serde_json::ser::PrettyFormatter::new()),
    );
    value.serialize(&mut ser).map_err(io::Error::other)?;
    String::from_utf8(bytes).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyquery::output::Shortest;
    use proptest::prelude::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Row {
        name: &'static str,
        values: Vec<f64>,
        inner: Option<Inner>,
    }

    #[derive(Serialize)]
    struct Inner {
        depth: f64,
    }

    #[test]
    fn negative_zero_is_written_as_zero() {
        let row = Row {
            name: "z",
            values: vec![-0.0, 0.0, -1.5],
            inner: Some(Inner { depth: -0.0 }),
        };
        let text = to_string(&row).unwrap();
        assert_eq!(
            text,
            r#"{"name":"z","values":[0.0,0.0,-1.5],"inner":{"depth":0.0}}"#
        );
        assert!(!to_string_pretty(&row).unwrap().contains("-0"));
        assert_eq!(Shortest(-0.0).to_string(), "0");
    }

    #[test]
    fn non_finite_values_are_errors_naming_the_field() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let row = Row {
                name: "z",
                values: vec![1.0],
                inner: Some(Inner { depth: bad }),
            };
            let err = check_finite(&row).unwrap_err();
            assert_eq!(err.field, Some("depth"));
            assert!(to_string(&row).is_err());
            assert!(to_string_pretty(&row).is_err());
        }
    }

    proptest! {
        /// Every finite double (bit patterns drawn uniformly: subnormals, huge values and
        /// both zeros included) is written in a form that reads back bit for bit (zero as
        /// +0), by both the text and the JSON writers, never as `-0`.
        #[test]
        fn every_double_round_trips(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let expected = if x == 0.0 { 0.0f64 } else { x };
            let text = Shortest(x).to_string();
            prop_assert_eq!(text.parse::<f64>().unwrap().to_bits(), expected.to_bits());
            prop_assert_ne!(text.as_str(), "-0");
            let json = to_string(&[x]).unwrap();
            let back: Vec<f64> = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back[0].to_bits(), expected.to_bits());
            // Shortest: no shorter digit string reads back (ryu and Rust's formatting are
            // both shortest; checked against Rust's `{:e}`).
            let digits = |s: &str| s.trim_start_matches('-').split(['e', 'E']).next().unwrap()
                .chars().filter(char::is_ascii_digit).collect::<String>()
                .trim_start_matches('0').trim_end_matches('0').len();
            prop_assert_eq!(digits(&text), digits(&format!("{x:e}")));
        }
    }
}

//! The library's vocabulary: one type per choice a user names — which support map
//! ([`SupportKind`]), which query ([`QueryKind`]), which algorithm ([`Algorithm`]) — each with
//! the one spelling used by the library, the command line, JSON, the report and Python.
//!
//! Where it sits: a leaf. It names things and imports nothing from the rest of the crate;
//! the kinds have this one path (`polyquery::kinds::…`), and every front end parses and
//! prints them through [`std::str::FromStr`] and [`std::fmt::Display`] here, so no front end
//! keeps a mirror enum.
//!
//! ```
//! use polyquery::kinds::{Algorithm, QueryKind, SupportKind};
//!
//! let q: QueryKind = "depth".parse()?; // an older spelling, still accepted
//! assert_eq!(q, QueryKind::PenetrationDepth);
//! assert_eq!(q.to_string(), "penetration_depth");
//! assert_eq!(q.algorithms(), &[Algorithm::Epa]);
//! assert_eq!("nvm".parse::<SupportKind>()?, SupportKind::NormalVectorMap);
//! # Ok::<(), polyquery::kinds::UnknownName>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// A name that is none of a kind's spellings: `"x".parse::<SupportKind>()` = `Err(UnknownName)`.
///
/// Its message lists what is accepted:
/// `unknown support map "x" (expected one of: nvm, linear, hill)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// `what` = the kind asked for, in words (`"support map"`, `"query"`, `"algorithm"`).
    pub what: &'static str,
    /// `name` = the text that was given.
    pub name: String,
    /// `expected` = the canonical names of the kind.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?} (expected one of: {})",
            self.what,
            self.name,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// Declares a kind: the enum, its canonical names, older spellings accepted on input,
/// `name()`, `ALL`, `Display`, `FromStr` and (with the `serde` feature) serde by name.
macro_rules! kind {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order: `ALL.len()` = the number of names.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The canonical names, in the order of [`Self::ALL`]: `NAMES[i] = ALL[i].name()`.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The one spelling used everywhere: `x.name().parse() = Ok(x)`.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = UnknownName;

            fn from_str(text: &str) -> Result<Self, UnknownName> {
                match text {
                    $( $text $(| $alias)* => Ok($name::$variant), )+
                    _ => Err(UnknownName { what: $what, name: text.to_string(), expected: $name::NAMES }),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

kind! {
    /// How a convex shape answers support queries `S(P, d)`: the choice behind `--support`,
    /// the JSON field `support` and Python's `support=`.
    ///
    /// `SupportKind::default()` = [`SupportKind::NormalVectorMap`].
    SupportKind, "support map" {
        /// Point location in the normal vector map ([`crate::NormalVectorMap`]):
        /// `cost = O(log n)` per query: `name() = "nvm"`.
        NormalVectorMap = "nvm" | "normal_vector_map",
        /// A scan of every vertex ([`crate::LinearScan`]), the plain-GJK baseline:
        /// `cost = O(n)`: `name() = "linear"`.
        LinearScan = "linear" | "linear_scan",
        /// A walk uphill on the vertex adjacency ([`crate::HillClimb`]), warm-started by
        /// the previous answer: `name() = "hill"`.
        HillClimb = "hill" | "hill_climb",
    }
}

// The `kind!` enums derive no `Default` (a query has none); this one has.
#[allow(clippy::derivable_impls)]
impl Default for SupportKind {
    fn default() -> Self {
        SupportKind::NormalVectorMap
    }
}

kind! {
    /// The six pair queries, named as the library's functions are named: the choice
    /// behind `polyquery query OP`, the batch field `op` and the report's tables.
    ///
    /// `QueryKind::TimeOfImpact.name()` = `"time_of_impact"` = the function
    /// [`crate::query::time_of_impact`]; older command-line spellings (`intersect`,
    /// `penetration`, `depth`, `toi`) parse as aliases.
    QueryKind, "query" {
        /// Whether A and B intersect: `intersects ⟺ A ∩ B ≠ ∅`.
        Intersects = "intersects" | "intersect",
        /// Nio's directional penetration distance `δ_d = inf { t ≥ 0 : A ∩ (B + t·d) = ∅ }`.
        DirectionalPenetration = "directional_penetration" | "penetration",
        /// The Euclidean distance with witness points: `value = min ‖a − b‖`, `a ∈ A, b ∈ B`.
        Distance = "distance",
        /// The minimum penetration depth (EPA): `value = min over unit n of δ_n`.
        PenetrationDepth = "penetration_depth" | "depth",
        /// The time of impact of B moving by `t·v`: `value = min { t ≥ 0 : A ∩ (B + t·v) ≠ ∅ }`.
        TimeOfImpact = "time_of_impact" | "toi",
        /// A ray against A: `value = min { s ≥ 0 : origin + s·d̂ ∈ A }`.
        Raycast = "raycast" | "cast_ray",
    }
}

impl QueryKind {
    /// The algorithms that answer this query; the first is the default:
    /// `algorithms()[0]` = the default.
    pub const fn algorithms(self) -> &'static [Algorithm] {
        match self {
            QueryKind::Intersects => &[Algorithm::Nio, Algorithm::Gjk],
            QueryKind::DirectionalPenetration | QueryKind::TimeOfImpact | QueryKind::Raycast => {
                &[Algorithm::Nio]
            }
            QueryKind::Distance => &[Algorithm::Gjk],
            QueryKind::PenetrationDepth => &[Algorithm::Epa],
        }
    }

    /// Whether the query has a second body B: `has_b() = (self ≠ Raycast)`.
    pub const fn has_b(self) -> bool {
        !matches!(self, QueryKind::Raycast)
    }
}

kind! {
    /// The algorithms that answer pair queries: the choice behind `--algorithm`.
    ///
    /// `Algorithm::Gjk.name()` = `"gjk"`.
    Algorithm, "algorithm" {
        /// Nio's portal search and refinement (intersection, `δ_d`, time of impact, ray
        /// entry): `name() = "nio"`.
        Nio = "nio",
        /// GJK (boolean intersection, distance): `name() = "gjk"`.
        Gjk = "gjk",
        /// The expanding polytope algorithm (minimum penetration depth): `name() = "epa"`.
        Epa = "epa",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_aliases_parse() {
        for k in SupportKind::ALL {
            assert_eq!(k.name().parse::<SupportKind>(), Ok(*k));
        }
        for k in QueryKind::ALL {
            assert_eq!(k.to_string().parse::<QueryKind>(), Ok(*k));
        }
        for k in Algorithm::ALL {
            assert_eq!(k.name().parse::<Algorithm>(), Ok(*k));
        }
        assert_eq!("toi".parse::<QueryKind>(), Ok(QueryKind::TimeOfImpact));
        assert_eq!(
            "penetration".parse::<QueryKind>(),
            Ok(QueryKind::DirectionalPenetration)
        );
        assert_eq!("intersect".parse::<QueryKind>(), Ok(QueryKind::Intersects));
        let err = "nvn".parse::<SupportKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown support map \"nvn\" (expected one of: nvm, linear, hill)"
        );
    }
}

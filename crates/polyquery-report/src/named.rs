//! Enums whose values have one display name each (`x.name()` = its text in tables, CSV and
//! JSON): the macro [`named_enum`] writes the enum, `name()`, `ALL`, `Display` and serde's
//! `Serialize` (as the name) from one list of `Variant = "name"` lines.
//!
//! Where it sits: a leaf; [`crate::status`] and the robot section's methods, queries and
//! units are declared with it.

/// Declares an enum of named values: `name()`, `ALL`, `Display` and `Serialize` by name.
///
/// ```
/// use polyquery_report::status::Status;
///
/// assert_eq!(Status::ALL.len(), 5);
/// assert_eq!(serde_json::to_string(&Status::Failed).unwrap(), "\"failed\"");
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order: `ALL.len()` = the number of names.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The one spelling in tables, CSV and JSON: `x.to_string() = x.name()`.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }
    };
}

pub(crate) use named_enum;

//! One fixed colour per method, the same in every plot (`method_color(m)` = its colour), from
//! the Okabe–Ito palette that colour-blind readers tell apart. Methods that share a colour
//! never appear in one plot (a test checks every plot the report draws).
//!
//! Where it sits: a leaf; [`crate::plots`] colours every series and bar from it.

use crate::results::Method;
use plotters::style::RGBColor;

/// Okabe–Ito black: `BLACK = RGBColor(0, 0, 0)`.
pub const BLACK: RGBColor = RGBColor(0, 0, 0);
/// Okabe–Ito orange: `ORANGE = RGBColor(230, 159, 0)`.
pub const ORANGE: RGBColor = RGBColor(230, 159, 0);
/// Okabe–Ito sky blue: `SKY_BLUE = RGBColor(86, 180, 233)`.
pub const SKY_BLUE: RGBColor = RGBColor(86, 180, 233);
/// Okabe–Ito bluish green: `GREEN = RGBColor(0, 158, 115)`.
pub const GREEN: RGBColor = RGBColor(0, 158, 115);
/// Okabe–Ito blue: `BLUE = RGBColor(0, 114, 178)`.
pub const BLUE: RGBColor = RGBColor(0, 114, 178);
/// Okabe–Ito vermilion: `VERMILION = RGBColor(213, 94, 0)`.
pub const VERMILION: RGBColor = RGBColor(213, 94, 0);
/// Okabe–Ito reddish purple: `PURPLE = RGBColor(204, 121, 167)`.
pub const PURPLE: RGBColor = RGBColor(204, 121, 167);

/// Every method's colour: `METHOD_COLORS[i] = (method, colour)`, each method once. Ours on
/// the NVM blue (Nio, and support), GJK sky blue, time of impact green, EPA purple; every
/// linear scan orange; cold hill-climbing green; parry3d vermilion; preprocessing: our hull
/// black, the NVM build blue, our hull handed to parry3d purple.
pub const METHOD_COLORS: &[(Method, RGBColor)] = {
    use Method::*;
    &[
        (Nvm, BLUE),
        (NioNvm, BLUE),
        (GjkNvm, SKY_BLUE),
        (OursNvm, GREEN),
        (EpaNvm, PURPLE),
        (LinearScan, ORANGE),
        (GjkLinearScan, ORANGE),
        (NioLinearScan, ORANGE),
        (HillClimb, GREEN),
        (ParryIntersection, VERMILION),
        (ParryRayCast, VERMILION),
        (ParryDistance, VERMILION),
        (ParryCastShapes, VERMILION),
        (ParryContact, VERMILION),
        (ParryHull, VERMILION),
        (Hull, BLACK),
        (NvmBuild, BLUE),
        (HullIntoParry, PURPLE),
    ]
};

/// The fixed colour of `method` ([`METHOD_COLORS`]): e.g. `method_color(Method::Nvm) = BLUE`.
///
/// ```
/// use polyquery_report::colors::{BLUE, method_color};
/// use polyquery_report::results::Method;
///
/// assert_eq!(method_color(Method::NioNvm), BLUE);
/// ```
pub fn method_color(method: Method) -> RGBColor {
    METHOD_COLORS
        .iter()
        .find(|(m, _)| *m == method)
        .map_or(BLACK, |(_, c)| *c)
}

/// A colour as SVG writes it: `hex(BLUE) = "#0072B2"`.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method has exactly one entry.
    #[test]
    fn every_method_has_one_colour() {
        for m in Method::ALL {
            assert_eq!(
                METHOD_COLORS.iter().filter(|(x, _)| x == m).count(),
                1,
                "{m}"
            );
        }
        assert_eq!(METHOD_COLORS.len(), Method::ALL.len());
        assert_eq!(hex(BLUE), "#0072B2");
    }
}

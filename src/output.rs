//! Writing numbers as text: the shortest text that reads back as the same `f64` (`Shortest(x).to_string().parse::<f64>() = Ok(x)`), never `-0`.
//!
//! Where it sits: under every text writer — OBJ output ([`crate::mesh::write_obj`]), and the
//! command line's text, CSV and Markdown (the command line's JSON writers live in the
//! `polyquery-cli` crate and write floats the same way).

use std::fmt;

/// `f64` as the shortest decimal text that reads back as the same value: plain digits for
/// magnitudes in `[1e-5, 1e16)`, scientific notation (`1.5e-300`) beyond; zero (of either
/// sign) as `0`. A non-finite value (which callers never pass) is written `NaN`, `inf` or
/// `-inf`.
///
/// ```
/// use polyquery::output::Shortest;
///
/// assert_eq!(Shortest(0.1).to_string(), "0.1");
/// assert_eq!(Shortest(-0.0).to_string(), "0");
/// assert_eq!(Shortest(1.5e-300).to_string(), "1.5e-300");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shortest(pub f64);

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x == 0.0 {
            f.write_str("0")
        } else if !x.is_finite() || (1e-5..1e16).contains(&x.abs()) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_of_either_sign_is_written_0() {
        assert_eq!(Shortest(-0.0).to_string(), "0");
        assert_eq!(Shortest(0.0).to_string(), "0");
    }

    /// Every finite double (bit patterns drawn from a seeded generator: subnormals, huge
    /// values and both zeros included) reads back bit for bit (zero as +0), never as `-0`,
    /// with as few digits as Rust's own shortest `{:e}`.
    #[test]
    fn every_double_round_trips() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            let x = f64::from_bits(z ^ (z >> 31));
            if !x.is_finite() {
                continue;
            }
            let expected = if x == 0.0 { 0.0f64 } else { x };
            let text = Shortest(x).to_string();
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                expected.to_bits(),
                "{text}"
            );
            let digits = |s: &str| {
                s.trim_start_matches('-')
                    .split(['e', 'E'])
                    .next()
                    .unwrap()
                    .chars()
                    .filter(char::is_ascii_digit)
                    .collect::<String>()
                    .trim_start_matches('0')
                    .trim_end_matches('0')
                    .len()
            };
            assert_eq!(digits(&text), digits(&format!("{x:e}")), "{text}");
        }
    }
}

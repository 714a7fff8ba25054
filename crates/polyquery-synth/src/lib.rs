//! Synthetic point sets for scaling and degenerate-shape tests.
//!
//! Where it sits: a source of points beside the library's `mesh` module (`polyquery gen`
//! writes them as OBJ); the points go on to `polyquery::hull` like a loaded mesh's. A
//! crate of its own so that the `polyquery` library does not depend on `rand`: the command
//! line (its `gen` command and its report) uses it, and so do the library's tests and
//! benchmarks (as a dev-dependency). Every shape is reproducible from a seed
//! (ChaCha8), and each exercises a different hard case: all points extreme (sphere,
//! ellipsoid), many coplanar points (box, cylinder caps), a vertex of high degree (cone), a
//! very flat hull (disk) and a very thin one (needle).
//!
//! With the `robot` feature, [`robot_scenes`] makes benchmark scenes for robots (random
//! convex obstacles around the Panda, a scanned obstacle, random configurations) as
//! `polyquery::robot::Scene`s; only then does this crate depend on the library.

/// A point in 3D, `f64` coordinates (the same type as `polyquery::Point`).
pub type Point = nalgebra::Point3<f64>;
/// A vector in 3D, `f64` coordinates (the same type as `polyquery::Vector`).
pub type Vector = nalgebra::Vector3<f64>;
use nalgebra::{Quaternion, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use std::f64::consts::TAU;
use std::fmt;
use std::str::FromStr;

#[cfg(feature = "robot")]
pub mod robot_scenes;

/// The synthetic shapes. Each variant documents its points and the fewest it can make
/// ([`Shape::minimum_points`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `n` points uniform on the unit sphere (normalised Gaussian triples): all extreme.
    /// At least 4 points.
    Sphere,
    /// The sphere's points scaled by `(1, 0.5, 0.25)` (so on the ellipsoid with those
    /// semi-axes, denser towards its flat sides): all extreme. At least 4 points.
    Ellipsoid,
    /// The 8 corners of `[-1,1]×[-0.5,0.5]×[-0.25,0.25]` plus `n − 8` points uniform on its
    /// surface: many coplanar points, and the hull is the 8 corners. At least 8 points.
    Box,
    /// A regular `⌊n/2⌋`-gon prism: radius 1, `z = ±1`, `⌊n/2⌋` points evenly spaced on each
    /// rim circle (the rims aligned); for odd `n` the extra point is the top cap's centre
    /// `(0, 0, 1)` (on the hull's boundary, not a vertex). At least 6 points.
    Cylinder,
    /// Apex `(0, 0, 1)` and `n − 1` points evenly spaced on the base circle of radius 1 at
    /// `z = −1`: the apex has degree `n − 1`. At least 4 points.
    Cone,
    /// A cylinder of radius 1 and total thickness `2e-4` (`1e-4` of its width 2): `⌊n/2⌋`
    /// points evenly on each rim at `z = ±1e-4`; for odd `n` the extra point is `(0, 0, 1e-4)`.
    /// At least 6 points.
    Disk,
    /// `n` points uniform (by area) on the ellipsoid with semi-axes `(1, 1e-3, 1e-3)`.
    /// At least 4 points.
    Needle,
}

impl Shape {
    /// Every shape, in declaration order.
    pub const ALL: [Shape; 7] = [
        Shape::Sphere,
        Shape::Ellipsoid,
        Shape::Box,
        Shape::Cylinder,
        Shape::Cone,
        Shape::Disk,
        Shape::Needle,
    ];

    /// The lowercase name (`"sphere"`, …), as parsed by [`FromStr`].
    pub fn name(self) -> &'static str {
        match self {
            Shape::Sphere => "sphere",
            Shape::Ellipsoid => "ellipsoid",
            Shape::Box => "box",
            Shape::Cylinder => "cylinder",
            Shape::Cone => "cone",
            Shape::Disk => "disk",
            Shape::Needle => "needle",
        }
    }

    /// The fewest points [`generate`] makes for this shape (enough for a 3D hull).
    pub fn minimum_points(self) -> usize {
        match self {
            Shape::Sphere | Shape::Ellipsoid | Shape::Cone | Shape::Needle => 4,
            Shape::Box => 8,
            Shape::Cylinder | Shape::Disk => 6,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Shape {
    type Err = SynthError;

    fn from_str(text: &str) -> Result<Shape, SynthError> {
        let wanted = text.trim();
        Shape::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| SynthError::UnknownShape {
                name: text.to_string(),
            })
    }
}

/// The most points [`generate`] makes in one call (24 bytes each: 2.4 GB).
pub const MAX_POINTS: usize = 100_000_000;

/// Why no point set was generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SynthError {
    /// Fewer points were asked for than the shape needs.
    #[error("a {shape} needs at least {minimum} points, {n} were asked for")]
    TooFewPoints {
        /// The shape.
        shape: Shape,
        /// How many were asked for.
        n: usize,
        /// The shape's minimum.
        minimum: usize,
    },
    /// More points were asked for than [`MAX_POINTS`].
    #[error("{n} points were asked for; at most {maximum} are supported")]
    TooManyPoints {
        /// How many were asked for.
        n: usize,
        /// The limit.
        maximum: usize,
    },
    /// A shape name that is not one of [`Shape::ALL`].
    #[error(
        "unknown shape '{name}' (expected one of: sphere, ellipsoid, box, cylinder, cone, disk, needle)"
    )]
    UnknownShape {
        /// The text given.
        name: String,
    },
}

/// Half-extents of the [`Shape::Box`].
const BOX_HALF: [f64; 3] = [1.0, 0.5, 0.25];
/// Semi-axes of the [`Shape::Ellipsoid`].
const ELLIPSOID_AXES: [f64; 3] = [1.0, 0.5, 0.25];
/// Semi-axes of the [`Shape::Needle`].
const NEEDLE_AXES: [f64; 3] = [1.0, 1e-3, 1e-3];
/// Half-thickness of the [`Shape::Disk`].
const DISK_HALF_THICKNESS: f64 = 1e-4;
/// Bound on rejection-sampling attempts per point (each succeeds with probability > ½).
const MAX_ATTEMPTS: usize = 200;

/// `n` points of `shape`, reproducible from `seed` (the same arguments give the same
/// points on every platform).
pub fn generate(shape: Shape, n: usize, seed: u64) -> Result<Vec<Point>, SynthError> {
    let minimum = shape.minimum_points();
    if n < minimum {
        return Err(SynthError::TooFewPoints { shape, n, minimum });
    }
    if n > MAX_POINTS {
        return Err(SynthError::TooManyPoints {
            n,
            maximum: MAX_POINTS,
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let points = match shape {
        Shape::Sphere => (0..n).map(|_| unit_sphere_point(&mut rng)).collect(),
        Shape::Ellipsoid => (0..n)
            .map(|_| {
                let u = unit_sphere_point(&mut rng);
                Point::new(
                    u.x * ELLIPSOID_AXES[0],
                    u.y * ELLIPSOID_AXES[1],
                    u.z * ELLIPSOID_AXES[2],
                )
            })
            .collect(),
        Shape::Box => box_points(n, &mut rng),
        Shape::Cylinder => prism_points(n, 1.0),
        Shape::Disk => prism_points(n, DISK_HALF_THICKNESS),
        Shape::Cone => {
            let rim = n - 1;
            std::iter::once(Point::new(0.0, 0.0, 1.0))
                .chain((0..rim).map(|k| {
                    let (s, c) = (TAU * k as f64 / rim as f64).sin_cos();
                    Point::new(c, s, -1.0)
                }))
                .collect()
        }
        Shape::Needle => (0..n)
            .map(|_| uniform_ellipsoid_point(&mut rng, NEEDLE_AXES))
            .collect(),
    };
    Ok(points)
}

/// The cube `[0, s]³` as its eight corners, corner `i` = `s · (i & 1, (i >> 1) & 1, (i >> 2) & 1)`
/// (exact multiples of `s`: the magnitude tests' shape, whose answers are known exactly).
///
/// ```
/// use polyquery_synth::{Point, cube_corners};
///
/// let c = cube_corners(2.0);
/// assert_eq!((c.len(), c[0], c[7]), (8, Point::origin(), Point::new(2.0, 2.0, 2.0)));
/// ```
pub fn cube_corners(s: f64) -> Vec<Point> {
    (0..8)
        .map(|i| {
            Point::new(
                s * (i & 1) as f64,
                s * ((i >> 1) & 1) as f64,
                s * ((i >> 2) & 1) as f64,
            )
        })
        .collect()
}

/// A point uniform on the unit sphere: a normalised triple of standard Gaussians.
fn unit_sphere_point(rng: &mut ChaCha8Rng) -> Point {
    Point::from(random_direction(rng))
}

/// A unit vector uniform on the sphere of directions: a normalised triple of standard
/// Gaussians. For random query directions and offsets in tests, benches and the report.
pub fn random_direction<R: Rng + ?Sized>(rng: &mut R) -> Vector {
    for _ in 0..MAX_ATTEMPTS {
        let v = Vector::new(
            StandardNormal.sample(rng),
            StandardNormal.sample(rng),
            StandardNormal.sample(rng),
        );
        let norm = v.norm();
        // A triple this short has probability ≈ 1e-36; rejecting it keeps the division exact
        // enough for |v| = 1 to within rounding.
        if norm > 1e-12 {
            return v / norm;
        }
    }
    // Unreachable in practice (probability ≈ 1e-7200); still a unit vector.
    Vector::x()
}

/// A rotation uniform over SO(3): a normalised quadruple of standard Gaussians as a unit
/// quaternion. For random poses in tests, benches and the report.
pub fn random_rotation<R: Rng + ?Sized>(rng: &mut R) -> UnitQuaternion<f64> {
    for _ in 0..MAX_ATTEMPTS {
        let q = Quaternion::new(
            StandardNormal.sample(rng),
            StandardNormal.sample(rng),
            StandardNormal.sample(rng),
            StandardNormal.sample(rng),
        );
        if q.norm() > 1e-12 {
            return UnitQuaternion::from_quaternion(q);
        }
    }
    UnitQuaternion::identity()
}

/// The mean of the points as a vector, `Σ p / n` (NaN for none): the centre that random
/// poses rotate a hull about in benches and examples.
///
/// ```
/// use polyquery_synth::{Point, Vector, vertex_mean};
///
/// let mean = vertex_mean(&[Point::new(0.0, 0.0, 0.0), Point::new(2.0, 4.0, 6.0)]);
/// assert_eq!(mean, Vector::new(1.0, 2.0, 3.0));
/// ```
pub fn vertex_mean(points: &[Point]) -> Vector {
    points.iter().fold(Vector::zeros(), |s, p| s + p.coords) / points.len() as f64
}

/// Where a motion stops overlapping: the last `t` in `[0, hi]` at which `overlap(t)` holds,
/// by 48 bisection steps, for an `overlap` that holds on `[0, t*)` and not beyond
/// (`|result − t*| ≤ hi / 2⁴⁸`). For poses built at a chosen fraction of the touching
/// offset in benches and examples.
///
/// ```
/// let t = polyquery_synth::touching_offset(|t| t < 0.3, 1.0);
/// assert!((t - 0.3).abs() < 1e-12);
/// ```
pub fn touching_offset(mut overlap: impl FnMut(f64) -> bool, hi: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, hi);
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if overlap(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A point uniform by area on the ellipsoid with semi-axes `axes`: a uniform sphere point `u`
/// mapped to `A·u` (`A = diag(axes)`), kept with probability proportional to the area
/// stretch `|A⁻¹u|·det A`, normalised by its maximum `det A / min(axes)`.
fn uniform_ellipsoid_point(rng: &mut ChaCha8Rng, axes: [f64; 3]) -> Point {
    let smallest = axes[0].min(axes[1]).min(axes[2]);
    let mut candidate = Point::origin();
    for _ in 0..MAX_ATTEMPTS {
        let u = unit_sphere_point(rng);
        candidate = Point::new(u.x * axes[0], u.y * axes[1], u.z * axes[2]);
        let stretch = smallest * Vector::new(u.x / axes[0], u.y / axes[1], u.z / axes[2]).norm();
        if rng.random::<f64>() < stretch {
            return candidate;
        }
    }
    // Reached with probability < 2^-200: the last candidate is still on the ellipsoid.
    candidate
}

/// The box's 8 corners, then `n − 8` points uniform on its surface (a face chosen with
/// probability proportional to its area, then a uniform point on it).
fn box_points(n: usize, rng: &mut ChaCha8Rng) -> Vec<Point> {
    let [a, b, c] = BOX_HALF;
    let mut points = Vec::with_capacity(n);
    for i in 0..8 {
        let sign = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
        points.push(Point::new(sign(0) * a, sign(1) * b, sign(2) * c));
    }
    // Face areas (per pair of opposite faces, each face): x-faces 2b·2c, y-faces 2a·2c,
    // z-faces 2a·2b.
    let areas = [4.0 * b * c, 4.0 * a * c, 4.0 * a * b];
    let total = 2.0 * (areas[0] + areas[1] + areas[2]);
    for _ in 8..n {
        let mut pick = rng.random::<f64>() * total;
        let mut axis = 2;
        for (k, area) in areas.iter().enumerate() {
            if pick < 2.0 * area {
                axis = k;
                break;
            }
            pick -= 2.0 * area;
        }
        let side = if rng.random::<bool>() { 1.0 } else { -1.0 };
        let mut p = [
            rng.random_range(-a..=a),
            rng.random_range(-b..=b),
            rng.random_range(-c..=c),
        ];
        p[axis] = side * BOX_HALF[axis];
        points.push(Point::new(p[0], p[1], p[2]));
    }
    points
}

/// A regular `⌊n/2⌋`-gon prism of radius 1 with rims at `z = ±half_height`, aligned; for odd
/// `n` the top cap's centre is added.
fn prism_points(n: usize, half_height: f64) -> Vec<Point> {
    let rim = n / 2;
    let mut points = Vec::with_capacity(n);
    for z in [-half_height, half_height] {
        for k in 0..rim {
            let (s, c) = (TAU * k as f64 / rim as f64).sin_cos();
            points.push(Point::new(c, s, z));
        }
    }
    if n % 2 == 1 {
        points.push(Point::new(0.0, 0.0, half_height));
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for shape in Shape::ALL {
            assert_eq!(shape.to_string().parse::<Shape>(), Ok(shape));
            assert_eq!(shape.name().to_uppercase().parse::<Shape>(), Ok(shape));
        }
        assert!(matches!(
            "cube".parse::<Shape>(),
            Err(SynthError::UnknownShape { .. })
        ));
    }

    #[test]
    fn needle_is_thin_and_spans_its_length() {
        let points = generate(Shape::Needle, 2000, 7).unwrap();
        let max_x = points.iter().map(|p| p.x.abs()).fold(0.0, f64::max);
        let max_yz = points.iter().map(|p| p.y.hypot(p.z)).fold(0.0, f64::max);
        // Uniform by area: almost all points lie on the long side, spread over x.
        assert!(max_x > 0.99, "{max_x}");
        assert!(max_yz <= 1e-3 * (1.0 + 1e-12), "{max_yz}");
        // By area, the density of x on a thin prolate spheroid is ∝ r(x)·√(1 + r'(x)²) ≈
        // √(1 − x²) (a semicircle), so P(|x| < 1/3) ≈ 0.4164; the scaled sphere (no area
        // weighting) would give x uniform, 1/3. 2000 samples: σ ≈ 0.011, tolerance ≈ 3.6σ.
        let middle = points.iter().filter(|p| p.x.abs() < 1.0 / 3.0).count() as f64 / 2000.0;
        assert!((middle - 0.4164).abs() < 0.04, "{middle}");
    }
}

//! A loaded (or decoded) normal vector map answers as the map it was built from.

use polyquery::{NormalVectorMap, Vector};

/// For every direction of `directions`: the same vertex, the same point bit for bit, and the
/// same work (`SupportStats`), so the same structure. `label` names the map in messages.
pub fn assert_same_answers(
    built: &NormalVectorMap,
    loaded: &NormalVectorMap,
    directions: &[Vector],
    label: &str,
) {
    for d in directions {
        let (a, sa) = built.support_with_stats(d);
        let (b, sb) = loaded.support_with_stats(d);
        assert_eq!(a.vertex, b.vertex, "{label} {d:?}");
        assert_eq!(
            a.point.coords.map(f64::to_bits),
            b.point.coords.map(f64::to_bits),
            "{label} {d:?}"
        );
        assert_eq!(sa, sb, "{label}: the same work, so the same structure");
    }
}

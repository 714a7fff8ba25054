//! `--shard K/N`: one of N parts of a run (`robot check`, `robot motion`, `batch`), for
//! spreading a large run over the machines of a cluster (a Slurm array, a shell loop) and
//! merging the outputs afterwards.
//!
//! Where it sits: between reading (and validating) the whole input and running the items.
//! Every shard reads and validates the whole input (so every shard fails on the same bad
//! line), then runs only its own items, and every output line keeps its global `index`.
//!
//! The rule: the items (configurations, motions, batch lines) are dealt to the shards in
//! blocks of [`BLOCK`] consecutive items, round robin: item `i` belongs to shard
//! `⌊i / 64⌋ mod N + 1`. Blocks (rather than single items) because a block is also the unit
//! of work that shares one workspace (warm starts): a block runs the same way in a shard as
//! in the whole run, so the union of the N shards' lines, sorted by `index`, is exactly the
//! whole run's output, byte for byte. Round robin (rather than contiguous ranges) so that a
//! file sorted by difficulty still splits evenly.

use polyquery::robot::Checker;
use std::fmt::{self, Display, Formatter};
use std::ops::Range;
use std::str::FromStr;

/// Consecutive items dealt to one shard together: the library's parallel chunk
/// ([`Checker::CHUNK`], run on one workspace), so a shard runs whole chunks of the whole run:
/// `BLOCK = Checker::CHUNK = 64`.
pub const BLOCK: usize = Checker::CHUNK;

/// Shard `k` of `n` (1-based): `contains(i) ⟺ ⌊i / BLOCK⌋ mod n = k − 1`.
///
/// ```
/// use polyquery_cli::shard::Shard;
///
/// let s: Shard = "2/3".parse().unwrap();
/// assert_eq!((s.k(), s.n()), (2, 3));
/// assert!(!s.contains(63) && s.contains(64) && s.contains(127) && !s.contains(128));
/// assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
/// assert!(Shard::WHOLE.contains(12345));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// The whole run, `1/1`: `WHOLE.contains(i) = true` for every `i`.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Shard `k` of `n`, when `1 ≤ k ≤ n`: `new(k, n).is_some() ⟺ 1 ≤ k ≤ n`.
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (1 <= k && k <= n).then_some(Shard { k, n })
    }

    /// The 1-based shard number: `k ∈ [1, n]`.
    pub fn k(self) -> usize {
        self.k
    }

    /// The number of shards: `n ≥ 1`.
    pub fn n(self) -> usize {
        self.n
    }

    /// Whether item `index` (0-based, in the whole run) is this shard's:
    /// `contains(i) ⟺ ⌊i / BLOCK⌋ mod n = k − 1`.
    pub fn contains(self, index: usize) -> bool {
        (index / BLOCK) % self.n == self.k - 1
    }

    /// This shard's blocks of a run of `len` items, in order: the ranges
    /// `[b·BLOCK, min((b + 1)·BLOCK, len))` with `b mod n = k − 1`.
    ///
    /// ```
    /// use polyquery_cli::shard::Shard;
    ///
    /// let s = Shard::new(2, 2).unwrap();
    /// assert_eq!(s.blocks(200), vec![64..128, 192..200]);
    /// ```
    pub fn blocks(self, len: usize) -> Vec<Range<usize>> {
        (0..len.div_ceil(BLOCK))
            .skip(self.k - 1)
            .step_by(self.n)
            .map(|b| b * BLOCK..((b + 1) * BLOCK).min(len))
            .collect()
    }

    /// This shard's items of a run of `len`, by index, in order: the blocks' indices one
    /// after the other, `indices(len) = [i for i in 0..len if contains(i)]`.
    ///
    /// ```
    /// use polyquery_cli::shard::Shard;
    ///
    /// let s = Shard::new(2, 2).unwrap();
    /// assert_eq!(s.indices(130), (64..128).collect::<Vec<_>>());
    /// ```
    pub fn indices(self, len: usize) -> Vec<usize> {
        self.blocks(len).into_iter().flatten().collect()
    }

    /// How many of `len` items are this shard's: `count(len) = Σ |blocks(len)|`.
    pub fn count(self, len: usize) -> usize {
        self.blocks(len).iter().map(|r| r.len()).sum()
    }
}

impl Display for Shard {
    /// `"K/N"`: `Shard::new(2, 4).unwrap().to_string() = "2/4"`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `"K/N"` with integers `1 ≤ K ≤ N`; anything else is an error saying so:
    /// `"2/4".parse() = Shard::new(2, 4)`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage =
            || format!("'{text}' is not a shard: give K/N with whole numbers 1 ≤ K ≤ N (e.g. 2/4)");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let k: usize = k.trim().parse().map_err(|_| usage())?;
        let n: usize = n.trim().parse().map_err(|_| usage())?;
        Shard::new(k, n).ok_or_else(usage)
    }
}

/// Which shard a run was, for summaries: `{"k": K, "n": N, "of": items in the whole run}`.
///
/// ```
/// use polyquery_cli::shard::{Shard, ShardSummary};
///
/// let s = ShardSummary::new(Shard::new(1, 3).unwrap(), 1000);
/// assert_eq!(s.to_string(), "shard 1/3 (blocks of 64 round robin) of 1000");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ShardSummary {
    /// `k` = this shard, 1-based.
    pub k: usize,
    /// `n` = the number of shards.
    pub n: usize,
    /// `of` = the items of the whole run (this shard ran `Shard::count(of)` of them).
    pub of: usize,
}

impl ShardSummary {
    /// The summary of `shard` of a run of `of` items: `new(s, of).k = s.k()`.
    pub fn new(shard: Shard, of: usize) -> ShardSummary {
        ShardSummary {
            k: shard.k,
            n: shard.n,
            of,
        }
    }
}

impl Display for ShardSummary {
    /// `"shard K/N (blocks of 64 round robin) of OF"`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard {}/{} (blocks of {BLOCK} round robin) of {}",
            self.k, self.n, self.of
        )
    }
}

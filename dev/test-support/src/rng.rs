//! One seeded generator for every fuzzer of the workspace (the host's frame
//! fuzzer and the app's RPC fuzzer): SplitMix64, small and good enough to
//! drive mutations, and the same sequence for the same seed on every
//! machine, so a failure's seed replays it. Ranges are taken the way
//! `fastrand` takes them (`0..n`, `a..=b`, `..`).

use std::ops::{Bound, RangeBounds};

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// The inclusive `[lo, hi]` a range names within `[min, max]`.
fn span<T: Copy + Into<u64>>(r: &impl RangeBounds<T>, min: u64, max: u64) -> (u64, u64) {
    let lo = match r.start_bound() {
        Bound::Included(&v) => v.into(),
        Bound::Excluded(&v) => v.into() + 1,
        Bound::Unbounded => min,
    };
    let hi = match r.end_bound() {
        Bound::Included(&v) => v.into(),
        Bound::Excluded(&v) => v
            .into()
            .checked_sub(1)
            .expect("an empty range has nothing to pick"),
        Bound::Unbounded => max,
    };
    assert!(lo <= hi, "an empty range has nothing to pick");
    (lo, hi)
}

impl Rng {
    /// A generator that yields the same sequence for the same seed.
    pub fn with_seed(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in the inclusive `[lo, hi]`.
    fn within(&mut self, (lo, hi): (u64, u64)) -> u64 {
        match (hi - lo).checked_add(1) {
            Some(n) => lo + self.next_u64() % n,
            None => self.next_u64(),
        }
    }

    /// A `usize` in `range` (not empty).
    pub fn usize(&mut self, range: impl RangeBounds<usize>) -> usize {
        let r = (range.start_bound().cloned(), range.end_bound().cloned());
        let r = (map(r.0), map(r.1));
        self.within(span(&r, 0, usize::MAX as u64)) as usize
    }

    /// A `u8` in `range` (not empty).
    pub fn u8(&mut self, range: impl RangeBounds<u8>) -> u8 {
        self.within(span(&range, 0, u8::MAX.into())) as u8
    }

    /// A `u32` in `range` (not empty).
    pub fn u32(&mut self, range: impl RangeBounds<u32>) -> u32 {
        self.within(span(&range, 0, u32::MAX.into())) as u32
    }

    /// Any `i64`.
    pub fn i64(&mut self) -> i64 {
        self.next_u64() as i64
    }

    /// A fair coin.
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// A float in `0.0..1.0`.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.usize(0..items.len())]
    }
}

/// A `usize` bound as a `u64` one (`usize` is not `Into<u64>`).
fn map(b: Bound<usize>) -> Bound<u64> {
    match b {
        Bound::Included(v) => Bound::Included(v as u64),
        Bound::Excluded(v) => Bound::Excluded(v as u64),
        Bound::Unbounded => Bound::Unbounded,
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_same_seed_gives_the_same_sequence_and_ranges_hold() {
        let (mut a, mut b) = (Rng::with_seed(7), Rng::with_seed(7));
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let mut c = Rng::with_seed(8);
        assert_ne!(xs, (0..100).map(|_| c.next_u64()).collect::<Vec<_>>());
        let mut r = Rng::with_seed(1);
        let mut seen = [false; 4];
        for _ in 0..10_000 {
            assert!(r.usize(0..3) < 3);
            assert!((5..=9).contains(&r.usize(5..=9)));
            assert!((0x80..=0xff).contains(&r.u8(0x80..=0xff)));
            assert!((0.0..1.0).contains(&r.f64()));
            seen[r.usize(0..4)] = true;
        }
        assert_eq!(seen, [true; 4], "every value of a small range comes up");
        let _ = (r.u8(..), r.u32(..), r.i64());
    }
}

//! How an extension's tool calls and commands went, for `ext_list`'s
//! `health` and the manager: counts, errors, and p50/p99 latency over the
//! most recent calls. Plain data, kept across restarts (a restart is part
//! of the extension's health, not a fresh start), unit-tested alone.

use std::collections::VecDeque;
use std::time::Duration;

/// How many recent call durations the percentiles are computed over: enough
/// for a stable p99, bounded so a busy extension costs a few KiB.
pub(crate) const RECENT: usize = 512;

/// Calls and their latencies.
#[derive(Debug, Default, Clone)]
pub(crate) struct CallStats {
    calls: u64,
    errors: u64,
    /// The most recent durations, oldest first, at most [`RECENT`].
    recent: VecDeque<Duration>,
    /// Every call's duration added up: what this extension cost in waiting.
    busy: Duration,
}

impl CallStats {
    /// One tool call or command finished after `took`; `ok` when it was
    /// answered (an error result from the extension is still an answer;
    /// a timeout, crash or protocol error is not).
    pub fn record(&mut self, took: Duration, ok: bool) {
        self.calls = self.calls.saturating_add(1);
        if !ok {
            self.errors = self.errors.saturating_add(1);
        }
        self.busy = self.busy.saturating_add(took);
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(took);
    }

    /// Calls so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The time all its calls took together.
    pub fn busy(&self) -> Duration {
        self.busy
    }

    /// Calls that failed (timeout, crash, protocol error).
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// The quantile `per_mille`/1000 (nearest rank: 500 is the median,
    /// 990 the p99) of the recent durations.
    pub fn quantile(&self, per_mille: usize) -> Option<Duration> {
        if self.recent.is_empty() {
            return None;
        }
        let mut v: Vec<Duration> = self.recent.iter().copied().collect();
        v.sort_unstable();
        let rank = (v.len() * per_mille.min(1000)).div_ceil(1000);
        v.get(rank.saturating_sub(1)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn nothing_recorded_has_no_percentiles() {
        let s = CallStats::default();
        assert_eq!((s.calls(), s.errors(), s.quantile(500)), (0, 0, None));
    }

    #[test]
    fn percentiles_are_nearest_rank_over_the_recent_calls() {
        let mut s = CallStats::default();
        for i in 1..=100 {
            s.record(ms(i), i % 10 != 0);
        }
        assert_eq!((s.calls(), s.errors()), (100, 10));
        assert_eq!(s.busy(), ms(5050));
        assert_eq!(s.quantile(500), Some(ms(50)));
        assert_eq!(s.quantile(990), Some(ms(99)));
        assert_eq!(s.quantile(1000), Some(ms(100)));
    }

    #[test]
    fn only_the_most_recent_calls_shape_the_percentiles() {
        let mut s = CallStats::default();
        for _ in 0..RECENT {
            s.record(ms(1000), true);
        }
        for _ in 0..RECENT {
            s.record(ms(1), true);
        }
        assert_eq!(s.calls(), 2 * RECENT as u64);
        assert_eq!(s.quantile(990), Some(ms(1)));
    }
}

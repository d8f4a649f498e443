//! The restart budget of one extension, as plain data over `Instant`s so its
//! rules are unit-tested without processes or sleeps: after a crash it
//! says whether to start the extension again and after which backoff
//! (0.5 s, 2 s, 8 s), allowing at most 3 automatic restarts in any
//! 5 minutes (docs/rpc.md "Supervision"). The supervisor asks it; it knows
//! nothing of extensions.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

/// The sliding window the automatic restarts are counted in.
pub(crate) const WINDOW: Duration = Duration::from_secs(5 * 60);

/// The backoff before the 1st, 2nd and 3rd automatic restart in a window;
/// its length is the budget.
pub(crate) const BACKOFF: [Duration; 3] = [
    Duration::from_millis(500),
    Duration::from_secs(2),
    Duration::from_secs(8),
];

/// What to do after a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Start it again after `delay`; this is automatic restart `attempt`
    /// (1-based) of the current window.
    Restart {
        /// Which restart in the window.
        attempt: u32,
        /// The backoff first.
        delay: Duration,
    },
    /// The budget is spent: leave it `crashed`.
    GiveUp,
}

/// The automatic restarts of one extension in the last [`WINDOW`].
#[derive(Debug, Default, Clone)]
pub(crate) struct RestartBudget {
    /// When each automatic restart in the window was decided, oldest first.
    restarts: VecDeque<Instant>,
}

impl RestartBudget {
    /// Forgets restarts older than the window as of `now`.
    fn expire(&mut self, now: Instant) {
        while let Some(&t) = self.restarts.front() {
            if now.saturating_duration_since(t) >= WINDOW {
                self.restarts.pop_front();
            } else {
                break;
            }
        }
    }

    /// The extension crashed at `now`: restart it (and count that) or give up.
    pub fn on_crash(&mut self, now: Instant) -> Decision {
        self.expire(now);
        let used = self.restarts.len();
        match BACKOFF.get(used) {
            Some(&delay) => {
                self.restarts.push_back(now);
                Decision::Restart {
                    attempt: u32::try_from(used + 1).unwrap_or(u32::MAX),
                    delay,
                }
            }
            None => Decision::GiveUp,
        }
    }

    /// Automatic restarts in the window ending at `now` (what `ext_list`
    /// reports as `restarts`).
    pub fn in_window(&self, now: Instant) -> u32 {
        let n = self
            .restarts
            .iter()
            .filter(|&&t| now.saturating_duration_since(t) < WINDOW)
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// A fresh budget (`ext_restart`, a reload).
    pub fn reset(&mut self) {
        self.restarts.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn restart(attempt: u32, ms: u64) -> Decision {
        Decision::Restart {
            attempt,
            delay: Duration::from_millis(ms),
        }
    }

    #[test]
    fn three_restarts_with_growing_backoff_then_give_up() {
        let t0 = Instant::now();
        let mut b = RestartBudget::default();
        assert_eq!(b.on_crash(t0), restart(1, 500));
        assert_eq!(b.on_crash(t0 + Duration::from_secs(1)), restart(2, 2000));
        assert_eq!(b.on_crash(t0 + Duration::from_secs(4)), restart(3, 8000));
        assert_eq!(b.in_window(t0 + Duration::from_secs(13)), 3);
        assert_eq!(b.on_crash(t0 + Duration::from_secs(13)), Decision::GiveUp);
        // Giving up does not count as a restart.
        assert_eq!(b.in_window(t0 + Duration::from_secs(13)), 3);
    }

    #[test]
    fn restarts_older_than_five_minutes_no_longer_count() {
        let t0 = Instant::now();
        let mut b = RestartBudget::default();
        for i in 0..3 {
            assert!(matches!(
                b.on_crash(t0 + Duration::from_secs(i)),
                Decision::Restart { .. }
            ));
        }
        // The first restart leaves the window; one slot frees, with the
        // longest backoff, since two are still recent.
        let later = t0 + WINDOW;
        assert_eq!(b.in_window(later), 2);
        assert_eq!(b.on_crash(later), restart(3, 8000));
        assert_eq!(b.on_crash(later), Decision::GiveUp);
        // A quiet extension gets its whole budget back.
        let much_later = later + WINDOW;
        assert_eq!(b.in_window(much_later), 0);
        assert_eq!(b.on_crash(much_later), restart(1, 500));
    }

    #[test]
    fn a_reset_gives_the_whole_budget_back() {
        let t0 = Instant::now();
        let mut b = RestartBudget::default();
        for _ in 0..3 {
            b.on_crash(t0);
        }
        assert_eq!(b.on_crash(t0), Decision::GiveUp);
        b.reset();
        assert_eq!(b.in_window(t0), 0);
        assert_eq!(b.on_crash(t0), restart(1, 500));
    }

    #[tokio::test(start_paused = true)]
    async fn the_window_slides_with_tokio_time() {
        let mut b = RestartBudget::default();
        b.on_crash(Instant::now());
        tokio::time::advance(WINDOW - Duration::from_millis(1)).await;
        assert_eq!(b.in_window(Instant::now()), 1);
        tokio::time::advance(Duration::from_millis(1)).await;
        assert_eq!(b.in_window(Instant::now()), 0);
    }
}

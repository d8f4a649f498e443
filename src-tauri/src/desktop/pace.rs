//! A per-frame budget for events sent to the page. `emit` never blocks: it
//! queues a script for the webview, so a bridge that emitted as fast as
//! the backend produced would hand a flood straight to the page's event
//! loop. Holding the bridge to a budget per frame keeps the backlog in the
//! backend's queue, where notes are capped and renders coalesced
//! (`backend::events`).

use std::time::Duration;

use tokio::time::Instant;

/// One display frame at 60 Hz.
pub const FRAME: Duration = Duration::from_millis(16);
/// Events per frame: far above a model's token rate or a person's typing,
/// far below what makes the page's event loop fall behind.
pub const EVENTS_PER_FRAME: usize = 256;
/// Serialised bytes per frame (a big tool result still goes in one frame:
/// the first event of a frame is always admitted).
pub const BYTES_PER_FRAME: usize = 1024 * 1024;

/// Counts what went out in the current frame and waits for the next one
/// when the budget is spent.
#[derive(Debug)]
pub struct Pace {
    /// When the current frame began.
    start: Instant,
    /// Events sent in it.
    events: usize,
    /// Bytes sent in it.
    bytes: usize,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            start: Instant::now(),
            events: 0,
            bytes: 0,
        }
    }
}

impl Pace {
    /// Waits until an event of `bytes` fits the budget, then counts it.
    pub async fn admit(&mut self, bytes: usize) {
        if self.start.elapsed() >= FRAME {
            self.reset();
        }
        let over_bytes = self.events > 0 && self.bytes.saturating_add(bytes) > BYTES_PER_FRAME;
        if self.events >= EVENTS_PER_FRAME || over_bytes {
            tokio::time::sleep_until(self.start + FRAME).await;
            self.reset();
        }
        self.events += 1;
        self.bytes = self.bytes.saturating_add(bytes);
    }

    fn reset(&mut self) {
        self.start = Instant::now();
        self.events = 0;
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_burst_is_spread_over_frames_by_count_and_by_bytes() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        for _ in 0..EVENTS_PER_FRAME * 4 {
            p.admit(10).await;
        }
        // Three frame boundaries were waited for (virtual time: exact).
        assert_eq!(t0.elapsed(), FRAME * 3);

        let t1 = Instant::now();
        let mut p = Pace::default();
        for _ in 0..4 {
            p.admit(BYTES_PER_FRAME).await;
        }
        assert_eq!(t1.elapsed(), FRAME * 3);
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickle_never_waits() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        for _ in 0..10 {
            p.admit(100).await;
            tokio::time::sleep(FRAME).await;
        }
        assert_eq!(t0.elapsed(), FRAME * 10);
    }
}

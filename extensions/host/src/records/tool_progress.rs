//! `tool_progress` (docs/protocol.md "Long tool calls"): what a pending
//! extension tool call says about itself, merged into one slot per call
//! so a flood costs the agent one update per UI frame, however many
//! frames the extension writes.
//!
//! The slot keeps the latest `message`, `progress` and `total` and
//! appends each `partial`; [`PARTIAL_CAP`] bounds the text held between
//! two updates, so an extension that writes faster than the UI draws
//! cannot grow host memory. What is cut is marked where it was cut.

use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Notify;
use zot_ext_protocol::ToolProgress;

/// The most partial output text one coalesced update carries, in bytes.
/// Beyond it the rest of that frame's text is dropped and
/// [`CUT_MARKER`] says so; the next update starts afresh.
pub const PARTIAL_CAP: usize = 64 * 1024;

/// Appended where partial output was cut.
pub const CUT_MARKER: &str = "\n[… partial output cut: over 64 KiB arrived within one frame …]\n";

/// At most one update per this long: one frame of a 60 Hz display.
pub const FRAME: Duration = Duration::from_millis(16);

/// One coalesced update, as the UI shows it: numbers already clamped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgressUpdate {
    /// The latest message, when one was sent.
    pub message: Option<String>,
    /// How far along: finite, at least 0, at most `total` when known.
    pub progress: Option<f64>,
    /// The amount of work: finite and above 0, else `None` (a spinner).
    pub total: Option<f64>,
    /// Output text new since the previous update (may be empty).
    pub partial: String,
}

impl ProgressUpdate {
    /// `progress` and `total` made safe to draw: NaN, infinities and a
    /// total of 0 or less are dropped; progress below 0 is 0 and above
    /// the total is the total.
    pub fn clamped(mut self) -> Self {
        self.total = self.total.filter(|t| t.is_finite() && *t > 0.0);
        self.progress = self.progress.filter(|p| !p.is_nan()).map(|p| {
            let p = p.max(0.0);
            match self.total {
                Some(t) => p.min(t),
                None if p.is_finite() => p,
                None => 0.0,
            }
        });
        self
    }
}

/// The slot a pending call's frames are merged into; the waiting caller
/// takes from it. Built-in tools (bash) feed one too.
#[derive(Debug, Default)]
pub struct ProgressFeed {
    slot: Mutex<Option<ProgressUpdate>>,
    ready: Notify,
}

impl ProgressFeed {
    /// Merges one frame. Cheap: no allocation beyond the text it keeps,
    /// and a wake only for the first frame since the caller last took:
    /// that wake (or the permit it left) is still owed to the caller, who
    /// takes everything merged since, so a flood costs one wake per take.
    pub fn push(&self, f: ToolProgress) {
        let first = {
            let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
            let first = slot.is_none();
            let u = slot.get_or_insert_with(ProgressUpdate::default);
            if f.message.is_some() {
                u.message = f.message;
            }
            if f.progress.is_some() {
                u.progress = f.progress;
            }
            if f.total.is_some() {
                u.total = f.total;
            }
            if let Some(text) = f.partial {
                append_capped(&mut u.partial, &text);
            }
            first
        };
        if first {
            self.ready.notify_one();
        }
    }

    /// Appends output text only (a built-in tool's stdout).
    pub fn push_partial(&self, text: &str) {
        self.push(ToolProgress {
            partial: Some(text.to_owned()),
            ..Default::default()
        });
    }

    /// What arrived since the last take, if anything.
    pub fn take(&self) -> Option<ProgressUpdate> {
        self.slot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .map(ProgressUpdate::clamped)
    }

    /// Waits until something arrived and takes it.
    pub async fn next(&self) -> ProgressUpdate {
        loop {
            if let Some(u) = self.take() {
                return u;
            }
            self.ready.notified().await;
        }
    }
}

/// Runs `call` to its end while handing what `feed` collects to
/// `on_progress`: at most one update per [`FRAME`], and the last one
/// before the call's output is returned.
pub async fn drive<F: std::future::Future>(
    feed: &ProgressFeed,
    call: F,
    on_progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
) -> F::Output {
    tokio::pin!(call);
    let out = loop {
        tokio::select! {
            r = &mut call => break r,
            u = feed.next() => {
                on_progress(u);
                // One frame before the next: what arrives meanwhile is
                // merged into one update. The call is still polled.
                let pause = tokio::time::sleep(FRAME);
                tokio::select! {
                    r = &mut call => break r,
                    _ = pause => {}
                }
            }
        }
    };
    if let Some(u) = feed.take() {
        on_progress(u);
    }
    out
}

/// Appends `text` to `buf` up to [`PARTIAL_CAP`], cutting at a character
/// boundary and marking the cut once.
fn append_capped(buf: &mut String, text: &str) {
    if buf.ends_with(CUT_MARKER) {
        return;
    }
    let room = PARTIAL_CAP.saturating_sub(buf.len());
    if text.len() <= room {
        buf.push_str(text);
        return;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    buf.push_str(text.get(..end).unwrap_or_default());
    buf.push_str(CUT_MARKER);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(progress: Option<f64>, total: Option<f64>, partial: Option<&str>) -> ToolProgress {
        ToolProgress {
            progress,
            total,
            partial: partial.map(str::to_owned),
            ..Default::default()
        }
    }

    #[test]
    fn numbers_are_clamped_for_display_never_a_panic() {
        let c = |p, t| {
            ProgressUpdate {
                progress: p,
                total: t,
                ..Default::default()
            }
            .clamped()
        };
        assert_eq!(c(Some(12.0), Some(10.0)).progress, Some(10.0));
        assert_eq!(c(Some(-3.0), Some(10.0)).progress, Some(0.0));
        assert_eq!(c(Some(f64::NAN), Some(10.0)).progress, None);
        assert_eq!(c(Some(3.0), Some(f64::NAN)).total, None);
        assert_eq!(c(Some(3.0), Some(0.0)).total, None);
        assert_eq!(c(Some(3.0), Some(-1.0)).total, None);
        assert_eq!(c(Some(f64::INFINITY), None).progress, Some(0.0));
        assert_eq!(c(Some(f64::INFINITY), Some(5.0)).progress, Some(5.0));
    }

    #[test]
    fn a_flood_is_merged_into_one_update_with_its_text_capped_and_marked() {
        let feed = ProgressFeed::default();
        let line = "x".repeat(1000);
        for i in 0..10_000 {
            feed.push(frame(Some(i as f64), Some(10_000.0), Some(&line)));
        }
        let u = feed.take().unwrap();
        assert_eq!(u.progress, Some(9_999.0));
        assert!(u.partial.len() <= PARTIAL_CAP + CUT_MARKER.len());
        assert!(u.partial.ends_with(CUT_MARKER));
        assert_eq!(feed.take(), None, "taken once");
        feed.push(frame(None, None, Some("next")));
        assert_eq!(
            feed.take().unwrap().partial,
            "next",
            "the cap is per update"
        );
    }

    #[tokio::test]
    async fn a_waiting_caller_wakes_for_the_first_frame_after_each_take() {
        let feed = std::sync::Arc::new(ProgressFeed::default());
        feed.push(frame(Some(1.0), None, None));
        feed.push(frame(Some(2.0), None, None));
        assert_eq!(feed.next().await.progress, Some(2.0), "merged, one wake");
        let f = feed.clone();
        let waiter = tokio::spawn(async move { f.next().await });
        tokio::task::yield_now().await;
        feed.push(frame(Some(3.0), None, None));
        feed.push(frame(Some(4.0), None, None));
        let u = tokio::time::timeout(std::time::Duration::from_secs(10), waiter)
            .await
            .expect("the first frame after the take wakes the caller")
            .unwrap();
        assert!(matches!(u.progress, Some(3.0) | Some(4.0)), "{u:?}");
    }

    #[test]
    fn a_cut_falls_on_a_character_boundary() {
        let mut buf = "a".repeat(PARTIAL_CAP - 1);
        append_capped(&mut buf, "éé");
        assert!(buf.ends_with(CUT_MARKER));
    }

    #[test]
    fn later_frames_keep_what_earlier_ones_said() {
        let feed = ProgressFeed::default();
        feed.push(ToolProgress {
            message: Some("building".into()),
            ..Default::default()
        });
        feed.push(frame(Some(1.0), None, Some("a")));
        feed.push(frame(None, None, Some("b")));
        let u = feed.take().unwrap();
        assert_eq!(u.message.as_deref(), Some("building"));
        assert_eq!(u.progress, Some(1.0));
        assert_eq!(u.partial, "ab");
    }
}

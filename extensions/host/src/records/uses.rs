//! The calls in flight to one extension (its commands, tool calls and
//! interceptions, from the moment a first use may start it to the reply),
//! and a signal each time it falls quiet: what `idle_stop.rs` needs to
//! stop an `on_use` extension only when nobody is waiting on it.

use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::watch;

/// One extension's uses, kept across its runs (a use may span the start
/// of a new run).
pub(crate) struct Uses {
    in_flight: AtomicUsize,
    /// Bumped each time it falls quiet (its last call finished, a panel of
    /// it closed): an idle timer that sees it starts over.
    quiet: watch::Sender<u64>,
}

impl Default for Uses {
    fn default() -> Self {
        Uses {
            in_flight: AtomicUsize::new(0),
            quiet: watch::channel(0).0,
        }
    }
}

impl Uses {
    /// A call begins; it counts until the guard drops (answered, failed or
    /// abandoned by its caller).
    pub fn begin(&self) -> InUse<'_> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        InUse { uses: self }
    }

    /// Whether a call is in flight.
    pub fn busy(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) > 0
    }

    /// Something that counts as use just ended: an idle timer starts over.
    /// Free when no timer listens (an eager extension, or an `on_use` one
    /// without `idle_stop_after`).
    pub fn touch(&self) {
        if self.quiet.receiver_count() > 0 {
            self.quiet.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Hears every later [`Uses::touch`].
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.quiet.subscribe()
    }
}

/// A call in flight; see [`Uses::begin`].
pub(crate) struct InUse<'a> {
    uses: &'a Uses,
}

impl Drop for InUse<'_> {
    fn drop(&mut self) {
        if self.uses.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.uses.touch();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_while_any_call_is_in_flight_and_quiet_after_the_last() {
        let u = Uses::default();
        let mut quiet = u.subscribe();
        assert!(!u.busy());
        let a = u.begin();
        let b = u.begin();
        assert!(u.busy());
        drop(a);
        assert!(u.busy());
        assert!(!quiet.has_changed().unwrap(), "one call still in flight");
        drop(b);
        assert!(!u.busy());
        assert!(quiet.has_changed().unwrap());
        quiet.mark_unchanged();
        u.touch();
        assert!(quiet.has_changed().unwrap());
    }
}

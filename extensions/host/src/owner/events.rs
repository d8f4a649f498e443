//! The host's one outward stream: [`HostEvent`]s on a bounded queue the app
//! drains. A leaf: it knows nothing of extensions, so every other module
//! can post without importing the host.
//!
//! Bounded, so a flooding extension can never grow memory, but without
//! losing what the app must see. While the app keeps up (the usual case:
//! the backend drains this queue at once into its own policy queue), every
//! event goes straight into the channel. When the channel is full (a flood
//! while the app's task was not scheduled, which on a loaded 2-core machine
//! happens), notes and status lines are dropped (the caller logs it) and
//! everything else waits in a spill queue that one task feeds into the
//! channel in order as room frees: a `panel_close`, an `ext_error` or a
//! command's result is never lost, and nothing overtakes what spilled
//! before it. The spill stays small: renders of one panel coalesce to the
//! newest and repeated `ext_changed` collapse, so only rare events can
//! accumulate.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::mpsc;
use zot_ext_protocol::rpc::UiEvent;

/// How many host events may wait for the app before notes are dropped and
/// other events spill (see the module's notes).
pub const EVENT_QUEUE: usize = 1024;

/// Something the app should show or do, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// Nearly every event is `Ui`, the large one: boxing it, as the lint
// suggests, would cost an allocation per panel frame to shrink the rare
// `Submit`.
#[allow(clippy::large_enum_variant)]
pub enum HostEvent {
    /// Notes, panel frames, errors and registry changes, ready for the UI.
    Ui(UiEvent),
    /// An extension's `submit` (blank text is already dropped).
    Submit {
        /// Who submitted.
        extension: String,
        /// The prompt.
        text: String,
    },
    /// An extension's accepted `state_set`, for the app to persist in the
    /// session file (`null` removed the key).
    StateSet {
        /// Whose state.
        extension: String,
        /// The key.
        key: String,
        /// The value stored.
        value: serde_json::Value,
    },
}

/// The sending end of the event queue.
#[derive(Clone)]
pub(crate) struct Bus {
    /// The bounded channel the app reads.
    tx: mpsc::Sender<HostEvent>,
    /// Events waiting for room, in order.
    spill: Arc<Mutex<Spill>>,
}

#[derive(Default)]
struct Spill {
    /// What waits, oldest first.
    queue: VecDeque<HostEvent>,
    /// A task is feeding `queue` into the channel; while it does, every new
    /// event joins the queue so none overtakes a spilled one.
    draining: bool,
}

/// Whether `ev` may be dropped when the app is behind: a note or status
/// line, which the app shows and forgets anyway, or a message for an HTML
/// panel's page (a flood of them is bounded here, counted in the sender's
/// log: docs/extensions.md "HTML panels").
fn droppable(ev: &HostEvent) -> bool {
    matches!(
        ev,
        HostEvent::Ui(
            UiEvent::ExtNotify { .. } | UiEvent::ExtStatus { .. } | UiEvent::ExtPanelMessage { .. }
        )
    )
}

impl Bus {
    /// A bus and the receiver the app drains, holding [`EVENT_QUEUE`] events.
    pub fn new() -> (Bus, mpsc::Receiver<HostEvent>) {
        Bus::with_capacity(EVENT_QUEUE)
    }

    fn with_capacity(n: usize) -> (Bus, mpsc::Receiver<HostEvent>) {
        let (tx, rx) = mpsc::channel(n);
        let bus = Bus {
            tx,
            spill: Arc::default(),
        };
        (bus, rx)
    }

    fn spill(&self) -> MutexGuard<'_, Spill> {
        self.spill.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `ev`; returns `false` only when it was dropped (a note while
    /// the app is behind; an app that stopped listening is not an error).
    pub fn post(&self, ev: HostEvent) -> bool {
        let mut sp = self.spill();
        let ev = if sp.draining {
            ev
        } else {
            match self.tx.try_send(ev) {
                Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => return true,
                Err(mpsc::error::TrySendError::Full(ev)) => ev,
            }
        };
        if droppable(&ev) {
            return false;
        }
        push_coalesced(&mut sp.queue, ev);
        if !sp.draining {
            let Ok(rt) = tokio::runtime::Handle::try_current() else {
                // No runtime (a host dropped outside one): nobody reads.
                sp.queue.clear();
                return true;
            };
            sp.draining = true;
            rt.spawn(drain(self.tx.clone(), self.spill.clone()));
        }
        true
    }
}

/// Adds `ev` to the spill, replacing a waiting render of the same panel (the
/// newest state is what matters; a title or footer only the older one set
/// is kept) and skipping an `ext_changed` when one already waits.
fn push_coalesced(queue: &mut VecDeque<HostEvent>, ev: HostEvent) {
    match ev {
        HostEvent::Ui(UiEvent::ExtChanged {})
            if queue
                .iter()
                .any(|e| matches!(e, HostEvent::Ui(UiEvent::ExtChanged {}))) => {}
        HostEvent::Ui(UiEvent::ExtPanelRender {
            extension,
            panel_id,
            title,
            lines,
            footer,
            placement,
        }) => {
            let older = queue.iter().position(|e| {
                matches!(e, HostEvent::Ui(UiEvent::ExtPanelRender { extension: x, panel_id: p, .. })
                    if *x == extension && *p == panel_id)
            });
            let (mut title, mut footer) = (title, footer);
            if let Some(HostEvent::Ui(UiEvent::ExtPanelRender {
                title: old_title,
                footer: old_footer,
                ..
            })) = older.and_then(|i| queue.remove(i))
            {
                title = title.or(old_title);
                footer = footer.or(old_footer);
            }
            queue.push_back(HostEvent::Ui(UiEvent::ExtPanelRender {
                extension,
                panel_id,
                title,
                lines,
                footer,
                placement,
            }));
        }
        other => queue.push_back(other),
    }
}

/// Feeds the spill into the channel in order, waiting for room; ends when
/// the spill is empty (or the app stopped listening).
async fn drain(tx: mpsc::Sender<HostEvent>, spill: Arc<Mutex<Spill>>) {
    loop {
        let next = {
            let mut sp = spill.lock().unwrap_or_else(|e| e.into_inner());
            match sp.queue.pop_front() {
                Some(ev) => ev,
                None => {
                    sp.draining = false;
                    return;
                }
            }
        };
        if tx.send(next).await.is_err() {
            let mut sp = spill.lock().unwrap_or_else(|e| e.into_inner());
            sp.queue.clear();
            sp.draining = false;
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zot_ext_protocol::NoteLevel;

    fn note(i: usize) -> HostEvent {
        HostEvent::Ui(UiEvent::ExtNotify {
            extension: "x".into(),
            level: NoteLevel::Info.into(),
            style: NoteLevel::Info,
            message: format!("n{i}"),
        })
    }

    fn render(line: &str, title: Option<&str>) -> HostEvent {
        HostEvent::Ui(UiEvent::ExtPanelRender {
            extension: "x".into(),
            panel_id: "p".into(),
            title: title.map(Into::into),
            lines: vec![line.into()],
            footer: None,
            placement: Default::default(),
        })
    }

    fn close() -> HostEvent {
        HostEvent::Ui(UiEvent::ExtPanelClose {
            extension: "x".into(),
            panel_id: "p".into(),
            reason: None,
        })
    }

    #[tokio::test]
    async fn a_full_queue_drops_notes_but_keeps_the_newest_render_and_the_close_in_order() {
        let (bus, mut rx) = Bus::with_capacity(4);
        for i in 0..4 {
            assert!(bus.post(note(i)));
        }
        assert!(!bus.post(note(4)), "a note beyond a full queue is dropped");
        assert!(bus.post(render("r1", Some("T"))));
        assert!(!bus.post(note(5)), "notes stay droppable while spilling");
        assert!(bus.post(render("r2", None)));
        assert!(bus.post(HostEvent::Ui(UiEvent::ExtChanged {})));
        assert!(bus.post(HostEvent::Ui(UiEvent::ExtChanged {})));
        assert!(bus.post(close()));
        let mut got = Vec::new();
        for _ in 0..7 {
            got.push(rx.recv().await.unwrap());
        }
        assert_eq!(&got[..4], &[note(0), note(1), note(2), note(3)]);
        assert_eq!(
            got[4],
            HostEvent::Ui(UiEvent::ExtPanelRender {
                extension: "x".into(),
                panel_id: "p".into(),
                title: Some("T".into()),
                lines: vec!["r2".into()],
                footer: None,
                placement: Default::default(),
            }),
            "the newest render, with the title only the older one set"
        );
        assert_eq!(got[5], HostEvent::Ui(UiEvent::ExtChanged {}));
        assert_eq!(got[6], close());
        // Drained: the next event goes straight through again.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(bus.post(note(9)));
        assert_eq!(rx.recv().await.unwrap(), note(9));
    }
}

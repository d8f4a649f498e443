//! The one `UiEvent` stream from the agent and the extension host to a
//! front end, bounded where a flood can come from. Producers never wait:
//! the agent and the host hand every event to an unbounded channel that a
//! pump task drains at once into an [`EventQueue`], and the queue goes to
//! the front end through a small bounded channel at the pace the front end
//! reads (RPC: as fast as the client reads stdout; desktop: the bridge's
//! per-frame budget). While the front end is behind, the queue applies the
//! policy of docs/reliability.md ("Backend, RPC and desktop"):
//!
//! - an extension's notes (`ext_notify`) and status lines (`ext_status`)
//!   are dropped beyond [`MAX_NOTES_PER_EXT`] queued per extension or
//!   [`MAX_NOTES`] / [`MAX_NOTE_BYTES`] in all, and each extension that
//!   lost some later gets one warning note saying how many;
//! - a panel's renders are coalesced: a newer render replaces a queued one
//!   of the same panel (what is drawn is the newest state anyway);
//! - repeated `ext_changed` (re-read the list) collapse into one;
//! - everything else (turns, text, tool calls and results, errors, panel
//!   open/close, command actions, `done`) is never dropped nor reordered:
//!   a client needs every one to follow a turn, and they come at the pace
//!   of the model and the tools, not of a flooding extension.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use tokio::sync::mpsc;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::NoteLevel;

use crate::secrets::redact::Redactor;

/// Notes (and status lines) queued per extension while the front end is
/// behind; beyond it that extension's new notes are dropped and counted.
pub const MAX_NOTES_PER_EXT: usize = 256;
/// Notes queued from all extensions together.
pub const MAX_NOTES: usize = 1024;
/// Text bytes of the queued notes together.
pub const MAX_NOTE_BYTES: usize = 4 * 1024 * 1024;
/// Events handed to the front end but not read by it yet: small, so a
/// slow reader leaves the rest in the queue where the policy applies.
pub const HANDOFF: usize = 64;

/// A queued event, or the hole a coalesced render left.
type Slot = Option<UiEvent>;

/// The policy queue; pure, so its rules are unit-tested without tasks.
#[derive(Default)]
pub struct EventQueue {
    /// Events in order; `None` where a render was superseded.
    slots: VecDeque<Slot>,
    /// Sequence number of `slots[0]`.
    base: u64,
    /// Queued render per (extension, panel), by sequence number.
    renders: HashMap<(String, String), u64>,
    /// Whether an `ext_changed` is queued.
    changed_queued: bool,
    /// Queued notes per extension.
    notes: HashMap<String, usize>,
    /// Queued notes in all.
    notes_total: usize,
    /// Their text bytes.
    note_bytes: usize,
    /// Notes dropped per extension, not yet reported.
    dropped: HashMap<String, u64>,
    /// Warnings about drops, to go out next.
    markers: VecDeque<UiEvent>,
    /// Every note dropped since start (for tests and docs).
    pub dropped_total: u64,
    /// Every render coalesced since start.
    pub coalesced_total: u64,
}

/// The extension and text size of a droppable note (or panel message), if
/// `ev` is one.
fn note_of(ev: &UiEvent) -> Option<(&str, usize)> {
    match ev {
        UiEvent::ExtNotify {
            extension, message, ..
        } => Some((extension, message.len())),
        UiEvent::ExtStatus {
            extension, text, ..
        } => Some((extension, text.len())),
        // Messages for an HTML panel's page are bounded like notes: a
        // flood from one extension cannot fill the window's queue.
        UiEvent::ExtPanelMessage {
            extension, data, ..
        } => Some((
            extension,
            serde_json::to_string(data).map_or(0, |s| s.len()),
        )),
        _ => None,
    }
}

impl EventQueue {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue::default()
    }

    /// Events queued (holes not counted exactly; for tests and limits).
    pub fn len(&self) -> usize {
        self.slots.len() + self.markers.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.markers.is_empty() && self.slots.iter().all(Option::is_none)
    }

    /// Adds an event under the policy.
    pub fn push(&mut self, ev: UiEvent) {
        if let Some((ext, bytes)) = note_of(&ev) {
            let mine = self.notes.get(ext).copied().unwrap_or(0);
            if mine >= MAX_NOTES_PER_EXT
                || self.notes_total >= MAX_NOTES
                || self.note_bytes.saturating_add(bytes) > MAX_NOTE_BYTES
            {
                *self.dropped.entry(ext.to_owned()).or_insert(0) += 1;
                self.dropped_total += 1;
                return;
            }
            *self.notes.entry(ext.to_owned()).or_insert(0) += 1;
            self.notes_total += 1;
            self.note_bytes += bytes;
        }
        match ev {
            UiEvent::ExtChanged {} if self.changed_queued => return,
            UiEvent::ExtChanged {} => self.changed_queued = true,
            UiEvent::ExtPanelRender {
                ref extension,
                ref panel_id,
                ..
            } => {
                let seq = self.base + self.slots.len() as u64;
                let key = (extension.clone(), panel_id.clone());
                if let Some(old) = self.renders.insert(key, seq) {
                    let ev = self.merge_older(old, ev);
                    self.slots.push_back(Some(ev));
                    return;
                }
            }
            _ => {}
        }
        self.slots.push_back(Some(ev));
    }

    /// Takes the queued render at `old` out (leaving a hole) and keeps its
    /// title and footer where the newer render leaves them unchanged.
    fn merge_older(&mut self, old: u64, newer: UiEvent) -> UiEvent {
        let idx = usize::try_from(old.saturating_sub(self.base)).unwrap_or(usize::MAX);
        let Some(slot) = self.slots.get_mut(idx) else {
            return newer;
        };
        let Some(UiEvent::ExtPanelRender {
            title: old_title,
            footer: old_footer,
            ..
        }) = slot.take()
        else {
            return newer;
        };
        self.coalesced_total += 1;
        match newer {
            UiEvent::ExtPanelRender {
                extension,
                panel_id,
                title,
                lines,
                footer,
                placement,
            } => UiEvent::ExtPanelRender {
                extension,
                panel_id,
                title: title.or(old_title),
                lines,
                footer: footer.or(old_footer),
                placement,
            },
            other => other,
        }
    }

    /// The next event to hand out.
    pub fn pop(&mut self) -> Option<UiEvent> {
        if let Some(m) = self.markers.pop_front() {
            return Some(m);
        }
        while let Some(slot) = self.slots.pop_front() {
            let seq = self.base;
            self.base += 1;
            let Some(ev) = slot else { continue };
            match &ev {
                UiEvent::ExtChanged {} => self.changed_queued = false,
                UiEvent::ExtPanelRender {
                    extension,
                    panel_id,
                    ..
                } => {
                    let key = (extension.clone(), panel_id.clone());
                    if self.renders.get(&key) == Some(&seq) {
                        self.renders.remove(&key);
                    }
                }
                _ => {}
            }
            if let Some((ext, bytes)) = note_of(&ev) {
                self.notes_total = self.notes_total.saturating_sub(1);
                self.note_bytes = self.note_bytes.saturating_sub(bytes);
                let left = match self.notes.get_mut(ext) {
                    Some(n) => {
                        *n = n.saturating_sub(1);
                        *n
                    }
                    None => 0,
                };
                if left == 0 {
                    let ext = ext.to_owned();
                    self.notes.remove(&ext);
                    self.report_drops(&ext);
                }
            }
            return Some(ev);
        }
        // Drained: report drops of extensions whose notes all went out.
        let pending: Vec<String> = self.dropped.keys().cloned().collect();
        for ext in pending {
            self.report_drops(&ext);
        }
        self.markers.pop_front()
    }

    /// Queues the warning for `ext`'s dropped notes, once its queue is empty.
    fn report_drops(&mut self, ext: &str) {
        if self.notes.contains_key(ext) {
            return;
        }
        if let Some(n) = self.dropped.remove(ext) {
            self.markers.push_back(UiEvent::ExtNotify {
                extension: ext.to_owned(),
                level: NoteLevel::Warn.into(),
                style: NoteLevel::Warn,
                message: format!(
                    "zot dropped {n} note(s) or panel message(s) from this extension: it sent them faster than they could be shown"
                ),
            });
        }
    }
}

/// Starts the pump: drains `input` into a policy queue (never waiting for
/// the front end) and hands events to the returned receiver as it reads
/// them, with this run's secrets masked.
pub fn pump(
    mut input: mpsc::UnboundedReceiver<UiEvent>,
    redactor: Arc<Redactor>,
) -> mpsc::Receiver<UiEvent> {
    let (out, rx) = mpsc::channel::<UiEvent>(HANDOFF);
    tokio::spawn(async move {
        let mut q = EventQueue::new();
        let mut open = true;
        loop {
            if q.is_empty() {
                if !open {
                    break;
                }
                match input.recv().await {
                    Some(ev) => q.push(redactor.event(ev)),
                    None => open = false,
                }
                continue;
            }
            tokio::select! {
                biased;
                ev = input.recv(), if open => match ev {
                    Some(ev) => q.push(redactor.event(ev)),
                    None => open = false,
                },
                permit = out.reserve() => match permit {
                    Ok(p) => {
                        if let Some(ev) = q.pop() {
                            p.send(ev);
                        }
                    }
                    Err(_) => break,
                },
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(ext: &str, i: usize) -> UiEvent {
        UiEvent::ExtNotify {
            extension: ext.into(),
            level: NoteLevel::Info.into(),
            style: NoteLevel::Info,
            message: format!("n{i}"),
        }
    }

    fn render(ext: &str, panel: &str, line: &str, title: Option<&str>) -> UiEvent {
        UiEvent::ExtPanelRender {
            extension: ext.into(),
            panel_id: panel.into(),
            title: title.map(Into::into),
            lines: vec![line.into()],
            footer: None,
            placement: Default::default(),
        }
    }

    fn drain(q: &mut EventQueue) -> Vec<UiEvent> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn a_note_flood_is_capped_per_extension_and_reported_once_drained() {
        let mut q = EventQueue::new();
        for i in 0..10_000 {
            q.push(note("flood", i));
        }
        q.push(note("quiet", 0));
        q.push(UiEvent::Done {});
        let out = drain(&mut q);
        let flood: Vec<_> = out
            .iter()
            .filter(|e| matches!(e, UiEvent::ExtNotify { extension, .. } if extension == "flood"))
            .collect();
        // The cap, plus one warning.
        assert_eq!(flood.len(), MAX_NOTES_PER_EXT + 1);
        let UiEvent::ExtNotify { message, level, .. } = flood.last().unwrap() else {
            panic!()
        };
        assert_eq!(*level, NoteLevel::Warn.into());
        assert!(message.contains(&format!("dropped {}", 10_000 - MAX_NOTES_PER_EXT)));
        // The quiet extension's note and the turn's end both arrived.
        assert!(out.iter().any(
            |e| matches!(e, UiEvent::ExtNotify { extension, message, .. } if extension == "quiet" && message == "n0")
        ));
        assert!(out.iter().any(|e| matches!(e, UiEvent::Done {})));
        assert_eq!(q.dropped_total, (10_000 - MAX_NOTES_PER_EXT) as u64);
    }

    #[test]
    fn a_panel_message_flood_is_capped_like_notes_and_counted_in_one_line() {
        let mut q = EventQueue::new();
        for i in 0..5_000 {
            q.push(UiEvent::ExtPanelMessage {
                panel_id: "c1".into(),
                extension: "chart".into(),
                data: serde_json::json!({ "n": i }),
            });
        }
        q.push(UiEvent::Done {});
        let out = drain(&mut q);
        let msgs = out
            .iter()
            .filter(|e| matches!(e, UiEvent::ExtPanelMessage { .. }))
            .count();
        assert_eq!(msgs, MAX_NOTES_PER_EXT);
        let warnings: Vec<_> = out
            .iter()
            .filter_map(|e| match e {
                UiEvent::ExtNotify { message, .. } => Some(message.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(
            warnings,
            vec![format!(
                "zot dropped {} note(s) or panel message(s) from this extension: it sent them faster than they could be shown",
                5_000 - MAX_NOTES_PER_EXT
            )]
        );
        assert!(out.iter().any(|e| matches!(e, UiEvent::Done {})));
    }

    #[test]
    fn the_total_note_budget_holds_across_many_extensions() {
        let mut q = EventQueue::new();
        for e in 0..100 {
            for i in 0..100 {
                q.push(note(&format!("e{e}"), i));
            }
        }
        assert!(q.len() <= MAX_NOTES);
        // A huge note does not fit the byte budget once it is spent.
        let mut q = EventQueue::new();
        for i in 0..5 {
            q.push(UiEvent::ExtNotify {
                extension: format!("big{i}"),
                level: NoteLevel::Info.into(),
                style: NoteLevel::Info,
                message: "x".repeat(MAX_NOTE_BYTES / 2),
            });
        }
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn renders_of_one_panel_coalesce_in_order_and_keep_the_last_title() {
        let mut q = EventQueue::new();
        q.push(render("a", "p", "1", Some("T")));
        q.push(UiEvent::TurnStart { step: 1 });
        q.push(render("a", "q", "other", None));
        for i in 2..=1000 {
            q.push(render("a", "p", &i.to_string(), None));
        }
        let out = drain(&mut q);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(matches!(out[0], UiEvent::TurnStart { .. }));
        assert!(matches!(&out[1], UiEvent::ExtPanelRender { panel_id, .. } if panel_id == "q"));
        let UiEvent::ExtPanelRender { lines, title, .. } = &out[2] else {
            panic!()
        };
        assert_eq!(lines, &vec!["1000".to_string()]);
        assert_eq!(title.as_deref(), Some("T"));
        assert_eq!(q.coalesced_total, 999);
        // Once handed out, a panel's next render queues again.
        q.push(render("a", "p", "again", None));
        assert_eq!(drain(&mut q).len(), 1);
    }

    #[test]
    fn turn_events_are_never_dropped_and_ext_changed_collapses() {
        let mut q = EventQueue::new();
        for i in 0..50_000 {
            q.push(UiEvent::TextDelta {
                delta: i.to_string(),
            });
            q.push(UiEvent::ExtChanged {});
        }
        q.push(UiEvent::Done {});
        let out = drain(&mut q);
        let deltas = out
            .iter()
            .filter(|e| matches!(e, UiEvent::TextDelta { .. }))
            .count();
        assert_eq!(deltas, 50_000);
        assert_eq!(
            out.iter()
                .filter(|e| matches!(e, UiEvent::ExtChanged {}))
                .count(),
            1
        );
        assert!(matches!(out.last(), Some(UiEvent::Done {})));
    }
}

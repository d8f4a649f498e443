//! The dialogs that wait for an answer, in the order they were asked:
//! plain data under the state lock, so taking a request out is the one
//! step that decides who answers it (the user, an RPC client, its timeout,
//! its extension's exit or an abort). Whoever takes it out answers; anyone
//! later finds nothing, so every request is answered exactly once.
//!
//! It also holds the contract's bound: at most [`PER_EXTENSION`]
//! unanswered requests per extension, so a flood cannot grow it.

use serde_json::Value;
use zot_ext_protocol::{DialogKind, RequestId};

use crate::records::ext_id::ExtId;

/// The most requests one extension may have unanswered (the one on screen
/// counts); the next is answered `cancel` with reason "too many".
pub const PER_EXTENSION: usize = 4;

/// Who asked a waiting dialog, and what an answer must fit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Waiting {
    /// zot's own id (the RPC `request_id`).
    pub request_id: String,
    /// The extension that asked.
    pub ext: ExtId,
    /// Its name, for messages.
    pub ext_name: String,
    /// The extension's own id, echoed in `ui_response`.
    pub ext_request: RequestId,
    /// What it asks for.
    pub kind: DialogKind,
    /// For `select`.
    pub options: Vec<String>,
    /// For `form`.
    pub schema: Option<Value>,
    /// For `url`: the address to open on accept.
    pub url: Option<String>,
    /// The prompt that was running when it was asked, if any: aborting
    /// that prompt cancels it.
    pub turn: Option<u64>,
}

/// The waiting dialogs, oldest first.
#[derive(Debug, Default)]
pub(crate) struct DialogQueue {
    waiting: Vec<Waiting>,
    /// The prompt running now (`Host::dialogs_turn`), if any.
    turn: Option<u64>,
}

impl DialogQueue {
    /// Adds `w` unless its extension already has [`PER_EXTENSION`]
    /// waiting; it belongs to the prompt running now. `false`: refused.
    pub fn push(&mut self, mut w: Waiting) -> bool {
        if self.count_of(w.ext) >= PER_EXTENSION {
            return false;
        }
        w.turn = self.turn;
        self.waiting.push(w);
        true
    }

    /// How many `ext` has waiting.
    pub fn count_of(&self, ext: ExtId) -> usize {
        self.waiting.iter().filter(|w| w.ext == ext).count()
    }

    /// The waiting request `request_id`, if it still waits.
    pub fn get(&self, request_id: &str) -> Option<&Waiting> {
        self.waiting.iter().find(|w| w.request_id == request_id)
    }

    /// Takes `request_id` out; `None` when it was already answered.
    pub fn take(&mut self, request_id: &str) -> Option<Waiting> {
        let i = self
            .waiting
            .iter()
            .position(|w| w.request_id == request_id)?;
        Some(self.waiting.remove(i))
    }

    /// Takes out everything `ext` asked (it stopped).
    pub fn remove_all_of(&mut self, ext: ExtId) -> Vec<Waiting> {
        self.take_where(|w| w.ext == ext)
    }

    /// Sets the prompt running now; `None` when it ended.
    pub fn set_turn(&mut self, turn: Option<u64>) {
        self.turn = turn;
    }

    /// Takes out what was asked during the prompt running now (it is being
    /// aborted); what was asked outside a prompt stays.
    pub fn take_turn(&mut self) -> Vec<Waiting> {
        let Some(t) = self.turn else {
            return Vec::new();
        };
        self.take_where(|w| w.turn == Some(t))
    }

    fn take_where(&mut self, f: impl Fn(&Waiting) -> bool) -> Vec<Waiting> {
        let (gone, kept) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|w| f(w));
        self.waiting = kept;
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: &str, ext: u32) -> Waiting {
        Waiting {
            request_id: id.into(),
            ext: ExtId(ext),
            ext_name: format!("e{ext}"),
            ext_request: RequestId::from(id),
            kind: DialogKind::Confirm,
            options: Vec::new(),
            schema: None,
            url: None,
            turn: None,
        }
    }

    #[test]
    fn an_extension_gets_four_and_others_are_not_counted() {
        let mut q = DialogQueue::default();
        for i in 0..PER_EXTENSION {
            assert!(q.push(w(&format!("a{i}"), 1)));
        }
        assert!(!q.push(w("a9", 1)), "a fifth is refused");
        assert!(q.push(w("b0", 2)), "another extension has its own four");
        assert!(q.take("a0").is_some());
        assert!(q.push(w("a5", 1)), "an answer frees a place");
    }

    #[test]
    fn a_request_is_taken_once() {
        let mut q = DialogQueue::default();
        q.push(w("x", 1));
        assert!(q.take("x").is_some());
        assert!(q.take("x").is_none());
    }

    #[test]
    fn an_abort_takes_only_what_its_prompt_asked() {
        let mut q = DialogQueue::default();
        q.push(w("before", 1));
        q.set_turn(Some(7));
        q.push(w("during", 1));
        let gone = q.take_turn();
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0].request_id, "during");
        assert!(q.get("before").is_some());
    }

    #[test]
    fn an_exit_takes_everything_of_its_extension() {
        let mut q = DialogQueue::default();
        q.push(w("a", 1));
        q.push(w("b", 2));
        q.push(w("c", 1));
        let gone = q.remove_all_of(ExtId(1));
        assert_eq!(gone.len(), 2);
        assert!(q.get("b").is_some());
    }
}

//! The agent's side of checkpoints and session state: which prompts carry
//! a checkpoint, the extensions' state as the session records it (and as
//! it was before each prompt), and cutting the transcript back to before
//! a prompt. The files are not the agent's business (`checkpoints`); it
//! knows checkpoint ids only, as written on each prompt's user message.

use std::collections::HashMap;

use zot_ext_host::SessionState;
use zot_ext_protocol::rpc::UiEvent;

use super::session::{self, Session};
use super::Agent;
use crate::providers::transcript::Message;

/// The conversation before a prompt, for a fork.
pub struct Before {
    /// The messages before that prompt's user message.
    pub messages: Vec<Message>,
    /// The extensions' state just before it.
    pub state: SessionState,
    /// The state at each earlier checkpointed prompt.
    pub state_at: HashMap<String, SessionState>,
}

impl Agent {
    /// Adds a prompt's user message; its checkpoint (if any) remembers the
    /// extensions' state as it is now, for a rewind to before it.
    pub fn push_prompt(&self, m: Message) {
        if let Some(cp) = &m.checkpoint {
            let mut st = self.state();
            let now = st.ext_state.clone();
            st.state_at.insert(cp.clone(), now);
        }
        self.push(m);
    }

    /// An extension's accepted `state_set`: kept, and written to the
    /// session file.
    pub fn record_state(&self, extension: &str, key: &str, value: serde_json::Value) {
        let mut st = self.state();
        if let Some(s) = st.session.as_mut() {
            if let Err(e) = s.append_state(extension, key, &value) {
                self.send(UiEvent::Error {
                    message: format!(
                        "{e:#}; extension {extension}'s state is kept for this run but not saved"
                    ),
                });
            }
        }
        session::apply_state(
            &mut st.ext_state,
            extension.to_owned(),
            key.to_owned(),
            value,
        );
    }

    /// The extensions' state in this session now.
    pub fn ext_state(&self) -> SessionState {
        self.state().ext_state.clone()
    }

    /// Each prompt in the transcript that has a checkpoint: its user
    /// message's index and the checkpoint id, oldest first.
    pub fn checkpoint_marks(&self) -> Vec<(usize, String)> {
        self.state()
            .messages
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.checkpoint.clone().map(|c| (i, c)))
            .collect()
    }

    /// Cuts the transcript back to before the prompt of `checkpoint` and
    /// the extensions' state to what it was then; the session file records
    /// it (with `undo`, the checkpoint of a rewind of code done with it).
    /// Answers the messages left and the state to hand the extensions.
    pub fn rewind_conversation(
        &self,
        checkpoint: &str,
        undo: Option<&str>,
    ) -> Result<(usize, SessionState), String> {
        let mut st = self.state();
        let at = st
            .messages
            .iter()
            .position(|m| m.checkpoint.as_deref() == Some(checkpoint))
            .ok_or_else(|| {
                format!("rewind: no prompt in this conversation has checkpoint {checkpoint} (list them with `checkpoints`)")
            })?;
        if let Some(s) = st.session.as_mut() {
            s.append_rewind(checkpoint, undo)
                .map_err(|e| format!("rewind: {e:#}; nothing was changed"))?;
        }
        let dropped: Vec<String> = st
            .messages
            .drain(at..)
            .filter_map(|m| m.checkpoint)
            .collect();
        let state = st.state_at.get(checkpoint).cloned().unwrap_or_default();
        for cp in dropped {
            st.state_at.remove(&cp);
        }
        st.ext_state = state.clone();
        Ok((at, state))
    }

    /// The conversation before the prompt of `checkpoint`, for a fork.
    pub fn before(&self, checkpoint: &str) -> Result<Before, String> {
        let st = self.state();
        let at = st
            .messages
            .iter()
            .position(|m| m.checkpoint.as_deref() == Some(checkpoint))
            .ok_or_else(|| {
                format!("fork: no prompt in this conversation has checkpoint {checkpoint} (list them with `checkpoints`)")
            })?;
        let messages: Vec<Message> = st.messages.iter().take(at).cloned().collect();
        let state_at = messages
            .iter()
            .filter_map(|m| m.checkpoint.as_ref())
            .filter_map(|c| st.state_at.get(c).map(|s| (c.clone(), s.clone())))
            .collect();
        Ok(Before {
            messages,
            state: st.state_at.get(checkpoint).cloned().unwrap_or_default(),
            state_at,
        })
    }

    /// Continues in `session` (a fork), already holding `before`.
    pub fn continue_fork(&self, before: Before, session: Option<Session>) {
        let mut st = self.state();
        st.messages = before.messages;
        st.usage = Default::default();
        if st.session.is_some() {
            st.session = session;
        }
        st.ext_state = before.state;
        st.state_at = before.state_at;
    }
}

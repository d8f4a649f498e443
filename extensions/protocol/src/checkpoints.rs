//! Checkpoints and session-scoped extension state (docs/rpc.md
//! "Checkpoints and rewind"): what the `checkpoints`,
//! `checkpoint_preview`, `rewind` and `fork` commands answer, and the
//! frames an extension uses to keep state that follows the conversation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One extension's session state: its keys and their JSON values.
pub type ExtSessionState = BTreeMap<String, Value>;

/// Largest JSON value one `state_set` may store (64 KiB, serialized).
pub const STATE_VALUE_MAX: usize = 64 * 1024;
/// Largest total one extension may keep in one session (1 MiB, the sum of
/// its keys and serialized values).
pub const STATE_EXT_MAX: usize = 1024 * 1024;
/// Longest key.
pub const STATE_KEY_MAX: usize = 256;

/// What `rewind` restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum RewindScope {
    /// The files only.
    Code,
    /// The transcript only (and the extensions' session state with it).
    Conversation,
    /// Both.
    Both,
}

impl RewindScope {
    /// Whether the files are restored.
    pub fn code(self) -> bool {
        matches!(self, RewindScope::Code | RewindScope::Both)
    }
    /// Whether the transcript is truncated.
    pub fn conversation(self) -> bool {
        matches!(self, RewindScope::Conversation | RewindScope::Both)
    }
}

/// One checkpoint in `checkpoints`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CheckpointInfo {
    /// Its id (a commit in the shadow repository).
    pub id: String,
    /// The index in `get_messages` of the user message of its prompt.
    pub message_index: u32,
    /// When it was taken (RFC 3339).
    pub created_at: String,
    /// How many files a rewind of code to it would change now.
    pub files_changed: u32,
}

/// `checkpoints`: oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CheckpointsResult {
    /// The checkpoints of the prompts in the transcript.
    pub checkpoints: Vec<CheckpointInfo>,
}

/// How a file would change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum FileChangeKind {
    /// It exists at the checkpoint, not now: the rewind creates it.
    Added,
    /// It differs: the rewind writes the checkpoint's content.
    Modified,
    /// It exists now, not at the checkpoint: the rewind deletes it.
    Deleted,
}

/// One file a rewind of code would change.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct FileChange {
    /// Relative to the project.
    pub path: String,
    /// What the rewind does to it.
    pub change: FileChangeKind,
    /// Changed outside zot (by the user or another program) since the
    /// checkpoint: the rewind undoes that change too (the undo checkpoint
    /// keeps it).
    pub outside: bool,
    /// Its content now, when it is text of a shown size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub now: Option<String>,
    /// Its content at the checkpoint, when it is text of a shown size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub then: Option<String>,
    /// Why no content is shown ("binary", "too large").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// `checkpoint_preview`: what `rewind{scope:"code"}` would change.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CheckpointPreviewResult {
    /// The checkpoint.
    pub checkpoint: String,
    /// The index in `get_messages` of its user message.
    pub message_index: u32,
    /// Each file, by path.
    pub files: Vec<FileChange>,
    /// How many of them were changed outside zot.
    pub outside: u32,
}

/// `rewind`: what it did.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RewindResult {
    /// The files it changed (code scopes).
    pub files: Vec<String>,
    /// The checkpoint of the files as they were before the rewind
    /// (code scopes): `rewind{checkpoint: undo, scope:"code"}` undoes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub undo: Option<String>,
    /// Messages left in the transcript.
    pub messages: u32,
}

/// `fork`: the new session, now the current one.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ForkResult {
    /// The new session file (empty with `--no-session`).
    pub path: String,
    /// Messages it holds.
    pub messages: u32,
    /// Files restored (when `code` was asked).
    pub files: Vec<String>,
    /// The undo checkpoint of that restore.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub undo: Option<String>,
}

/// ext → zot `state_set`: stores `value` under `key` for this extension in
/// the current session (`null` removes the key).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StateSet {
    /// The key.
    pub key: String,
    /// Any JSON value; `null` removes the key.
    #[ts(type = "unknown")]
    pub value: Value,
}

/// zot → ext `state_restored`: the session changed under the extension
/// (clear, another session opened, a rewind of the conversation, a fork);
/// this is its whole state in the session now.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StateRestored {
    /// Every key and value (`{}` for none).
    #[ts(as = "BTreeMap<String, Value>")]
    pub state: ExtSessionState,
}

/// Why a `state_set` is refused, if it is: an empty or overlong key, a
/// value over [`STATE_VALUE_MAX`], or a total over [`STATE_EXT_MAX`] once
/// stored. `current` is the extension's state before the change.
pub fn state_set_problem(current: &ExtSessionState, key: &str, value: &Value) -> Option<String> {
    if key.is_empty() {
        return Some("the key is empty".into());
    }
    if key.len() > STATE_KEY_MAX {
        return Some(format!(
            "the key is {} bytes, over the limit of {STATE_KEY_MAX}",
            key.len()
        ));
    }
    let size = |v: &Value| serde_json::to_vec(v).map(|b| b.len()).unwrap_or(usize::MAX);
    let this = size(value);
    if this > STATE_VALUE_MAX {
        return Some(format!(
            "the value of {key:?} is {this} bytes of JSON, over the limit of {STATE_VALUE_MAX} per value"
        ));
    }
    let others: usize = current
        .iter()
        .filter(|(k, _)| k.as_str() != key)
        .map(|(k, v)| k.len().saturating_add(size(v)))
        .fold(0usize, usize::saturating_add);
    let total = if value.is_null() {
        others
    } else {
        others.saturating_add(key.len()).saturating_add(this)
    };
    (total > STATE_EXT_MAX).then(|| {
        format!(
            "storing {key:?} would make this extension's session state {total} bytes, over the limit of {STATE_EXT_MAX}; remove keys (set them to null) first"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn state_set_limits_refuse_big_values_and_totals_but_allow_removal() {
        let mut cur = ExtSessionState::new();
        assert!(state_set_problem(&cur, "plan", &json!(["a"])).is_none());
        assert!(state_set_problem(&cur, "", &json!(1)).is_some());
        assert!(state_set_problem(&cur, &"k".repeat(300), &json!(1)).is_some());
        let big = json!("x".repeat(STATE_VALUE_MAX));
        assert!(state_set_problem(&cur, "plan", &big)
            .unwrap()
            .contains("per value"));
        let chunk = json!("y".repeat(STATE_VALUE_MAX - 100));
        for i in 0..16 {
            cur.insert(format!("k{i}"), chunk.clone());
        }
        let why = state_set_problem(&cur, "one_more", &chunk).unwrap();
        assert!(why.contains("over the limit of 1048576"), "{why}");
        assert!(state_set_problem(&cur, "k0", &Value::Null).is_none());
        assert!(
            state_set_problem(&cur, "k0", &chunk).is_none(),
            "replacing a key"
        );
    }
}

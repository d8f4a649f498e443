//! The last line of defence for secrets: the keys this run knows
//! (`--api-key`, the providers' environment variables, `ZOT_RPC_TOKEN` and
//! `ZOTCORE_RPC_TOKEN`, the keys in `auth.json` and the keychain, stored
//! extension secrets) become [`MASK`] wherever they appear in what leaves
//! zot: every event and command answer a front end receives, and every
//! tool result before it enters the transcript (so before the session file
//! and the next provider request). A provider that echoes the key in its
//! 401 body, an extension or a tool that prints it, never puts it on
//! stdout, into the window, on disk or back to the provider. Keeping
//! secrets out of child environments in the first place is the host's and
//! the tools' job; this catches what slips through.
//!
//! Masking is a serialiser step ([`serializer::Masked`]): a value is
//! serialised through a serializer that masks each string and map key on
//! its way out ([`Secrets::mask`](mask::Secrets::mask), which also
//! catches a key that only shows in the JSON spelling of a string). It is
//! applied at the one exit of each stream, so every front end gets the
//! same masked data:
//!
//! - an answer is masked while [`Backend::handle`] serialises the typed
//!   result into the JSON it returns (RPC mode's response, the window's
//!   IPC answer, print mode alike);
//! - an event is masked in the event pump (`backend::events`), before the
//!   RPC writer, the window's bridge, print mode and the OS notifications
//!   read it. Those read typed events (print mode prints a message's text,
//!   a notification shows an error's), so the pump keeps them typed: it
//!   serialises the event into a reused buffer and searches that for the
//!   keys (as fast as serialising, docs/performance.md "Redaction"); only
//!   an event that shows one is serialised again through the masking
//!   serializer and read back. Searching the JSON bytes rather than each
//!   string as it passes is what keeps events with many short strings
//!   cheap; it is also the truest test (what would go out), and the
//!   masked JSON is tested again before it is read back.
//!
//! Masking where each front end writes its bytes was the other design; it
//! would have needed the same step in five places (RPC stdout, the
//! window's events, its IPC answers, print mode's output, the OS
//! notifications), and the next front end would have had to remember it.
//!
//! [`Backend::handle`]: crate::backend::Backend::handle

mod mask;
mod serializer;

use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, RwLock};

use serde::Serialize;
use serde_json::Value;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::ContentBlock;
use zot_ext_protocol::RpcError;

use crate::providers::ProviderKind;
use mask::Secrets;
pub use serializer::Masked;

/// What a secret is replaced with.
pub const MASK: &str = "[redacted key]";

/// Shorter values are not treated as secrets: masking `k` or `ollama`
/// everywhere would wreck ordinary text, and no real key is that short.
const MIN_SECRET: usize = 8;

/// The providers, for their environment variables and `auth.json` entries.
const KINDS: [ProviderKind; 4] = [
    ProviderKind::Anthropic,
    ProviderKind::Openai,
    ProviderKind::Ollama,
    ProviderKind::Kimi,
];

thread_local! {
    /// Where [`Redactor::event`] serialises each event to search it: one
    /// buffer per pump thread, so the common case allocates nothing.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The scratch buffer is dropped after an event bigger than this, so one
/// huge event does not pin its size for the rest of the run.
const SCRATCH_KEEP: usize = 256 * 1024;

/// What goes out instead of an event that held a key and could not be
/// masked.
fn withheld(why: impl std::fmt::Display) -> UiEvent {
    UiEvent::Error {
        message: format!(
            "zot withheld an event that held a key and could not be masked ({why}); please report it"
        ),
    }
}

/// The secrets of this run.
#[derive(Default)]
pub struct Redactor {
    /// Longest first, so a key that contains another is masked whole;
    /// shared, so a serialisation holds no lock while it runs.
    secrets: RwLock<Arc<Secrets>>,
}

impl Redactor {
    /// Collects the secrets visible now.
    pub fn new(api_key: Option<&str>, zot_home: &Path) -> Self {
        let r = Redactor::default();
        r.refresh(api_key, zot_home);
        r
    }

    /// Re-reads the sources (after a key was saved in the settings).
    pub fn refresh(&self, api_key: Option<&str>, zot_home: &Path) {
        let mut found: Vec<String> = api_key.map(str::to_owned).into_iter().collect();
        let vars = KINDS
            .iter()
            .flat_map(|k| k.env_vars().iter().copied())
            .chain(["ZOT_RPC_TOKEN", "ZOTCORE_RPC_TOKEN"]);
        // The values zot was started with (taken at start, so no longer
        // in the environment).
        found.extend(vars.filter_map(super::startup::var));
        if let Some(auth) = std::fs::read_to_string(zot_home.join("auth.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        {
            for k in KINDS {
                let e = &auth[k.as_str()];
                if let Some(key) = e["api_key"].as_str().or(e.as_str()) {
                    found.push(key.to_owned());
                }
            }
        }
        // Provider keys in the keychain (auth.json is read above).
        found.extend(super::auth::stored_keys(zot_home));
        // Extension settings marked sensitive (keychain or fallback file).
        found.extend(zot_ext_host::settings_store::stored_secrets(zot_home));
        let mut raw: Vec<String> = found
            .into_iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| s.len() >= MIN_SECRET)
            .collect();
        raw.sort();
        raw.dedup();
        *self.secrets.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Secrets::new(raw));
    }

    /// The secrets now, for one serialisation.
    fn snapshot(&self) -> Arc<Secrets> {
        self.secrets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The event with every secret masked. Cheap when it holds none: one
    /// serialisation into a reused buffer, searched for each spelling of
    /// each key. When it holds one, the event is serialised again through
    /// the masking serializer and read back.
    pub fn event(&self, ev: UiEvent) -> UiEvent {
        // Read under the lock (no count to bump per event); a refresh
        // waits for one event at most.
        let secrets = self.secrets.read().unwrap_or_else(|e| e.into_inner());
        if secrets.is_empty() {
            return ev;
        }
        let shown = SCRATCH.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            // An event that cannot be serialised cannot leave zot either.
            let shown = serde_json::to_writer(&mut *buf, &ev).is_ok() && secrets.shown_in(&buf);
            if buf.capacity() > SCRATCH_KEEP {
                *buf = Vec::new();
            }
            shown
        });
        if !shown {
            return ev;
        }
        let masked = serde_json::to_vec(&Masked::new(&ev, &secrets));
        match masked {
            // What the serializer cannot mask (a key spelled as a number)
            // is withheld rather than sent.
            Ok(json) if !secrets.shown_in(&json) => {
                serde_json::from_slice(&json).unwrap_or_else(withheld)
            }
            Ok(_) => withheld("a key in it is not in a string"),
            Err(e) => withheld(e),
        }
    }

    /// A command's answer, serialised to JSON with every secret masked.
    pub fn answer<T: Serialize>(&self, r: Result<T, RpcError>) -> Result<Value, RpcError> {
        let secrets = self.snapshot();
        match r {
            Ok(v) => serde_json::to_value(Masked::new(&v, &secrets))
                .map_err(|e| RpcError::from(format!("cannot write the answer: {e}"))),
            Err(mut e) => {
                if let std::borrow::Cow::Owned(m) = secrets.mask(&e.message) {
                    e.message = m;
                }
                Err(e)
            }
        }
    }

    /// `value` as JSON with every secret masked (what [`Redactor::event`]
    /// and [`Redactor::answer`] hand out, as bytes: for tests and benches).
    pub fn to_json<T: Serialize + ?Sized>(&self, value: &T) -> serde_json::Result<String> {
        let secrets = self.snapshot();
        serde_json::to_string(&Masked::new(value, &secrets))
    }

    /// A tool's result blocks with every secret masked in their text,
    /// before they enter the transcript. Returns whether anything was.
    pub fn blocks(&self, blocks: &mut [ContentBlock]) -> bool {
        let secrets = self.snapshot();
        let mut masked = false;
        for b in blocks.iter_mut() {
            if let ContentBlock::Text { text } = b {
                if let std::borrow::Cow::Owned(m) = secrets.mask(text) {
                    *text = m;
                    masked = true;
                }
            }
        }
        masked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_events_and_answers_are_masked_and_short_values_are_not() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("auth.json"),
            r#"{"openai":{"api_key":"sk-from-auth-file-123"},"ollama":{"api_key":"x"}}"#,
        )
        .unwrap();
        let r = Redactor::new(Some("sk-flag-key-abcdef"), home.path());
        let ev = r.event(UiEvent::Error {
            message: "HTTP 401: bad key sk-flag-key-abcdef and sk-from-auth-file-123 x".into(),
        });
        let UiEvent::Error { message } = ev else {
            panic!()
        };
        assert_eq!(message, format!("HTTP 401: bad key {MASK} and {MASK} x"));
        let a = r.answer(Ok(serde_json::json!({"m": ["a sk-flag-key-abcdef"]})));
        assert_eq!(a.unwrap()["m"][0], format!("a {MASK}"));
        assert_eq!(
            r.answer(Err::<Value, _>("k sk-flag-key-abcdef".into()))
                .unwrap_err()
                .message,
            format!("k {MASK}")
        );
        // Untouched when nothing matches.
        let ev = r.event(UiEvent::TextDelta { delta: "x".into() });
        assert!(matches!(ev, UiEvent::TextDelta { delta } if delta == "x"));
    }

    #[test]
    fn tool_result_text_is_masked_and_images_are_left_alone() {
        let home = tempfile::tempdir().unwrap();
        let r = Redactor::new(Some("sk-flag-key-abcdef"), home.path());
        let mut blocks = vec![
            ContentBlock::text("ANTHROPIC_API_KEY=sk-flag-key-abcdef\nHOME=/h"),
            ContentBlock::Image {
                mime_type: "image/png".into(),
                data: "AAAA".into(),
            },
        ];
        assert!(r.blocks(&mut blocks));
        assert_eq!(
            blocks[0],
            ContentBlock::text(format!("ANTHROPIC_API_KEY={MASK}\nHOME=/h"))
        );
        assert!(!r.blocks(&mut blocks), "nothing left to mask");
    }

    /// A redactor that knows `key` (and whatever the test environment
    /// holds), with an empty home.
    fn knowing(key: &str) -> (tempfile::TempDir, Redactor) {
        let home = tempfile::tempdir().unwrap();
        let r = Redactor::new(Some(key), home.path());
        (home, r)
    }

    /// What a front end receives: the event out of the pump, serialised.
    fn sent(r: &Redactor, ev: UiEvent) -> String {
        serde_json::to_string(&r.event(ev)).unwrap()
    }

    #[test]
    fn a_key_in_a_nested_string_and_in_a_map_key_is_masked() {
        let key = "sk-nested-key-0001";
        let (_home, r) = knowing(key);
        let ev = UiEvent::ExtPanelMessage {
            panel_id: "p1".into(),
            extension: "chart".into(),
            data: serde_json::json!({
                "outer": [{"inner": format!("see {key} here")}, 7, null],
                key: {"deeper": key},
            }),
        };
        for out in [sent(&r, ev.clone()), r.to_json(&ev).unwrap()] {
            assert!(!out.contains(key), "{out}");
            assert_eq!(out.matches(MASK).count(), 3, "{out}");
        }
        let UiEvent::ExtPanelMessage { data, .. } = r.event(ev) else {
            panic!()
        };
        assert_eq!(data["outer"][0]["inner"], format!("see {MASK} here"));
        assert_eq!(data[MASK]["deeper"], MASK);
        let a = r.answer(Ok(serde_json::json!({ key: [key] }))).unwrap();
        assert_eq!(a, serde_json::json!({ MASK: [MASK] }));
    }

    #[test]
    fn a_key_in_an_error_message_is_masked() {
        let key = "sk-error-key-0002";
        let (_home, r) = knowing(key);
        let ev = r.event(UiEvent::TurnEnd {
            stop: zot_ext_protocol::rpc::StopReason::Error,
            error: Some(format!("HTTP 401: {{\"error\":\"bad key {key}\"}}")),
        });
        let UiEvent::TurnEnd { error, .. } = ev else {
            panic!()
        };
        assert_eq!(
            error.unwrap(),
            format!("HTTP 401: {{\"error\":\"bad key {MASK}\"}}")
        );
        let e = r
            .answer(Err::<Value, _>(RpcError::denied(format!("no: {key}"))))
            .unwrap_err();
        assert_eq!(e.message, format!("no: {MASK}"));
        assert_eq!(e.code, zot_ext_protocol::ErrorCode::Denied);
    }

    #[test]
    fn a_key_with_quotes_and_backslashes_is_masked_in_both_spellings() {
        let key = r#"pa"ss\word-123456"#;
        let escaped = r#"pa\"ss\\word-123456"#;
        let (_home, r) = knowing(key);
        let ev = UiEvent::Error {
            message: format!("bad {key}!"),
        };
        for out in [sent(&r, ev.clone()), r.to_json(&ev).unwrap()] {
            assert!(!out.contains(key) && !out.contains(escaped), "{out}");
            assert_eq!(
                out,
                format!(r#"{{"type":"error","message":"bad {MASK}!"}}"#)
            );
        }
    }

    #[test]
    fn a_key_that_only_shows_once_escaped_is_masked() {
        // `line\nsk-…` in JSON holds `nsk-…`, though the text does not.
        let key = "nsk-hidden-key-42";
        let (_home, r) = knowing(key);
        let ev = UiEvent::TextDelta {
            delta: "line\nsk-hidden-key-42 rest".into(),
        };
        for out in [sent(&r, ev.clone()), r.to_json(&ev).unwrap()] {
            assert!(!out.contains(key), "{out}");
            assert_eq!(
                out,
                format!(r#"{{"type":"text_delta","delta":"line{MASK} rest"}}"#)
            );
        }
    }

    #[test]
    fn without_a_key_in_it_an_event_or_answer_is_unchanged_to_the_byte() {
        let (_home, r) = knowing("sk-absent-key-0003");
        let events = [
            UiEvent::TextDelta {
                delta: "a \"quoted\" \\ line\n\ttab é ✓ \u{1}".into(),
            },
            UiEvent::ExtPanelMessage {
                panel_id: "p".into(),
                extension: "e".into(),
                data: serde_json::json!({"k": [1, 2.5, -3, true, null, {"x": "y"}], "": ""}),
            },
            UiEvent::TurnEnd {
                stop: zot_ext_protocol::rpc::StopReason::Error,
                error: None,
            },
            UiEvent::Done {},
        ];
        for ev in events {
            assert_eq!(r.to_json(&ev).unwrap(), serde_json::to_string(&ev).unwrap());
            assert_eq!(r.event(ev.clone()), ev);
        }
        let v = serde_json::json!({"a": {"b": ["c", 1]}});
        assert_eq!(r.answer(Ok(v.clone())).unwrap(), v);
    }

    #[test]
    fn an_event_whose_key_is_not_in_a_string_is_withheld() {
        // A number is no string: the serializer cannot mask it, so the
        // event does not go out at all.
        let (_home, r) = knowing("40000001");
        let out = r.event(UiEvent::TurnStart { step: 40_000_001 });
        let UiEvent::Error { message } = &out else {
            panic!("{out:?}")
        };
        assert!(message.contains("withheld"), "{message}");
        assert!(!serde_json::to_string(&out).unwrap().contains("40000001"));
    }
}

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

use std::path::Path;
use std::sync::RwLock;

use serde_json::Value;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::ContentBlock;
use zot_ext_protocol::RpcError;

use crate::providers::ProviderKind;

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

/// The secrets of this run, each with its JSON-escaped spelling.
#[derive(Default)]
pub struct Redactor {
    /// `(raw, escaped)` pairs.
    secrets: RwLock<Vec<(String, String)>>,
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
        let mut pairs: Vec<(String, String)> = found
            .into_iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| s.len() >= MIN_SECRET)
            .map(|s| {
                let quoted = serde_json::to_string(&s).unwrap_or_default();
                let escaped = quoted
                    .strip_prefix('"')
                    .and_then(|q| q.strip_suffix('"'))
                    .unwrap_or(&s)
                    .to_owned();
                (s, escaped)
            })
            .collect();
        // Longest first, so a key that contains another is masked whole.
        pairs.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
        pairs.dedup();
        *self.secrets.write().unwrap_or_else(|e| e.into_inner()) = pairs;
    }

    /// The event with every secret masked. Cheap when there is none: one
    /// serialisation and a substring search per secret.
    pub fn event(&self, ev: UiEvent) -> UiEvent {
        let secrets = self.secrets.read().unwrap_or_else(|e| e.into_inner());
        if secrets.is_empty() {
            return ev;
        }
        let Ok(json) = serde_json::to_string(&ev) else {
            return ev;
        };
        if !secrets.iter().any(|(_, esc)| json.contains(esc.as_str())) {
            return ev;
        }
        let Ok(mut v) = serde_json::from_str::<Value>(&json) else {
            return ev;
        };
        mask_value(&secrets, &mut v);
        serde_json::from_value(v).unwrap_or(ev)
    }

    /// A command's answer with every secret masked.
    pub fn answer(&self, r: Result<Value, RpcError>) -> Result<Value, RpcError> {
        let secrets = self.secrets.read().unwrap_or_else(|e| e.into_inner());
        if secrets.is_empty() {
            return r;
        }
        match r {
            Ok(mut v) => {
                mask_value(&secrets, &mut v);
                Ok(v)
            }
            Err(mut e) => {
                mask_str(&secrets, &mut e.message);
                Err(e)
            }
        }
    }

    /// A tool's result blocks with every secret masked in their text,
    /// before they enter the transcript. Returns whether anything was.
    pub fn blocks(&self, blocks: &mut [ContentBlock]) -> bool {
        let secrets = self.secrets.read().unwrap_or_else(|e| e.into_inner());
        let mut masked = false;
        for b in blocks.iter_mut() {
            if let ContentBlock::Text { text } = b {
                if secrets.iter().any(|(raw, _)| text.contains(raw.as_str())) {
                    mask_str(&secrets, text);
                    masked = true;
                }
            }
        }
        masked
    }
}

fn mask_value(secrets: &[(String, String)], v: &mut Value) {
    match v {
        Value::String(s) => mask_str(secrets, s),
        Value::Array(a) => a.iter_mut().for_each(|x| mask_value(secrets, x)),
        Value::Object(o) => o.values_mut().for_each(|x| mask_value(secrets, x)),
        _ => {}
    }
}

fn mask_str(secrets: &[(String, String)], s: &mut String) {
    for (raw, _) in secrets {
        if s.contains(raw.as_str()) {
            *s = s.replace(raw.as_str(), MASK);
        }
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
            r.answer(Err("k sk-flag-key-abcdef".into()))
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
}

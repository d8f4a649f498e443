//! Secrets of MCP entries (#16 with #15): an `env` variable or an HTTP
//! header whose name says it holds a credential (`API_KEY`, `GITHUB_TOKEN`,
//! `Authorization`, …) is not written into the entry's manifest. It becomes
//! a sensitive setting of the entry, kept in the OS keychain like any
//! extension secret, and the manifest holds a placeholder `${config:KEY}`
//! that is filled in when the server is started or connected to.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use zot_ext_protocol::SettingValues;

/// Whether a variable or header name says it holds a credential.
pub fn secret_like(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    [
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "AUTH",
        "CREDENTIAL",
        "COOKIE",
    ]
    .iter()
    .any(|w| n.contains(w))
}

/// The setting that holds `name` of `kind` (`env` or `header`): a valid
/// setting name (`env.API_KEY`, `header.Authorization`).
pub fn setting_key(kind: &str, name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(56)
        .collect();
    format!("{kind}.{clean}")
}

/// The placeholder written in the manifest for setting `key`.
pub fn placeholder(key: &str) -> String {
    format!("${{config:{key}}}")
}

/// What moves out of a map of `kind`: the map with placeholders, the
/// schema entries to declare and the values to store.
pub struct Moved {
    /// The map as the manifest holds it.
    pub map: BTreeMap<String, String>,
    /// `config` entries (sensitive, required) keyed by setting name.
    pub schema: serde_json::Map<String, Value>,
    /// The secret values keyed by setting name.
    pub values: SettingValues,
}

/// Replaces every credential-like entry of `map` by a placeholder.
pub fn move_out(kind: &str, map: &BTreeMap<String, String>) -> Moved {
    let mut out = Moved {
        map: BTreeMap::new(),
        schema: serde_json::Map::new(),
        values: SettingValues::new(),
    };
    for (name, value) in map {
        if !secret_like(name) || value.starts_with("${config:") {
            out.map.insert(name.clone(), value.clone());
            continue;
        }
        let key = setting_key(kind, name);
        let what = if kind == "env" {
            "environment variable"
        } else {
            "HTTP header"
        };
        out.schema.insert(
            key.clone(),
            json!({"type": "string", "title": format!("{name} ({what})"), "sensitive": true, "required": true}),
        );
        out.values.insert(key.clone(), Value::String(value.clone()));
        out.map.insert(name.clone(), placeholder(&key));
    }
    out
}

/// `text` with each `${config:KEY}` replaced by that setting's value (a
/// string as is, anything else as JSON); an unknown key is left as written,
/// so a mistake shows in the server's own error instead of vanishing.
pub fn fill(text: &str, config: &SettingValues) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${config:") {
        let (before, tail) = rest.split_at(start);
        out.push_str(before);
        let Some(end) = tail.find('}') else {
            out.push_str(tail);
            return out;
        };
        let key = tail.get("${config:".len()..end).unwrap_or("");
        match config.get(key) {
            Some(Value::String(s)) => out.push_str(s),
            Some(other) => out.push_str(&other.to_string()),
            None => out.push_str(tail.get(..=end).unwrap_or(tail)),
        }
        rest = tail.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_move_out_and_the_rest_stays() {
        let env: BTreeMap<String, String> = [
            ("GITHUB_TOKEN".to_owned(), "ghp_secret".to_owned()),
            ("LOG_LEVEL".to_owned(), "debug".to_owned()),
        ]
        .into();
        let m = move_out("env", &env);
        assert_eq!(m.map["LOG_LEVEL"], "debug");
        assert_eq!(m.map["GITHUB_TOKEN"], "${config:env.GITHUB_TOKEN}");
        assert_eq!(m.values["env.GITHUB_TOKEN"], "ghp_secret");
        assert_eq!(m.schema["env.GITHUB_TOKEN"]["sensitive"], true);
        let h: BTreeMap<String, String> =
            [("Authorization".to_owned(), "Bearer x".to_owned())].into();
        assert_eq!(
            move_out("header", &h).map["Authorization"],
            "${config:header.Authorization}"
        );
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_kept() {
        let mut c = SettingValues::new();
        c.insert("env.T".into(), json!("s3cret"));
        assert_eq!(fill("Bearer ${config:env.T}!", &c), "Bearer s3cret!");
        assert_eq!(
            fill("${config:nope} and ${config:env.T}", &c),
            "${config:nope} and s3cret"
        );
        assert_eq!(fill("${config:unterminated", &c), "${config:unterminated");
        assert_eq!(fill("plain", &c), "plain");
    }
}

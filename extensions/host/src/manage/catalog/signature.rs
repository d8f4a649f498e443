//! The catalog's signatures (docs/extensions.md "The catalog's
//! signatures"). Each entry of an index may carry
//! `"signature": {"key": PUBLIC, "ed25519": SIGNATURE}` (both base64, the
//! key as `zot ext keygen` writes it), an ed25519 signature over
//!
//! ```text
//! zot-catalog-entry-v1
//! <the entry without its signature, as canonical JSON (keys sorted, no spaces)>
//! <the content digest of its source folder>
//! ```
//!
//! The digest is the bundle's ([`folder_digest`]: what `zot ext pack` of
//! the folder would report), so a signature covers everything the entry
//! says (name, version, source, description, what it registers) and every
//! byte, name, link and executable bit of what an install copies. zot's
//! own catalog is signed with zot's key ([`keys::ZOT_KEY`]); `zot ext
//! catalog-sign` (re)signs an index with a key file.

use std::path::{Path, PathBuf};

use base64::Engine;
use ed25519_dalek::{Signature, Signer as _, SigningKey, Verifier};
use serde_json::Value;

use crate::manage::bundle::keys;
use crate::manage::bundle::pack::folder_digest;
use crate::manage::bundle::Signer;

use super::leftovers::is_leftover;
use super::CatalogError;

/// The field of an index entry that holds its signature.
pub const FIELD: &str = "signature";

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The bytes an entry's signature covers: its index entry without the
/// signature, canonical, and its folder's content digest.
fn message(entry: &Value, digest: &str) -> Vec<u8> {
    let mut unsigned = entry.clone();
    if let Value::Object(map) = &mut unsigned {
        map.shift_remove(FIELD);
    }
    let mut text = String::from("zot-catalog-entry-v1\n");
    canonical(&unsigned, &mut text);
    text.push('\n');
    text.push_str(digest);
    text.into_bytes()
}

/// JSON with every object's keys sorted and no whitespace: the same text
/// whatever order or layout the index was written in.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                if let Some(value) = map.get(k) {
                    canonical(value, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Who signed the entry `entry` whose source folder is `dir`: zot or a
/// trusted key by name, an unknown key, or nobody. `Err` (the reason to
/// refuse it) when it carries a signature that is damaged or does not
/// match its entry and folder as they are now.
pub fn verify(zot_home: &Path, entry: &Value, dir: &Path) -> Result<Signer, String> {
    let Some(sig) = entry.get(FIELD) else {
        return Ok(Signer::Unsigned);
    };
    let damaged = || {
        format!("its `{FIELD}` is damaged (it must be {{\"key\": PUBLIC, \"ed25519\": SIGNATURE}}, both base64, as `zot ext catalog-sign` writes it)")
    };
    let key = sig
        .get("key")
        .and_then(Value::as_str)
        .and_then(keys::decode_public)
        .ok_or_else(damaged)?;
    let bytes: [u8; 64] = sig
        .get("ed25519")
        .and_then(Value::as_str)
        .and_then(|s| B64.decode(s.trim()).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(damaged)?;
    let digest = folder_digest(dir)
        .map_err(|e| format!("its folder {} cannot be read: {e}", dir.display()))?;
    let who = keys::trusted_name(zot_home, &key);
    if key
        .verify(&message(entry, &digest), &Signature::from_bytes(&bytes))
        .is_err()
    {
        return Err(format!(
            "its signature{} does not match it: its folder {} or its entry in the index was changed after it was signed",
            who.map(|n| format!(" (by {n})")).unwrap_or_default(),
            dir.display()
        ));
    }
    Ok(match who {
        Some(name) => Signer::Trusted(name),
        None => Signer::Unknown(keys::encode_public(&key)),
    })
}

/// One entry `sign_index` signed.
#[derive(Debug, Clone)]
pub struct SignedEntry {
    /// The entry's name.
    pub name: String,
    /// Its folder's content digest.
    pub digest: String,
}

/// Signs every entry of the index at `index` with `key`, replacing any
/// signature it had, and writes the index back (its entries in the same
/// order, pretty-printed). Refuses, writing nothing, when an entry cannot
/// be installed (a missing folder or build output: build it first) or its
/// folder holds a leftover the build leaves out of zot's catalog.
pub fn sign_index(index: &Path, key: &SigningKey) -> Result<Vec<SignedEntry>, CatalogError> {
    let bad = |reason: String| CatalogError::Index {
        path: index.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(index).map_err(|e| bad(e.to_string()))?;
    let mut json: Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    let base = index.parent().unwrap_or(Path::new(".")).to_path_buf();
    let items = json
        .get_mut("extensions")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| bad("no `extensions` array".into()))?;
    let public = keys::encode_public(&key.verifying_key());
    let mut signed = Vec::new();
    for (i, item) in items.iter_mut().enumerate() {
        let entry: zot_ext_protocol::CatalogEntry = serde_json::from_value(item.clone())
            .map_err(|e| bad(format!("entry {} is invalid: {e}", i + 1)))?;
        let refuse = |reason: String| CatalogError::Sign {
            name: entry.name.clone(),
            reason,
        };
        super::check(&base, &entry).map_err(|r| refuse(format!("it cannot be installed: {r}")))?;
        let dir = super::source_dir(&base, &entry.source);
        if let Some(left) = leftover_in(&dir).map_err(|e| refuse(e.to_string()))? {
            return Err(refuse(format!(
                "{} is not part of it (zot's build leaves it out of the catalog, so a signature covering it would never verify); remove it and sign again",
                left.display()
            )));
        }
        let digest = folder_digest(&dir).map_err(|e| refuse(e.to_string()))?;
        let sig = key.sign(&message(item, &digest));
        if let Value::Object(map) = item {
            map.insert(
                FIELD.to_owned(),
                serde_json::json!({ "key": public, "ed25519": B64.encode(sig.to_bytes()) }),
            );
        }
        signed.push(SignedEntry {
            name: entry.name,
            digest,
        });
    }
    let mut out = String::new();
    layout(&json, 0, &mut out);
    out.push('\n');
    // A sibling then a rename: an interrupted signing leaves the old index.
    let mut tmp = index.as_os_str().to_owned();
    tmp.push(".signing");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, out.as_bytes())
        .and_then(|()| std::fs::rename(&tmp, index))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            bad(format!("cannot write it: {e}"))
        })?;
    Ok(signed)
}

/// The index as people write it: the top object, its `extensions` and
/// each entry one item a line; what an entry holds on the line of its key
/// (`"registers": { "commands": ["todo"], … }`).
fn layout(v: &Value, depth: usize, out: &mut String) {
    let pad = |n: usize| "  ".repeat(n);
    match v {
        Value::Object(map) if depth < 3 && !map.is_empty() => {
            out.push_str("{\n");
            for (i, (k, value)) in map.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                layout(value, depth + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Value::Array(items) if depth < 3 && !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                layout(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{ ");
            for (i, (k, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                layout(value, depth + 1, out);
            }
            out.push_str(" }");
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                layout(item, depth + 1, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The first leftover ([`is_leftover`]) under `dir`, if any.
fn leftover_in(dir: &Path) -> std::io::Result<Option<PathBuf>> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if is_leftover(&entry.file_name().to_string_lossy()) {
            return Ok(Some(path));
        }
        if entry.file_type()?.is_dir() {
            if let Some(found) = leftover_in(&path)? {
                return Ok(Some(found));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canonical_form_ignores_key_order_and_layout() {
        let a: Value =
            serde_json::from_str(r#"{"b": [1, {"y": 2, "x": "é\""}], "a": null}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":null,"b":[1,{"x":"é\"","y":2}]}"#).unwrap();
        let (mut ca, mut cb) = (String::new(), String::new());
        canonical(&a, &mut ca);
        canonical(&b, &mut cb);
        assert_eq!(ca, cb);
        assert_eq!(ca, r#"{"a":null,"b":[1,{"x":"é\"","y":2}]}"#);
    }

    #[test]
    fn the_message_leaves_the_signature_out_and_covers_the_rest() {
        let entry: Value =
            serde_json::from_str(r#"{"name":"x","version":"1.0.0","signature":{"key":"k"}}"#)
                .unwrap();
        let bare: Value = serde_json::from_str(r#"{"name":"x","version":"1.0.0"}"#).unwrap();
        assert_eq!(message(&entry, "d"), message(&bare, "d"));
        let other: Value = serde_json::from_str(r#"{"name":"x","version":"1.0.1"}"#).unwrap();
        assert_ne!(message(&bare, "d"), message(&other, "d"));
        assert_ne!(message(&bare, "d"), message(&bare, "e"));
    }
}

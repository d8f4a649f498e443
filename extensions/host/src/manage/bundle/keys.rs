//! Bundle signing keys: `zot ext keygen FILE` writes an ed25519 key pair
//! (the private key's 32-byte seed, base64, in FILE with mode 0600; the
//! public key, base64, in FILE.pub), and `$ZOT_HOME/config.json`
//! `trusted_keys` names the public keys whose signatures the user trusts.
//! zot's own key ([`ZOT_KEY`], named [`ZOT_KEY_NAME`]) is trusted always:
//! it signs the entries of zot's catalog (docs/extensions.md "The
//! catalog's signatures"); its private half is kept outside the
//! repository by whoever signs the catalog.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use ed25519_dalek::{SigningKey, VerifyingKey};

use super::BundleError;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The public half of zot's catalog key (base64, as `zot ext keygen`
/// writes it), shipped in every zot.
pub const ZOT_KEY: &str = "80aRsjtC9LXYz0m1P+CLv76s2a64FYKbErhcVDBBH8Q=";

/// The name zot's key is trusted under: "signed by zot".
pub const ZOT_KEY_NAME: &str = "zot";

/// [`ZOT_KEY`], decoded (always `Some`: a unit test checks it).
pub fn zot_key() -> Option<VerifyingKey> {
    decode_public(ZOT_KEY)
}

/// Makes a key pair: the private key in `file` (0600), the public key in
/// `file.pub`; returns the public key, base64.
pub fn keygen(file: &Path) -> Result<String, BundleError> {
    let err = |reason: String| BundleError::Key {
        path: file.to_path_buf(),
        reason,
    };
    if file.exists() {
        return Err(err(
            "it exists already; choose another file or delete it first".into(),
        ));
    }
    let mut seed = [0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut seed)
        .map_err(|_| err("the system's random source failed".into()))?;
    let key = SigningKey::from_bytes(&seed);
    crate::io::private_file::write(file, format!("{}\n", B64.encode(seed)).as_bytes())
        .map_err(|e| err(e.to_string()))?;
    let public = encode_public(&key.verifying_key());
    let pub_file = pub_path(file);
    std::fs::write(&pub_file, format!("{public}\n")).map_err(|e| BundleError::Key {
        path: pub_file,
        reason: e.to_string(),
    })?;
    Ok(public)
}

/// `FILE.pub`.
pub fn pub_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".pub");
    PathBuf::from(s)
}

/// Reads a private key written by [`keygen`].
pub fn read_signing_key(file: &Path) -> Result<SigningKey, BundleError> {
    let err = |reason: String| BundleError::Key {
        path: file.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(file).map_err(|e| err(e.to_string()))?;
    let bytes = B64
        .decode(text.trim())
        .map_err(|_| err("not a key written by `zot ext keygen` (not base64)".into()))?;
    let seed: [u8; 32] = bytes
        .try_into()
        .map_err(|_| err("not a key written by `zot ext keygen` (not 32 bytes)".into()))?;
    Ok(SigningKey::from_bytes(&seed))
}

/// A public key as zot writes it: base64 of its 32 bytes.
pub fn encode_public(key: &VerifyingKey) -> String {
    B64.encode(key.as_bytes())
}

/// Reads a base64 public key; `None` when it is not one.
pub fn decode_public(text: &str) -> Option<VerifyingKey> {
    let bytes: [u8; 32] = B64.decode(text.trim()).ok()?.try_into().ok()?;
    VerifyingKey::from_bytes(&bytes).ok()
}

/// The keys whose signatures say who signed: zot's own ([`ZOT_KEY`], as
/// "zot") and `$ZOT_HOME/config.json` `trusted_keys` (name → public key,
/// base64). Entries that are not keys are skipped, and so is one named
/// "zot" (only zot's key signs as zot); a missing or unreadable file adds
/// no key.
pub fn trusted(zot_home: &Path) -> BTreeMap<String, VerifyingKey> {
    let mut keys = configured(zot_home);
    keys.remove(ZOT_KEY_NAME);
    if let Some(zot) = zot_key() {
        keys.insert(ZOT_KEY_NAME.to_owned(), zot);
    }
    keys
}

/// The name a valid signature by `key` is shown under, when it is trusted.
pub fn trusted_name(zot_home: &Path, key: &VerifyingKey) -> Option<String> {
    trusted(zot_home)
        .into_iter()
        .find(|(_, k)| k == key)
        .map(|(name, _)| name)
}

fn configured(zot_home: &Path) -> BTreeMap<String, VerifyingKey> {
    let Ok(text) = std::fs::read_to_string(zot_home.join("config.json")) else {
        return BTreeMap::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return BTreeMap::new();
    };
    json.get("trusted_keys")
        .and_then(|v| v.as_object())
        .map(|o| {
            o.iter()
                .filter_map(|(name, v)| Some((name.clone(), decode_public(v.as_str()?)?)))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zots_key_is_a_key_and_only_it_is_trusted_as_zot() {
        let zot = zot_key().expect("ZOT_KEY decodes");
        let home = tempfile::tempdir().unwrap();
        let other = encode_public(&SigningKey::from_bytes(&[7; 32]).verifying_key());
        std::fs::write(
            home.path().join("config.json"),
            serde_json::json!({"trusted_keys": {"zot": other, "Alice": other}}).to_string(),
        )
        .unwrap();
        let keys = trusted(home.path());
        assert_eq!(keys.get(ZOT_KEY_NAME), Some(&zot));
        assert_eq!(trusted_name(home.path(), &zot).as_deref(), Some("zot"));
        let alice = decode_public(&other).unwrap();
        assert_eq!(trusted_name(home.path(), &alice).as_deref(), Some("Alice"));
    }

    #[test]
    fn a_generated_key_reads_back_and_its_public_half_is_in_file_pub() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("k");
        let public = keygen(&file).unwrap();
        let key = read_signing_key(&file).unwrap();
        assert_eq!(encode_public(&key.verifying_key()), public);
        let on_disk = std::fs::read_to_string(pub_path(&file)).unwrap();
        assert_eq!(on_disk.trim(), public);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(
            keygen(&file).is_err(),
            "an existing key is never overwritten"
        );
    }
}

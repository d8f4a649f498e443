//! Who is at the other end of a WebSocket extension's URL. `hello_ack`
//! carries the extension's settings (its API keys among them), so before
//! zot sends it the endpoint proves that it holds the extension's token,
//! without the token ever crossing the wire:
//!
//! 1. zot keeps one random token per extension (32 bytes, hex) in the
//!    secret store (the OS keychain, or the fallback file), made the first
//!    time it is needed; `zot ext token NAME` shows it, to configure the
//!    endpoint with;
//! 2. each connection's upgrade request carries a fresh random challenge
//!    in the `Zot-Challenge` header;
//! 3. the endpoint's `hello` carries `auth`: lowercase hex of
//!    HMAC-SHA256(token, `"zot-ws-auth-v1\n"` + challenge);
//! 4. zot checks it in constant time; a missing or wrong proof fails the
//!    start before `hello_ack`, with an error that says how to fix it.
//!
//! A recorded proof is worth nothing on the next connection (a new
//! challenge), and a listener that squats on the port learns nothing it
//! could use. Plain `ws://` is allowed only to this machine (loopback);
//! anything else needs `wss://` (`discovery.rs`).

use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use crate::settings::secret_store::{SecretError, SecretStore};
use crate::settings::settings_store::Owner;

/// The request header that carries the challenge.
pub const CHALLENGE_HEADER: &str = "Zot-Challenge";

/// What the MAC covers before the challenge, so a proof for zot can never
/// be a valid MAC of anything else made with the same token.
const CONTEXT: &[u8] = b"zot-ws-auth-v1\n";

/// Random bytes as lowercase hex.
fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    SystemRandom::new()
        .fill(&mut buf)
        .map_err(|_| "the system's random source failed".to_owned())?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// A fresh challenge for one connection.
pub fn challenge() -> Result<String, String> {
    random_hex(32)
}

/// The proof an endpoint holding `token` sends for `challenge` (what an
/// extension's `hello.auth` must be).
pub fn proof(token: &str, challenge: &str) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, token.as_bytes());
    let mut ctx = hmac::Context::with_key(&key);
    ctx.update(CONTEXT);
    ctx.update(challenge.as_bytes());
    ctx.sign()
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks `auth` (from `hello`) against `token` and `challenge`, in
/// constant time; the error says what the endpoint must do.
pub fn verify(token: &str, challenge: &str, auth: Option<&str>, name: &str) -> Result<(), String> {
    let fix = format!(
        "configure the endpoint with the token `zot ext token {name}` shows, and have its hello carry \"auth\": hex HMAC-SHA256(token, \"zot-ws-auth-v1\\n\" + the {CHALLENGE_HEADER} header) (docs/mcp.md \"Native extensions over a WebSocket\")"
    );
    let Some(auth) = auth else {
        return Err(format!(
            "the endpoint did not prove it is this extension (its hello has no \"auth\"), so zot did not send it hello_ack or its settings; {fix}"
        ));
    };
    let Some(mac) = from_hex(auth) else {
        return Err(format!(
            "the endpoint's hello.auth is not hex, so zot did not send it hello_ack or its settings; {fix}"
        ));
    };
    let key = hmac::Key::new(hmac::HMAC_SHA256, token.as_bytes());
    let signed = [CONTEXT, challenge.as_bytes()].concat();
    hmac::verify(&key, &signed, &mac).map_err(|_| {
        format!(
            "the endpoint's proof is wrong (it does not hold this extension's token), so zot did not send it hello_ack or its settings; {fix}"
        )
    })
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

/// The secret store account of `owner`'s token (apart from its settings'
/// `ext/…` accounts, so no setting name can collide with it).
fn account(owner: &Owner) -> String {
    format!("ws-token/{}", owner.key())
}

/// The token of the extension `owner`, made and stored the first time.
/// Blocking (the keychain is a D-Bus call).
pub fn token(store: &SecretStore, owner: &Owner) -> Result<String, SecretError> {
    let acct = account(owner);
    if let Some(t) = store.get(&acct)? {
        return Ok(t);
    }
    let t = random_hex(32).map_err(|reason| SecretError {
        action: "make",
        account: acct.clone(),
        store: "secret store".into(),
        reason,
    })?;
    store.set(&acct, &t)?;
    Ok(t)
}

/// Replaces the token of `owner` with a new one (`zot ext token --new`);
/// the endpoint must be configured again.
pub fn renew(store: &SecretStore, owner: &Owner) -> Result<String, SecretError> {
    store.delete(&account(owner))?;
    token(store, owner)
}

/// Whether a `ws://` URL's host is this machine: `localhost`, `127.x.y.z`
/// or `::1`. Anything else must use `wss://`.
pub fn is_loopback(url: &str) -> bool {
    let Ok(u) = url.parse::<http::Uri>() else {
        return false;
    };
    let Some(host) = u.host() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proof_checks_and_anything_else_is_refused() {
        let c = challenge().unwrap();
        assert_eq!(c.len(), 64);
        assert_ne!(c, challenge().unwrap());
        let p = proof("tok", &c);
        assert!(verify("tok", &c, Some(&p), "x").is_ok());
        assert!(verify("tok", &c, Some(&p.to_uppercase()), "x").is_ok());
        assert!(verify("other", &c, Some(&p), "x")
            .unwrap_err()
            .contains("wrong"));
        assert!(verify("tok", "replayed", Some(&p), "x").is_err());
        assert!(verify("tok", &c, None, "x")
            .unwrap_err()
            .contains("no \"auth\""));
        assert!(verify("tok", &c, Some("zz"), "x")
            .unwrap_err()
            .contains("not hex"));
        assert!(verify("tok", &c, Some("é"), "x").is_err());
    }

    #[test]
    fn only_this_machine_is_loopback() {
        for u in [
            "ws://127.0.0.1:9",
            "ws://localhost:9/x",
            "ws://[::1]:9",
            "ws://127.3.2.1",
        ] {
            assert!(is_loopback(u), "{u}");
        }
        for u in [
            "ws://10.0.0.1:9",
            "ws://example.com",
            "ws://127.0.0.1.nip.io",
            "ws://[::2]:1",
            "nonsense",
        ] {
            assert!(!is_loopback(u), "{u}");
        }
    }

    #[test]
    fn a_token_is_made_once_and_kept() {
        let home = tempfile::tempdir().unwrap();
        std::env::set_var(crate::settings::secret_store::KEYCHAIN_ENV, "off");
        let store = SecretStore::open(home.path());
        let owner = Owner::of("x", home.path());
        let t = token(&store, &owner).unwrap();
        assert_eq!(t.len(), 64);
        assert_eq!(token(&store, &owner).unwrap(), t);
        assert_ne!(renew(&store, &owner).unwrap(), t);
    }
}

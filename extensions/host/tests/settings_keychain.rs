//! Secrets of extension settings in a real OS keychain: each test runs
//! this binary again inside its own `dbus-run-session` with a
//! `gnome-keyring-daemon` unlocked for it (packages `dbus-daemon`,
//! `gnome-keyring`, `libsecret-tools`; `make deps` installs them), so
//! `cargo test` exercises the real Secret Service and never touches the
//! keychain of the machine it runs on. Plus the fallback when there is no
//! D-Bus at all.

use std::path::Path;
use std::process::Command;

use serde_json::json;
use zot_ext_host::secret_store::{Backend, SecretStore};
use zot_ext_host::settings_store::{self, Owner};
use zot_ext_protocol::{SettingValues, SettingsSchema};

/// Set in the re-executed child: which environment it runs in.
const INSIDE: &str = "ZOT_TEST_KEYCHAIN_INSIDE";

/// Runs test `name` of this binary again inside a private session bus with
/// an unlocked keyring, and fails with the child's output if it fails.
fn in_keyring_session(name: &str) {
    let exe = std::env::current_exe().unwrap();
    // The keyring files go to a temp XDG_DATA_HOME: a fresh login keyring
    // every run, never the user's.
    let data = tempfile::tempdir().unwrap();
    let exact = crate::support::exact_name(module_path!(), name);
    let out = zot_test_support::keyring::session(
        data.path(),
        r#"exec "$@""#,
        &[
            exe.as_os_str(),
            "--exact".as_ref(),
            exact.as_ref(),
            "--nocapture".as_ref(),
            "--test-threads=1".as_ref(),
        ],
    )
    .env(INSIDE, "keyring")
    .output()
    .expect("dbus-run-session is needed (package dbus-daemon; run `make deps`)");
    assert!(
        out.status.success(),
        "{name} inside dbus-run-session + gnome-keyring-daemon failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("1 passed"), "the child ran nothing:\n{said}");
}

fn schema() -> SettingsSchema {
    serde_json::from_value(json!({
        "token": {"type":"string","title":"Token","sensitive":true,"required":true},
        "units": {"type":"string","title":"Units","default":"metric"}
    }))
    .unwrap()
}

fn vals(v: serde_json::Value) -> SettingValues {
    serde_json::from_value(v).unwrap()
}

/// Every file under `dir`, read, for "the secret is in none of them".
fn any_file_contains(dir: &Path, needle: &str) -> Option<String> {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            if let Some(hit) = any_file_contains(&p, needle) {
                return Some(hit);
            }
        } else if std::fs::read(&p)
            .unwrap()
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
        {
            return Some(p.display().to_string());
        }
    }
    None
}

fn secret_tool_lookup(service: &str, account: &str) -> Option<String> {
    let out = Command::new("secret-tool")
        .args(["lookup", "service", service, "username", account])
        .output()
        .expect("secret-tool is needed (package libsecret-tools; run `make deps`)");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_secret_setting_lives_in_the_secret_service_and_in_no_file() {
    if std::env::var(INSIDE).as_deref() != Ok("keyring") {
        return in_keyring_session("a_secret_setting_lives_in_the_secret_service_and_in_no_file");
    }
    let home = tempfile::tempdir().unwrap();
    let store = SecretStore::open(home.path());
    assert_eq!(
        store.backend(),
        Backend::Keychain,
        "{:?}",
        store.fallback_note()
    );
    assert_eq!(store.fallback_note(), None);
    let secret = "canary-keychain-secret-91b2";
    let vault = Owner::of("vault", &home.path().join("extensions/vault"));
    let r = settings_store::apply(
        home.path(),
        &vault,
        &schema(),
        &vals(json!({"token": secret, "units": "imperial"})),
    )
    .unwrap();
    assert_eq!(r.backend, Backend::Keychain);
    assert_eq!(r.values["token"], secret);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // Really in the Secret Service, as another client sees it.
    let service = format!("zot {}", home.path().display());
    assert_eq!(
        secret_tool_lookup(&service, &format!("ext/{}/token", vault.key())).as_deref(),
        Some(secret)
    );
    assert_eq!(
        any_file_contains(home.path(), secret),
        None,
        "a plaintext copy was written"
    );
    // Read back on the next start.
    let again = settings_store::resolve(home.path(), &vault, &schema()).unwrap();
    assert_eq!(again.values["token"], secret);
    assert_eq!(again.values["units"], "imperial");
    assert_eq!(settings_store::stored_secrets(home.path()), [secret]);
    // Cleared: gone from the keychain, and missing again.
    let cleared = settings_store::apply(
        home.path(),
        &vault,
        &schema(),
        &vals(json!({"token": null})),
    )
    .unwrap();
    assert_eq!(cleared.missing, ["token"]);
    assert_eq!(
        secret_tool_lookup(&service, &format!("ext/{}/token", vault.key())),
        None
    );
}

#[test]
fn without_a_session_bus_secrets_fall_back_to_a_private_file_and_say_so() {
    if std::env::var(INSIDE).as_deref() != Ok("no-dbus") {
        let exe = std::env::current_exe().unwrap();
        let name = "without_a_session_bus_secrets_fall_back_to_a_private_file_and_say_so";
        let out = Command::new(exe)
            .args([
                "--exact",
                &crate::support::exact_name(module_path!(), name),
                "--nocapture",
                "--test-threads=1",
            ])
            .env(INSIDE, "no-dbus")
            .env(
                "DBUS_SESSION_BUS_ADDRESS",
                "unix:path=/nonexistent/zot-test-bus",
            )
            .env_remove("ZOT_KEYCHAIN")
            .env_remove("DISPLAY")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && said.contains("1 passed"),
            "{said}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let store = SecretStore::open(home.path());
    assert_eq!(store.backend(), Backend::File);
    let note = store.fallback_note().unwrap();
    assert!(note.contains("no OS keychain is reachable"), "{note}");
    let secret = "canary-file-secret-5e6f";
    let r = settings_store::apply(
        home.path(),
        &Owner::of("vault", &home.path().join("extensions/vault")),
        &schema(),
        &vals(json!({"token": secret})),
    )
    .unwrap();
    assert_eq!(r.backend, Backend::File);
    // Said once, in the warnings the form and the doctor show.
    assert_eq!(
        r.warnings
            .iter()
            .filter(|w| w.contains("no OS keychain"))
            .count(),
        1,
        "{:?}",
        r.warnings
    );
    let file = home.path().join("secrets.json");
    assert!(std::fs::read_to_string(&file).unwrap().contains(secret));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

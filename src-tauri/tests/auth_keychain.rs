//! zot's own provider keys in the OS keychain (#15): a key in `auth.json`
//! moves into a real Secret Service the first time zot looks it up, is
//! used from there, and no plaintext copy stays behind. zot runs inside
//! its own `dbus-run-session` with a gnome-keyring-daemon unlocked for it
//! and a temp XDG_DATA_HOME (packages dbus-daemon, gnome-keyring,
//! libsecret-tools; `make deps`), so no developer keychain is touched.

use zot_test_support::rpc;

use rpc::bin;
use zot_test_support::fake_llm::*;

const KEY: &str = "sk-ant-canary-migrate-4411";

/// Runs `sh -c script` inside a private session bus with an unlocked
/// keyring; returns (status ok, stdout, stderr).
fn in_keyring_session(
    home: &std::path::Path,
    data: &std::path::Path,
    script: &str,
) -> (bool, String, String) {
    let out = zot_test_support::keyring::session(data, script, &[])
        .env("ZOT_HOME", home)
        .env("ZOT_BIN", bin())
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("dbus-run-session is needed (package dbus-daemon; run `make deps`)");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_key_in_auth_json_moves_to_the_keychain_and_the_file_loses_it() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["hi"]));
    let (home, cwd, data) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    std::fs::write(
        home.path().join("auth.json"),
        format!("{{\"anthropic\": {{\"api_key\": \"{KEY}\"}}}}"),
    )
    .unwrap();
    let service = format!("zot {}", home.path().display());
    let script = format!(
        "cd '{}' && \"$ZOT_BIN\" -p hello --provider anthropic --base-url '{}' --no-ext --no-session && secret-tool lookup service '{service}' username provider/anthropic",
        cwd.path().display(),
        s.url
    );
    let (ok, stdout, stderr) = tokio::task::spawn_blocking({
        let (h, d) = (home.path().to_owned(), data.path().to_owned());
        move || in_keyring_session(&h, &d, &script)
    })
    .await
    .unwrap();
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    // The model was asked with the key…
    let req = s
        .requests()
        .into_iter()
        .find(|r| r.method == "POST")
        .unwrap();
    assert_eq!(req.header("x-api-key"), Some(KEY));
    // …which now lives in the Secret Service, as another client reads it…
    assert!(stdout.trim_end().ends_with(KEY), "{stdout}");
    // …and nowhere in $ZOT_HOME: auth.json held nothing else, so it is gone.
    assert!(!home.path().join("auth.json").exists());
    for entry in walk(home.path()) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
        assert!(
            !text.contains(KEY),
            "{} still holds the key",
            entry.display()
        );
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

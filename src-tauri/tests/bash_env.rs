//! `bash` never sees zot's credentials nor secret-looking variables (unless
//! the user keeps them in `config.json`): `bash env` run by the model
//! through the real binary shows no canary in the tool result, the provider
//! request, the output or any file under `ZOT_HOME`.

use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// Every file's text under `dir`, recursively.
fn all_text(dir: &std::path::Path) -> String {
    let mut out = String::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.push_str(&all_text(&p));
        } else if let Ok(bytes) = std::fs::read(&p) {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    out
}

#[tokio::test]
async fn bash_env_shows_no_credentials() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "",
        "tu_1",
        "bash",
        &["{\"command\":\"env; echo ENV-DONE\"}"],
    ));
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(
        home.path().join("config.json"),
        r#"{"shell_env":{"keep":["ZOT_TEST_KEPT_TOKEN"]}}"#,
    )
    .unwrap();
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "--mode",
            "json",
            "run env",
            "--base-url",
            &s.url,
            "--no-ext",
        ],
    )
    .env("ANTHROPIC_API_KEY", "canary-anthropic-key")
    .env("OPENAI_API_KEY", "canary-openai-key")
    .env("ZOT_RPC_TOKEN", "canary-rpc-token")
    .env("ZOT_TEST_GH_TOKEN", "canary-gh-token")
    .env("ZOT_TEST_DB_PASSWORD", "canary-db-password")
    .env("ZOT_TEST_COPY", "canary-anthropic-key")
    .env("ZOT_TEST_KEPT_TOKEN", "kept-value")
    .env("ZOT_TEST_PLAIN", "plain-value")
    .output()
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reqs = s.requests();
    assert_eq!(reqs.len(), 2, "{stdout}");
    let second = reqs[1].body.to_string();
    assert!(second.contains("ENV-DONE"), "bash did not run: {second}");
    assert!(second.contains("ZOT_TEST_PLAIN=plain-value"), "{second}");
    assert!(
        second.contains("ZOT_TEST_KEPT_TOKEN=kept-value"),
        "{second}"
    );
    let files = all_text(home.path());
    for canary in [
        "canary-anthropic-key",
        "canary-openai-key",
        "canary-rpc-token",
        "canary-gh-token",
        "canary-db-password",
    ] {
        assert!(!second.contains(canary), "{canary} in the provider request");
        assert!(!stdout.contains(canary), "{canary} in the output");
        assert!(!files.contains(canary), "{canary} in a file under ZOT_HOME");
    }
}

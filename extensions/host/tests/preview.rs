//! A preview starts one extension alone, reports what it registers (or why
//! it failed), and leaves nothing running and nothing else loaded.

#[path = "fixtures/ext_fixtures.rs"]
mod ext_fixtures;

use ext_fixtures::scripted_ext;

use serde_json::json;
use zot_ext_host::preview::preview;
use zot_ext_protocol::rpc::{ExtState, Scope};

#[tokio::test]
async fn a_preview_lists_the_commands_and_tools_of_that_extension_only() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let cwd = tmp.path().join("project");
    std::fs::create_dir_all(&cwd).unwrap();
    // Installed beside it: must not be started or listed.
    scripted_ext(
        &home.join("extensions"),
        "other",
        json!({"commands": ["other"]}),
        json!({}),
    );
    let dir = scripted_ext(
        &home.join("extensions"),
        "fresh",
        json!({"commands": ["hi"], "tools": ["lookup"]}),
        json!({}),
    );

    let got = preview(&home, &cwd, &dir).await.expect("a summary");

    assert_eq!(got.name, "fresh");
    assert_eq!(got.scope, Scope::Explicit);
    assert_eq!(got.state, ExtState::Ready);
    let commands: Vec<&str> = got.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(commands, ["hi"]);
    let tools: Vec<&str> = got.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["lookup"]);
}

#[tokio::test]
async fn a_preview_of_a_crashing_extension_reports_the_failure_and_its_log() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let dir = scripted_ext(
        tmp.path(),
        "broken",
        json!({"exit_before_hello": 4}),
        json!({}),
    );

    let got = preview(&home, tmp.path(), &dir).await.expect("a summary");

    assert_eq!(got.state, ExtState::Failed);
    let error = got.error.expect("an error");
    assert!(error.contains("status 4"), "{error}");
    assert!(got.log_path.ends_with("ext-broken.log"), "{}", got.log_path);
}

#[tokio::test]
async fn a_directory_without_an_extension_has_no_preview_entry_that_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let got = preview(&tmp.path().join("home"), tmp.path(), &empty).await;
    assert!(
        got.as_ref().is_none_or(|s| s.state == ExtState::Failed),
        "{got:?}"
    );
}

//! `zot ext add-mcp` and `zot ext import-mcp` through the real binary, then
//! `zot ext list --json` and `zot ext doctor` over the real Python `mcp`
//! server (installed by `make deps-mcp`).

use std::path::PathBuf;

use serde_json::{json, Value};
use zot_test_support::cli::Env;

fn mcp_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../extensions/host/tests/fixtures/mcp")
}

fn venv_python() -> String {
    let p = mcp_fixture().join(".venv/bin/python");
    assert!(p.exists(), "{} missing: run `make deps-mcp`", p.display());
    p.display().to_string()
}

#[test]
fn add_mcp_writes_an_entry_that_lists_with_its_tools() {
    let env = Env::new();
    let server = mcp_fixture().join("server.py");
    let out = env
        .zot(&[
            "ext",
            "add-mcp",
            "pytest-srv",
            "--",
            &venv_python(),
            server.to_str().unwrap(),
        ])
        .ok();
    assert!(out.contains("added MCP server pytest-srv"), "{out}");
    let m: Value = serde_json::from_str(
        &std::fs::read_to_string(env.extensions().join("pytest-srv/extension.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(m["kind"], "mcp");
    assert_eq!(m["args"][0], server.to_str().unwrap());

    // It runs: the doctor starts it and lists its tools.
    let list: Value = serde_json::from_str(&env.zot(&["ext", "doctor", "--json"]).ok()).unwrap();
    let s = list["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "pytest-srv")
        .unwrap_or_else(|| panic!("{list:#}"));
    assert_eq!(s["kind"], "mcp", "{s:#}");
    assert_eq!(s["state"], "ready", "{s:#}");
    let echo = s["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "echo")
        .unwrap();
    assert_eq!(echo["read_only"], true);

    // The doctor's text says what it is, with the annotations.
    let doctor = env.zot(&["ext", "doctor"]).ok();
    assert!(doctor.contains("kind: MCP server"), "{doctor}");
    assert!(
        doctor.contains("echo (read-only)") && doctor.contains("wipe (destructive)"),
        "{doctor}"
    );

    // The table says what it is.
    let table = env.zot(&["ext", "list"]).ok();
    let row = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("pytest-srv"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.split_whitespace().any(|w| w == "mcp"), "{row}");

    // A second add of the same name needs --force.
    let err = env
        .zot(&[
            "ext",
            "add-mcp",
            "pytest-srv",
            "--url",
            "http://127.0.0.1:1/mcp",
        ])
        .failed();
    assert!(err.contains("--force"), "{err}");
    let out = env
        .command(&[
            "ext",
            "add-mcp",
            "pytest-srv",
            "--url",
            "http://127.0.0.1:1/mcp",
            "--header",
            "Authorization: Bearer x",
            "--force",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let m: Value = serde_json::from_str(
        &std::fs::read_to_string(env.extensions().join("pytest-srv/extension.json")).unwrap(),
    )
    .unwrap();
    // A credential header is kept as a secret setting, not in the manifest.
    assert_eq!(
        m["headers"]["Authorization"],
        "${config:header.Authorization}"
    );
    assert!(m.get("command").is_none());
}

#[test]
fn add_mcp_without_a_command_or_url_is_a_usage_error() {
    let env = Env::new();
    let err = env.zot(&["ext", "add-mcp", "x"]).failed();
    assert!(err.contains("--url") && err.contains("--"), "{err}");
    let err = env
        .zot(&["ext", "add-mcp", "Bad Name", "--", "true"])
        .failed();
    assert!(err.contains("lower-case"), "{err}");
}

#[test]
fn import_mcp_imports_the_usable_entries_and_reports_each_other_one() {
    let env = Env::new();
    let file = env.path("claude.json");
    std::fs::write(
        &file,
        json!({"mcpServers": {
            "Everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
            "remote": {"url": "https://example.com/mcp"},
            "legacy": {"type": "sse", "url": "https://example.com/sse"},
            "nothing": {}
        }})
        .to_string(),
    )
    .unwrap();
    let run = env.zot(&["ext", "import-mcp", file.to_str().unwrap()]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    let (out, err) = (run.stdout(), run.stderr());
    assert!(
        out.contains("imported everything") && out.contains("imported remote"),
        "{out}"
    );
    assert!(
        err.contains("'Everything' was imported as 'everything'"),
        "{err}"
    );
    assert!(
        err.contains("skipped 'legacy'") && err.contains("SSE"),
        "{err}"
    );
    assert!(
        err.contains("skipped 'nothing'") && err.contains("neither"),
        "{err}"
    );
    assert!(env.extensions().join("remote/extension.json").exists());
    assert!(!env.extensions().join("legacy").exists());
}

/// A credential given to `add-mcp` (by its name: `*TOKEN*`, `*KEY*`, …)
/// is kept as a sensitive setting of the entry, not in its manifest, and
/// reaches the server's environment when it starts; other variables stay
/// in the manifest as given.
#[test]
fn credentials_given_to_add_mcp_stay_out_of_the_manifest_and_reach_the_server() {
    let env = Env::new();
    let seen = env.home.join("seen-token");
    let script = format!(
        "printf %s \"$API_TOKEN\" > '{}'; exec '{}' '{}'",
        seen.display(),
        venv_python(),
        mcp_fixture().join("server.py").display()
    );
    let run = |args: &[&str]| {
        let out = env.command(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&[
        "ext",
        "add-mcp",
        "secret-srv",
        "--env",
        "API_TOKEN=canary-7f3e",
        "--env",
        "LOG_LEVEL=debug",
        "--",
        "sh",
        "-c",
        &script,
    ]);
    let manifest =
        std::fs::read_to_string(env.extensions().join("secret-srv/extension.json")).unwrap();
    assert!(!manifest.contains("canary-7f3e"), "{manifest}");
    let m: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(m["env"]["API_TOKEN"], "${config:env.API_TOKEN}");
    assert_eq!(m["env"]["LOG_LEVEL"], "debug");
    assert_eq!(m["config"]["env.API_TOKEN"]["sensitive"], true);
    // The doctor starts it: the server saw the real value.
    let doctor = run(&["ext", "doctor"]);
    assert!(!doctor.contains("canary-7f3e"), "{doctor}");
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), "canary-7f3e");
    // `ext config` shows it masked.
    let shown = run(&["ext", "config", "secret-srv"]);
    assert!(
        !shown.contains("canary-7f3e") && shown.contains("••••"),
        "{shown}"
    );
}

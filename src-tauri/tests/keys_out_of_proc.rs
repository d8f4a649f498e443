//! zot's keys are not in its environment block or argument area, where
//! `/proc/<zot>/environ` and `/proc/<zot>/cmdline` would show them to any
//! process of the user (and to root, whom non-dumpable does not stop: these
//! tests run as root). The real binary is started with canary keys in the
//! environment (`ANTHROPIC_API_KEY`, `ZOTCORE_RPC_TOKEN`) and in
//! `--api-key`; then the test itself, an extension (`proc_peek.py`, which
//! copies its parent's /proc files at start) and the model's `bash` look.
//! Each copy is read raw by the test, so no redaction can hide a leak. The
//! keys must still work: the provider receives the flag's key, and the RPC
//! token still guards `hello`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use tempfile::TempDir;
use zot_test_support::fake_llm::*;
use zot_test_support::fixtures::files_under;
use zot_test_support::rpc::*;

const ENV_CANARY: &str = "sk-ant-PROC-ENV-5d1c9e3a7b20";
const FLAG_CANARY: &str = "sk-ant-PROC-FLAG-8a2f6c0e4d19";
const TOKEN_CANARY: &str = "zot-PROC-TOKEN-3e7b1d9f5a62";
/// What the redactor writes: never expected here, since the environment
/// itself must be clean (a mask would mean the key was there).
const MASK: &str = "[redacted key]";

/// The peeking fixture, copied to `parent/peek`.
fn peek_fixture(parent: &Path) -> PathBuf {
    let d = parent.join("peek");
    std::fs::create_dir_all(&d).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/proc_peek.py");
    std::fs::copy(&src, d.join("proc_peek.py")).unwrap();
    std::fs::write(
        d.join("extension.json"),
        r#"{"name":"peek","version":"0.1.0","exec":"./proc_peek.py","language":"python"}"#,
    )
    .unwrap();
    d
}

/// A home, a project and the peeking fixture (in a third directory, kept
/// alive by the caller).
fn dirs() -> (TempDir, TempDir, TempDir, PathBuf) {
    let (home, cwd, exts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let peek = peek_fixture(exts.path());
    (home, cwd, exts, peek)
}

/// What the fixture found in its parent's /proc, once it wrote it.
async fn peeked(dir: &Path) -> (String, String) {
    let ppid = dir.join("peek/ppid");
    for _ in 0..1500 {
        if ppid.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let read = |f: &str| {
        String::from_utf8_lossy(&std::fs::read(dir.join("peek").join(f)).unwrap()).into_owned()
    };
    (read("environ"), read("cmdline"))
}

/// The canaries in `text`, named by `what`.
fn leaks(what: &str, text: &str) -> Vec<String> {
    [ENV_CANARY, FLAG_CANARY, TOKEN_CANARY]
        .iter()
        .filter(|c| text.contains(*c))
        .map(|c| format!("{what} holds {c}"))
        .collect()
}

/// `environ` really is an environment (zot's own), not an empty file.
fn assert_is_zots_environ(what: &str, environ: &str, home: &Path) {
    let want = format!("ZOT_HOME={}", home.display());
    assert!(
        environ.split('\0').any(|kv| kv == want),
        "{what} is not zot's environment: {environ:?}"
    );
}

#[tokio::test]
async fn no_key_is_in_zots_proc_files_nor_in_what_an_extension_or_bash_finds_there() {
    let s = FakeLlm::start().await;
    let bash = "cat /proc/$PPID/environ > zot.env; cat /proc/$PPID/cmdline > zot.cmd; \
                cat /proc/$$/environ > bash.env; cat /proc/$$/cmdline > bash.cmd; echo peeked";
    s.push(anthropic_tool(
        "",
        "b1",
        "bash",
        &[&json!({ "command": bash }).to_string()],
    ));
    s.push(anthropic_tool(
        "",
        "r1",
        "read",
        &[&json!({"path": "/proc/self/environ"}).to_string()],
    ));
    s.push(anthropic_text(&["seen"]));
    let (home, cwd, _exts, peek) = dirs();
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--base-url",
            &s.url,
            "--api-key",
            FLAG_CANARY,
            "--approvals",
            "auto",
            "-e",
            peek.to_str().unwrap(),
        ],
        &[
            // Sorts first (a child's environment is passed sorted), so
            // it is in the first line `read` returns, before
            // `ANTHROPIC_API_KEY` would be.
            ("AAA_ZOT_MARKER", "here"),
            ("ANTHROPIC_API_KEY", ENV_CANARY),
            ("ZOTCORE_RPC_TOKEN", TOKEN_CANARY),
        ],
    )
    .await;
    let pid = z.child.id().unwrap();
    let mut found = Vec::new();

    // What the test (root) reads of the running zot.
    let environ = String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/environ")).unwrap())
        .into_owned();
    let cmdline = String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/cmdline")).unwrap())
        .into_owned();
    assert_is_zots_environ("/proc/<zot>/environ", &environ, home.path());
    assert!(cmdline.contains("--base-url"), "{cmdline:?}");
    found.extend(leaks("/proc/<zot>/environ", &environ));
    found.extend(leaks("/proc/<zot>/cmdline", &cmdline));

    // What an extension finds.
    let (environ, cmdline) = peeked(&peek).await;
    assert_is_zots_environ(
        "the extension's copy of zot's environ",
        &environ,
        home.path(),
    );
    found.extend(leaks("zot's environ as an extension read it", &environ));
    found.extend(leaks("zot's cmdline as an extension read it", &cmdline));

    // The token still guards the door, and a prompt still reaches the
    // provider with the flag's key.
    let r = z.call(json!({"type": "ping"})).await;
    assert_eq!(r["success"], false, "the token was lost: {r}");
    let r = z
        .call(json!({"type": "hello", "token": TOKEN_CANARY}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.prompt("look around").await;
    let results = of(&evs, "tool_result");
    assert_eq!(results.len(), 2, "{evs:#?}");
    assert_eq!(
        s.requests()[0].header("x-api-key"),
        Some(FLAG_CANARY),
        "the handed-over key reaches the provider"
    );

    // What the model's bash found, and what it really is.
    for f in ["zot.env", "zot.cmd", "bash.env", "bash.cmd"] {
        let text =
            String::from_utf8_lossy(&std::fs::read(cwd.path().join(f)).unwrap()).into_owned();
        if f == "zot.env" {
            assert_is_zots_environ("bash's copy of zot's environ", &text, home.path());
        }
        found.extend(leaks(&format!("bash's {f}"), &text));
    }
    // `read` of /proc/self/environ (zot's own) under `auto` ran, and the
    // provider got zot's environment: no key, and nothing had to be masked.
    let read = results[1]["content"][0]["text"].as_str().unwrap_or("");
    assert!(read.contains("AAA_ZOT_MARKER=here"), "{read}");
    assert!(
        !read.contains(MASK),
        "the key was in the environment: {read}"
    );
    for (i, r) in s.requests().iter().enumerate() {
        found.extend(leaks(&format!("model request {i}"), &r.body.to_string()));
    }
    let log = z.log.clone();
    assert!(z.close().await.success());
    for (i, line) in log.iter().enumerate() {
        found.extend(leaks(&format!("RPC line {i}"), &line.to_string()));
    }
    let sessions = home.path().join("sessions");
    let mut saw_session = false;
    for e in files_under(&sessions) {
        saw_session = true;
        found.extend(leaks(
            &e.display().to_string(),
            &String::from_utf8_lossy(&std::fs::read(&e).unwrap()),
        ));
    }
    assert!(saw_session, "no session file was written");
    assert!(found.is_empty(), "the keys leaked:\n{}", found.join("\n"));
}

#[tokio::test]
async fn a_key_only_in_the_environment_works_and_leaves_it_in_json_mode() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["hi there"]));
    let (home, cwd, _exts, peek) = dirs();
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "--mode",
            "json",
            "--no-session",
            "--base-url",
            &s.url,
            "-e",
            peek.to_str().unwrap(),
            "hello",
        ],
    )
    .env("ANTHROPIC_API_KEY", ENV_CANARY)
    .output()
    .await
    .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(s.requests()[0].header("x-api-key"), Some(ENV_CANARY));
    let (environ, cmdline) = peeked(&peek).await;
    assert_is_zots_environ(
        "the extension's copy of zot's environ",
        &environ,
        home.path(),
    );
    let mut found = leaks("zot's environ in json mode", &environ);
    found.extend(leaks("zot's cmdline in json mode", &cmdline));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(
        lines.iter().any(|l| l["type"] == "assistant_message"),
        "{lines:?}"
    );
    assert!(found.is_empty(), "the key leaked:\n{}", found.join("\n"));
}

#[tokio::test]
async fn zot_ext_leaves_its_keys_behind_too() {
    let (home, cwd, _exts, peek) = dirs();
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "ext",
            "doctor",
            "--ext",
            peek.to_str().unwrap(),
            "--api-key",
            FLAG_CANARY,
        ],
    )
    .env("ANTHROPIC_API_KEY", ENV_CANARY)
    .env("ZOT_RPC_TOKEN", TOKEN_CANARY)
    .output()
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("peek"), "{stdout}");
    let (environ, cmdline) = peeked(&peek).await;
    assert_is_zots_environ("zot ext's environ", &environ, home.path());
    assert!(cmdline.contains("doctor"), "{cmdline:?}");
    let mut found = leaks("zot ext's environ", &environ);
    found.extend(leaks("zot ext's cmdline", &cmdline));
    found.extend(leaks("zot ext doctor's output", &stdout));
    assert!(found.is_empty(), "the keys leaked:\n{}", found.join("\n"));
}

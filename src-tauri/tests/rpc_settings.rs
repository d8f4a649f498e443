//! Extension settings through the real binary (docs/rpc.md "Extension
//! settings", #15): `ext_config_get` / `ext_config_set` over RPC, `zot ext
//! config` on the command line, and a canary secret that must reach the
//! extension and appear nowhere else: not in `ext_list`, the doctor,
//! logs, sessions, any RPC line (answers, events, errors) or other files.
//! Secrets use the 0600 fallback file here (`ZOT_KEYCHAIN=off` in the
//! test support); the keychain has its own tests in the host crate.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

const CANARY: &str = "canary-s3cret-token-ZQ7X";

fn install(home: &Path) -> PathBuf {
    let dir = home.join("extensions/canary");
    std::fs::create_dir_all(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../extensions/host/tests/fixtures/settings_ext.py");
    let manifest = json!({
        "name": "canary",
        "exec": "python3",
        "args": [script],
        "config": {
            "token": {"type":"string","title":"API token","sensitive":true,"required":true},
            "units": {"type":"enum","title":"Units","enum":["metric","imperial"],"default":"metric"},
            "days": {"type":"number","title":"Days","min":1,"max":7}
        }
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

/// Every file under `dir` holding `needle`, except those in `skip`.
/// Whether no extension's settings were stored (`$ZOT_HOME/config` holds
/// no file).
fn no_settings_file(home: &Path) -> bool {
    std::fs::read_dir(home.join("config")).map_or(true, |mut d| d.next().is_none())
}

fn files_with(dir: &Path, needle: &str, skip: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if skip.contains(&p) {
            continue;
        }
        if p.is_dir() {
            out.extend(files_with(&p, needle, skip));
        } else if String::from_utf8_lossy(&std::fs::read(&p).unwrap()).contains(needle) {
            out.push(p);
        }
    }
    out
}

#[tokio::test]
async fn a_canary_secret_reaches_the_extension_and_nothing_else() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = install(home.path());
    s.push(anthropic_text(&["ok"]));
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &[], &[]).await;
    // Without its token it does not start, and says how to set it.
    let list = z.call(json!({"type":"ext_list"})).await;
    let ext = &list["data"]["extensions"][0];
    assert_eq!(ext["state"], "failed", "{ext}");
    let err = ext["error"].as_str().unwrap();
    assert!(
        err.contains("'token' (API token)") && err.contains("`zot ext config canary token`"),
        "{err}"
    );

    // Bad values: refused naming the key and the rule; nothing stored.
    for (values, words) in [
        (json!({"units":"kelvin"}), "setting 'units': must be one of"),
        (json!({"days":0}), "setting 'days': must be at least 1"),
        (json!({"days":"two"}), "setting 'days': must be a number"),
        (json!({"token": 5}), "setting 'token'"),
    ] {
        let r = z
            .call(json!({"type":"ext_config_set","name":"canary","values":values}))
            .await;
        assert_eq!(r["success"], false, "{r}");
        assert!(r["error"].as_str().unwrap().contains(words), "{r}");
        assert!(no_settings_file(home.path()));
    }

    let r = z
        .call(json!({"type":"ext_config_set","name":"canary","values":{"token":CANARY,"units":"imperial"}}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["values"]["token"], "••••ZQ7X");
    assert_eq!(r["data"]["values"]["units"], "imperial");
    assert_eq!(r["data"]["secret_store"], "file");
    // It started with the secret (the fixture wrote what hello_ack held).
    let got: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hello_config.json")).unwrap())
            .unwrap();
    assert_eq!(got["token"], CANARY);
    let got = z
        .call(json!({"type":"ext_config_get","name":"canary"}))
        .await;
    assert_eq!(got["data"]["values"]["token"], "••••ZQ7X");
    assert_eq!(got["data"]["order"], json!(["token", "units", "days"]));
    let list = z.call(json!({"type":"ext_list"})).await;
    assert_eq!(list["data"]["extensions"][0]["state"], "ready", "{list}");
    // An error that could quote the value must not.
    let r = z
        .call(json!({"type":"ext_config_set","name":"canary","values":{"token":CANARY,"days":99}}))
        .await;
    assert_eq!(r["success"], false);
    z.prompt("hello").await;
    z.call(json!({"type":"get_messages"})).await;
    let seen = serde_json::to_string(&z.log).unwrap();
    assert!(!seen.contains(CANARY), "the secret appeared on stdout");
    z.close().await;

    for args in [
        vec!["ext", "list", "--json"],
        vec!["ext", "doctor", "--json"],
        vec!["ext", "doctor"],
        vec!["ext", "config", "canary"],
        vec!["ext", "config", "canary", "token"],
    ] {
        let out = command(home.path(), cwd.path(), &args)
            .output()
            .await
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !text.contains(CANARY),
            "`zot {}` showed the secret:\n{text}",
            args.join(" ")
        );
    }
    // Logs, sessions, settings: only the secret store and what the
    // fixture itself wrote hold it.
    let skip = [
        home.path().join("secrets.json"),
        dir.join("hello_config.json"),
    ];
    assert_eq!(
        files_with(home.path(), CANARY, &skip),
        Vec::<PathBuf>::new()
    );
}

#[tokio::test]
async fn zot_ext_config_sets_shows_and_refuses_with_the_rule() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    install(home.path());
    let run = |args: &[&str]| command(home.path(), cwd.path(), args).output();
    let out = run(&["ext", "config", "canary", "units", "kelvin"])
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("setting 'units': must be one of \"metric\", \"imperial\""),
        "{err}"
    );
    assert!(no_settings_file(home.path()));
    let out = run(&["ext", "config", "canary", "days", "5"])
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A secret on argv is refused; from stdin it is stored.
    let out = run(&["ext", "config", "canary", "token", CANARY])
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(CANARY));
    let mut child = command(
        home.path(),
        cwd.path(),
        &["ext", "config", "canary", "token"],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{CANARY}\n").as_bytes())
        .await
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["ext", "config", "canary"]).await.unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("token = ••••ZQ7X"), "{text}");
    assert!(text.contains("days = 5"), "{text}");
    assert!(text.contains("units = \"metric\""), "{text}");
    assert!(!text.contains(CANARY));
}

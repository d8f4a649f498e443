//! `.mcpb` MCP bundles through the real binary, made by the official
//! packer (`@anthropic-ai/mcpb`, installed by `make deps-mcp` beside the
//! host's MCP fixtures) from a plain Node and a plain Python server
//! (`tests/fixtures/mcpb`): installed as `kind: "mcp"` extensions with
//! `${__dirname}` and `${user_config.*}` filled in (each server refuses to
//! start otherwise and names its tool after the greeting it was given), a
//! required setting asked for before the first start, a default used, and
//! a bundle for another platform or an absent runtime refused by name.

use std::path::{Path, PathBuf};

use serde_json::Value;
use zot_test_support::cli::Env;

/// The official packer.
fn packer() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../extensions/host/tests/fixtures/mcp/node_modules/.bin/mcpb");
    assert!(
        p.exists(),
        "the official MCP bundle packer is missing at {}: run `make deps-mcp`",
        p.display()
    );
    p
}

/// Packs fixture `name` (after `edit` changes its manifest.json) with the
/// official packer.
fn pack(env: &Env, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcpb")
        .join(name);
    let dir = env.path(&format!("mcpb-src/{name}"));
    std::fs::create_dir_all(dir.join("server")).unwrap();
    for entry in std::fs::read_dir(src.join("server")).unwrap() {
        let e = entry.unwrap();
        std::fs::copy(e.path(), dir.join("server").join(e.file_name())).unwrap();
    }
    let mut manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("manifest.json")).unwrap()).unwrap();
    edit(&mut manifest);
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
    let out = env.path(&format!("{name}.mcpb"));
    let st = std::process::Command::new(packer())
        .arg("pack")
        .arg(&dir)
        .arg(&out)
        .output()
        .unwrap();
    assert!(st.status.success(), "mcpb pack: {st:?}");
    out
}

fn listed(env: &Env, name: &str) -> Value {
    let out = env.zot(&["ext", "list", "--json"]).ok();
    let all: Vec<Value> = serde_json::from_str(&out).unwrap();
    all.into_iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("{name}: {out}"))
}

#[test]
fn a_node_bundle_installs_as_an_mcp_extension_and_waits_for_its_required_setting() {
    let env = Env::new();
    let bundle = pack(&env, "node-echo", |_| {});
    let out = env.zot(&["ext", "install", bundle.to_str().unwrap()]).ok();
    assert!(out.contains("installed node-echo 1.0.0"), "{out}");
    assert!(
        out.contains("tools: echo_GREETING"),
        "the bundle's tools are listed: {out}"
    );
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(env.extensions().join("node-echo/extension.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["kind"], "mcp");
    assert_eq!(manifest["command"], "node");
    let dir = env.extensions().join("node-echo");
    assert_eq!(
        manifest["args"][0],
        format!("{}/server/index.js", dir.display())
    );
    assert_eq!(manifest["args"][1], "${config:greeting}");
    assert_eq!(manifest["env"]["API_TOKEN"], "${config:api_token}");
    assert_eq!(manifest["config"]["api_token"]["sensitive"], true);
    assert_eq!(manifest["config"]["greeting"]["required"], true);

    let s = listed(&env, "node-echo");
    assert_ne!(s["state"], "ready", "a required setting is missing: {s}");
    assert_eq!(s["source"]["kind"], "mcpb");

    env.zot(&["ext", "config", "node-echo", "greeting", "hola"])
        .ok();
    let s = listed(&env, "node-echo");
    assert_eq!(s["state"], "ready", "{s}");
    assert_eq!(
        s["tools"][0]["name"], "echo_hola",
        "the setting reached the server: {s}"
    );
}

#[test]
fn a_python_bundle_runs_with_its_default_setting() {
    let env = Env::new();
    let bundle = pack(&env, "py-echo", |_| {});
    env.zot(&["ext", "install", bundle.to_str().unwrap()]).ok();
    let s = listed(&env, "py-echo");
    assert_eq!(s["state"], "ready", "{s}");
    assert_eq!(s["kind"], "mcp");
    assert_eq!(s["tools"][0]["name"], "echo_hallo", "{s}");
}

#[test]
fn another_platform_or_a_runtime_too_old_is_refused_with_nothing_written() {
    let env = Env::new();
    let elsewhere = pack(&env, "node-echo", |m| {
        m["compatibility"]["platforms"] = serde_json::json!(["win32"]);
    });
    let err = env
        .zot(&["ext", "install", elsewhere.to_str().unwrap()])
        .failed();
    assert!(err.contains("refusing the MCP bundle"), "{err}");
    assert!(err.contains("made for win32 only"), "{err}");
    let future = pack(&env, "py-echo", |m| {
        m["compatibility"]["runtimes"]["python"] = ">=99.0.0".into();
    });
    let err = env
        .zot(&["ext", "install", future.to_str().unwrap()])
        .failed();
    assert!(err.contains("it needs python >=99.0.0"), "{err}");
    assert!(!env.extensions().exists(), "nothing written");
}

#[test]
fn a_bundle_signed_by_the_official_packer_says_its_signature_is_not_checked() {
    let env = Env::new();
    let plain = pack(&env, "node-echo", |_| {});
    // Unsigned, it says so.
    let out = env.zot(&["ext", "install", plain.to_str().unwrap()]).ok();
    assert!(out.contains("bundle: unsigned"), "{out}");

    // `mcpb sign --self-signed` appends its PKCS#7 block: zot finds it and
    // says it does not check it, never "signed" and never plain "unsigned".
    let signed = env.path("node-echo-signed.mcpb");
    std::fs::copy(&plain, &signed).unwrap();
    let st = std::process::Command::new(packer())
        .args(["sign", "--self-signed"])
        .arg(&signed)
        .current_dir(env.path(""))
        .output()
        .unwrap();
    assert!(st.status.success(), "mcpb sign: {st:?}");
    let out = env
        .zot(&[
            "ext",
            "install",
            "--force",
            "--yes",
            signed.to_str().unwrap(),
        ])
        .ok();
    assert!(
        out.contains("bundle: unverified: it carries an .mcpb (PKCS#7 certificate) signature, which zot does not check yet"),
        "{out}"
    );
    assert_eq!(listed(&env, "node-echo")["source"]["kind"], "mcpb");
}

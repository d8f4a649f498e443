//! enable/disable rewrite only `enabled`, keep every other field and the key
//! order, and leave no temp file behind.

use zot_ext_host::toggle::set_enabled;

const MANIFEST: &str = r#"{
  "name": "weather",
  "version": "1.0.0",
  "exec": "./weather",
  "args": ["--mode", "daemon"],
  "enabled": true,
  "language": "go",
  "settings": {"z": 1, "a": [true, null]},
  "description": "current weather"
}"#;

fn keys(text: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn disabling_flips_only_enabled_and_keeps_key_order() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("extension.json");
    std::fs::write(&path, MANIFEST).unwrap();

    assert!(set_enabled(&path, false).unwrap());

    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(keys(&text), keys(MANIFEST));
    let mut before: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
    before["enabled"] = false.into();
    let after: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(after, before);
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        1,
        "temp file left"
    );
}

#[test]
fn enabling_an_already_enabled_manifest_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("extension.json");
    std::fs::write(&path, MANIFEST).unwrap();
    assert!(!set_enabled(&path, true).unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), MANIFEST);
}

#[test]
fn a_missing_enabled_key_is_added_last() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("extension.json");
    std::fs::write(&path, r#"{"name":"a","exec":"./a"}"#).unwrap();
    assert!(set_enabled(&path, false).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(keys(&text), ["name", "exec", "enabled"]);
    // Round trip back.
    assert!(set_enabled(&path, true).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""enabled": true"#), "{text}");
}

#[test]
fn a_broken_manifest_is_left_alone_with_a_message_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("extension.json");
    for bad in ["{oops", "[1,2]", r#"{"name":"a","enabled":"yes"}"#] {
        std::fs::write(&path, bad).unwrap();
        let err = set_enabled(&path, false).unwrap_err();
        assert!(err.to_string().contains("extension.json"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
    }
}

#[cfg(unix)]
#[test]
fn the_rewrite_keeps_the_file_mode() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("extension.json");
    std::fs::write(&path, MANIFEST).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    set_enabled(&path, false).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn concurrent_atomic_writes_never_mix_their_contents() {
    use zot_ext_host::toggle::write_atomically;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("config.json");
    let a = "a".repeat(256 * 1024);
    let b = "b".repeat(256 * 1024);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| write_atomically(&path, a.as_bytes()).unwrap());
            s.spawn(|| write_atomically(&path, b.as_bytes()).unwrap());
        }
    });
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text == a || text == b, "a torn write survived");
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        1,
        "temp file left"
    );
}

//! `remove` deletes only installed extensions, never escapes the extensions
//! directory, and lists what is installed when the name is unknown.

use std::path::Path;

use zot_ext_host::ext_ops::OpsError;
use zot_ext_host::remove::remove;

fn ext(base: &Path, name: &str) {
    let dir = base.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("extension.json"),
        format!(r#"{{"name":"{name}"}}"#),
    )
    .unwrap();
}

#[test]
fn an_installed_extension_is_deleted_and_others_stay() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("extensions");
    ext(&base, "a");
    ext(&base, "b");
    let gone = remove(tmp.path(), tmp.path(), "a").unwrap();
    assert_eq!(gone, base.join("a"));
    let left: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["b"]);
}

#[test]
fn names_that_escape_are_refused_and_nothing_is_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    ext(&home.join("extensions"), "a");
    std::fs::write(tmp.path().join("precious"), "keep").unwrap();
    for bad in [
        "../..", "..", "../home", "a/../a", "/etc", ".hidden", "-rf", "",
    ] {
        let err = remove(&home, tmp.path(), bad).unwrap_err();
        assert!(matches!(err, OpsError::BadName { .. }), "{bad}: {err}");
    }
    assert!(tmp.path().join("precious").exists());
    assert!(home.join("extensions/a/extension.json").exists());
}

#[test]
fn an_unknown_name_lists_the_installed_ones() {
    let tmp = tempfile::tempdir().unwrap();
    ext(&tmp.path().join("extensions"), "alpha");
    ext(&tmp.path().join("extensions"), "beta");
    let err = remove(tmp.path(), tmp.path(), "gamma").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("gamma") && msg.contains("alpha, beta"),
        "{msg}"
    );
}

#[test]
fn a_project_local_extension_is_not_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    ext(&project.join(".zot/extensions"), "local");
    let err = remove(tmp.path(), &project, "local").unwrap_err();
    assert!(matches!(err, OpsError::ProjectLocal { .. }), "{err}");
    assert!(project
        .join(".zot/extensions/local/extension.json")
        .exists());
}

#[cfg(unix)]
#[test]
fn a_symlinked_install_loses_the_link_not_the_target() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    ext(&work, "dev");
    let base = tmp.path().join("extensions");
    std::fs::create_dir_all(&base).unwrap();
    std::os::unix::fs::symlink(work.join("dev"), base.join("dev")).unwrap();
    remove(tmp.path(), tmp.path(), "dev").unwrap();
    assert!(base.join("dev").symlink_metadata().is_err());
    assert!(work.join("dev/extension.json").exists());
}

#[test]
fn removing_an_extension_forgets_its_settings_and_secrets() {
    // Secrets in the fallback file: this test must not write into the
    // keychain of the machine it runs on.
    std::env::set_var("ZOT_KEYCHAIN", "off");
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("extensions");
    ext(&base, "keyed");
    ext(&base, "other");
    let schema: zot_ext_protocol::SettingsSchema = serde_json::from_str(
        r#"{"token":{"type":"string","title":"T","sensitive":true},"n":{"type":"number","title":"N"}}"#,
    )
    .unwrap();
    let owner = |name: &str| zot_ext_host::settings_store::Owner::of(name, &base.join(name));
    let set = |name: &str, token: &str| {
        let values = serde_json::from_value(serde_json::json!({"token": token, "n": 2})).unwrap();
        zot_ext_host::settings_store::apply(tmp.path(), &owner(name), &schema, &values).unwrap();
    };
    set("keyed", "canary-removed-secret-1");
    set("other", "canary-kept-secret-22");
    let keyed = zot_ext_host::settings_store::config_path(tmp.path(), owner("keyed").key());
    assert!(keyed.exists());
    remove(tmp.path(), tmp.path(), "keyed").unwrap();
    assert!(!keyed.exists());
    let secrets = std::fs::read_to_string(tmp.path().join("secrets.json")).unwrap();
    assert!(!secrets.contains("canary-removed-secret-1"), "{secrets}");
    assert!(secrets.contains("canary-kept-secret-22"));
    assert!(zot_ext_host::settings_store::config_path(tmp.path(), owner("other").key()).exists());
}

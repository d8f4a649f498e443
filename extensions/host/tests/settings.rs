//! Extension settings through a real extension process (secrets in the
//! file fallback here; `settings_keychain.rs` runs the real Secret
//! Service): `hello_ack.config` with defaults, `config_changed` while it
//! runs, a missing required setting keeping it from starting until set,
//! bad values refused with nothing stored, and a corrupt settings file
//! moved aside.

#[path = "support/support.rs"]
mod support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::*;
use zot_ext_host::{HostError, HostEvent};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

/// Secrets go to `$ZOT_HOME/secrets.json` in this binary: it must never
/// write into the keychain of the machine it runs on.
fn no_keychain() {
    std::env::set_var("ZOT_KEYCHAIN", "off");
}

fn schema() -> Value {
    json!({
        "units": {"type":"enum","title":"Units","enum":["metric","imperial"],"default":"metric"},
        "days": {"type":"number","title":"Days","min":1,"max":7,"default":3},
        "verbose": {"type":"boolean","title":"Verbose"},
        "token": {"type":"string","title":"API token","sensitive":true,"required":true},
        "folder": {"type":"path","title":"Folder","must_exist":true}
    })
}

/// Where the settings of the extension `name` in `dir` are kept: keyed by
/// its folder (`settings_owner.rs`).
fn settings_file(env: &Env, name: &str, dir: &Path) -> PathBuf {
    let owner = zot_ext_host::settings_store::Owner::of(name, dir);
    zot_ext_host::settings_store::config_path(env.home.path(), owner.key())
}

fn settings_ext(env: &Env, name: &str, config: Value) -> PathBuf {
    let dir = env.global_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = json!({
        "name": name,
        "exec": python(),
        "args": [fixture("settings_ext.py")],
        "config": config,
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn vals(v: Value) -> zot_ext_protocol::SettingValues {
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn a_missing_required_setting_fails_the_start_until_it_is_set() {
    no_keychain();
    let env = Env::new();
    let dir = settings_ext(&env, "needy", schema());
    let (host, _rx) = start(env.config()).await;
    let r = host
        .report()
        .extensions
        .into_iter()
        .find(|e| e.summary.name == "needy")
        .unwrap();
    assert_eq!(r.summary.state, ExtState::Failed);
    let err = r.summary.error.clone().unwrap_or_default();
    assert!(err.contains("'token' (API token)"), "{err}");
    assert!(err.contains("`zot ext config needy token`"), "{err}");
    assert!(err.contains("Configure…"), "{err}");
    assert!(!dir.join("hello_config.json").exists(), "it was started");

    let out = host
        .config_set("needy", vals(json!({"token": "canary-token-0123456789"})))
        .await
        .unwrap();
    assert_eq!(out.values["token"], "••••6789");
    assert!(out.missing.is_empty());
    // Complete now: it started on its own, with defaults and the secret.
    let got = read_json(&dir.join("hello_config.json"));
    assert_eq!(
        got,
        json!({"units":"metric","days":3,"token":"canary-token-0123456789"})
    );
    assert_eq!(
        host.list()
            .iter()
            .find(|e| e.name == "needy")
            .unwrap()
            .state,
        ExtState::Ready
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_change_reaches_the_running_extension_as_config_changed() {
    no_keychain();
    let env = Env::new();
    let dir = settings_ext(&env, "live", json!({"units": schema()["units"]}));
    let (host, mut rx) = start(env.config()).await;
    assert_eq!(
        read_json(&dir.join("hello_config.json")),
        json!({"units":"metric"})
    );
    let out = host
        .config_set("live", vals(json!({"units":"imperial"})))
        .await
        .unwrap();
    assert_eq!(out.delivered, Some(true));
    wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtNotify { message, .. }) if message == "config changed")
    })
    .await;
    assert_eq!(
        read_json(&dir.join("changed_config.json")),
        json!({"units":"imperial"})
    );
    // Stored for the next start, 0600.
    let file = settings_file(&env, "live", &dir);
    assert_eq!(read_json(&file)["values"], json!({"units":"imperial"}));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // null clears back to the default.
    let out = host
        .config_set("live", vals(json!({"units": null})))
        .await
        .unwrap();
    assert_eq!(out.values["units"], "metric");
    host.shutdown().await;
}

#[tokio::test]
async fn bad_values_are_refused_naming_the_key_and_nothing_is_stored() {
    no_keychain();
    let env = Env::new();
    let dir = settings_ext(&env, "strict", schema());
    let (host, _rx) = start(env.config()).await;
    let file = settings_file(&env, "strict", &dir);
    for (values, key, rule) in [
        (json!({"days":"3"}), "days", "must be a number"),
        (json!({"days":9}), "days", "at most 7"),
        (json!({"days":0}), "days", "at least 1"),
        (json!({"units":"kelvin"}), "units", "must be one of"),
        (json!({"verbose":"yes"}), "verbose", "true or false"),
        (
            json!({"folder":"/no/such/zot/folder"}),
            "folder",
            "does not exist",
        ),
        (json!({"nope":1}), "nope", "no such setting"),
        // One bad value spoils the batch: the good one is not stored either.
        (json!({"units":"imperial","days":99}), "days", "at most 7"),
        (
            json!({"token":"canary-secret-abcdef","days":99}),
            "days",
            "at most 7",
        ),
    ] {
        let e = host
            .config_set("strict", vals(values.clone()))
            .await
            .unwrap_err();
        let HostError::Settings { message, .. } = &e else {
            panic!("{e}")
        };
        assert!(
            message.contains(&format!("setting '{key}'")),
            "{values}: {e}"
        );
        assert!(message.contains(rule), "{values}: {e}");
        assert!(message.contains("nothing was stored"), "{e}");
        assert!(!file.exists(), "{values} stored something");
        assert!(!env.home.path().join("secrets.json").exists());
    }
    host.shutdown().await;
}

#[tokio::test]
async fn a_corrupt_settings_file_is_moved_aside_and_the_defaults_used() {
    no_keychain();
    let env = Env::new();
    let dir = settings_ext(&env, "mended", json!({"units": schema()["units"]}));
    let cfg_dir = env.home.path().join("config");
    std::fs::create_dir_all(&cfg_dir).unwrap();
    let file = settings_file(&env, "mended", &dir);
    let stem = file.file_name().unwrap().to_str().unwrap().to_owned();
    std::fs::write(&file, "{not json").unwrap();
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        read_json(&dir.join("hello_config.json")),
        json!({"units":"metric"})
    );
    let aside: Vec<String> = std::fs::read_dir(&cfg_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        aside
            .iter()
            .any(|n| n.starts_with(&format!("{stem}.corrupt-"))),
        "{aside:?}"
    );
    assert!(!file.exists());
    let r = host
        .report()
        .extensions
        .into_iter()
        .find(|e| e.summary.name == "mended")
        .unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("was not valid JSON") && w.contains("moved it to")),
        "{:?}",
        r.warnings
    );
    assert!(env.log("mended").contains("moved it to"));
    host.shutdown().await;
}

#[tokio::test]
async fn config_get_masks_secrets_and_the_fallback_file_is_private() {
    no_keychain();
    let env = Env::new();
    let dir = settings_ext(&env, "masked", schema());
    let (host, _rx) = start(env.config()).await;
    let secret = "canary-SECRET-value-7f3a";
    host.config_set("masked", vals(json!({"token": secret, "days": 5})))
        .await
        .unwrap();
    let got = host.config_get("masked").await.unwrap();
    assert_eq!(got.values["token"], "••••7f3a");
    assert_eq!(got.values["days"], 5);
    assert_eq!(got.secret_store, "file");
    assert!(
        got.warnings.iter().any(|w| w.contains("no OS keychain")),
        "{:?}",
        got.warnings
    );
    assert_eq!(got.order, ["units", "days", "verbose", "token", "folder"]);
    let shown = serde_json::to_string(&got).unwrap();
    assert!(!shown.contains(secret), "{shown}");
    // A masked secret sent back means "unchanged".
    host.config_set("masked", vals(json!({"token": "••••7f3a"})))
        .await
        .unwrap();
    let secrets = env.home.path().join("secrets.json");
    assert!(std::fs::read_to_string(&secrets).unwrap().contains(secret));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&secrets).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // The plain file holds the secret's name, never its value.
    let plain = std::fs::read_to_string(settings_file(&env, "masked", &dir)).unwrap();
    assert!(!plain.contains(secret), "{plain}");
    // Nor do the report, the log or the doctor's view.
    let report = format!("{:?}", host.report());
    assert!(!report.contains(secret));
    assert!(!env.log("masked").contains(secret));
    host.shutdown().await;
}

/// A settings extension named `name` in `root/dir_name` (not necessarily
/// where discovery puts installed ones).
fn settings_ext_in(root: &Path, name: &str, config: Value) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = json!({
        "name": name, "exec": python(), "args": [fixture("settings_ext.py")], "config": config,
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

#[tokio::test]
async fn a_same_name_copy_elsewhere_gets_none_of_the_installed_ones_settings() {
    no_keychain();
    let env = Env::new();
    let secret = "canary-installed-secret-7731";
    let token = json!({"token": {"type":"string","title":"T","sensitive":true},
        "units": schema()["units"]});
    let installed = settings_ext(&env, "vault", token.clone());
    let (host, _rx) = start(env.config()).await;
    host.config_set("vault", vals(json!({"token": secret, "units": "imperial"})))
        .await
        .unwrap();
    host.shutdown().await;
    // A project's copy and an --ext copy of the same name each start with
    // their own (here: the defaults), never the installed one's secret.
    for copy in [
        settings_ext_in(&env.project_dir(), "vault", token.clone()),
        settings_ext_in(env.loose.path(), "vault", token.clone()),
    ] {
        let mut cfg = env.config();
        if copy.starts_with(env.loose.path()) {
            cfg.explicit = vec![copy.clone()];
        }
        let (host, _rx) = start(cfg).await;
        let got = read_json(&copy.join("hello_config.json"));
        assert_eq!(got, json!({"units": "metric"}), "{}", copy.display());
        let shown = host.config_get("vault").await.unwrap();
        assert!(!shown.values.contains_key("token"), "{shown:?}");
        host.shutdown().await;
        std::fs::remove_dir_all(&copy).unwrap();
    }
    // The installed one still has them.
    let (host, _rx) = start(env.config()).await;
    std::fs::remove_file(installed.join("hello_config.json")).unwrap();
    host.restart("vault").await.unwrap();
    assert_eq!(
        read_json(&installed.join("hello_config.json"))["token"],
        secret
    );
    host.shutdown().await;
}

#[tokio::test]
async fn settings_kept_by_name_move_to_the_installed_copy_only() {
    no_keychain();
    let env = Env::new();
    // As an older zot left them: config/<name>.json and ext/<name>/<key>.
    let cfg_dir = env.home.path().join("config");
    std::fs::create_dir_all(&cfg_dir).unwrap();
    std::fs::write(
        cfg_dir.join("legacy.json"),
        json!({"values": {"units": "imperial"}, "secrets": ["token"]}).to_string(),
    )
    .unwrap();
    std::fs::write(
        env.home.path().join("secrets.json"),
        json!({"ext/legacy/token": "canary-legacy-secret-4410"}).to_string(),
    )
    .unwrap();
    let token = json!({"token": {"type":"string","title":"T","sensitive":true},
        "units": schema()["units"]});
    // A project's copy loads first: it must not take them.
    let project = settings_ext_in(&env.project_dir(), "legacy", token.clone());
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        read_json(&project.join("hello_config.json")),
        json!({"units": "metric"})
    );
    host.shutdown().await;
    std::fs::remove_dir_all(&project).unwrap();
    assert!(cfg_dir.join("legacy.json").exists());
    // The installed copy takes them over, under its own key.
    let installed = settings_ext(&env, "legacy", token);
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        read_json(&installed.join("hello_config.json")),
        json!({"units": "imperial", "token": "canary-legacy-secret-4410"})
    );
    host.shutdown().await;
    assert!(!cfg_dir.join("legacy.json").exists());
    assert!(settings_file(&env, "legacy", &installed).exists());
    let secrets = std::fs::read_to_string(env.home.path().join("secrets.json")).unwrap();
    assert!(!secrets.contains("ext/legacy/token"), "{secrets}");
}

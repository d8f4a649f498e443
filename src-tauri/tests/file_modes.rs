//! Files zot keeps under `$ZOT_HOME` are private: the directory and its
//! `logs/` are 0700, extension logs, `auth.json` and `config.json` are
//! 0600, whether zot made them or an older zot left them readable. Checked
//! with stat after real runs.

use crate::in_process;
use zot_test_support::fixtures;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::json;
use zot_lib::backend::{Backend, BackendOptions};
use zot_lib::providers::ProviderKind;
use zot_lib::settings::{self, SettingsUpdate, Startup};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Every log file zot wrote, with its mode.
fn log_modes(home: &Path) -> Vec<(String, u32)> {
    std::fs::read_dir(home.join("logs"))
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                mode(&e.path()),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_fresh_zot_home_its_logs_and_the_extension_logs_are_private() {
    let (t, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let home = t.path().join("state/zot");
    let ext = fixtures::agent_ext(t.path(), "fx", json!({}));
    let mut z = Rpc::start(
        &home,
        cwd.path(),
        &["--ext", ext.to_str().unwrap(), "--no-session"],
        &[],
    )
    .await;
    let r = z.call(json!({"type":"ext_list"})).await;
    assert_eq!(r["success"], true, "{r}");
    assert!(z.close().await.success());
    assert_eq!(mode(&home), 0o700);
    assert_eq!(mode(&home.join("logs")), 0o700);
    let logs = log_modes(&home);
    assert!(!logs.is_empty(), "the extension wrote no log");
    for (name, m) in logs {
        assert_eq!(m, 0o600, "logs/{name} is {m:o}");
    }
}

#[tokio::test]
async fn an_old_zot_home_left_readable_is_tightened() {
    let (t, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let home = t.path().join("zot");
    std::fs::create_dir_all(home.join("logs")).unwrap();
    let files = ["auth.json", "config.json", "logs/ext-old.log"];
    for f in files {
        std::fs::write(home.join(f), "{}").unwrap();
        std::fs::set_permissions(home.join(f), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    for d in [home.clone(), home.join("logs")] {
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let z = Rpc::start(&home, cwd.path(), &["--no-ext", "--no-session"], &[]).await;
    assert!(z.close().await.success());
    assert_eq!(mode(&home), 0o700);
    assert_eq!(mode(&home.join("logs")), 0o700);
    for f in files {
        assert_eq!(mode(&home.join(f)), 0o600, "{f}");
    }
}

#[tokio::test]
async fn settings_write_auth_json_and_config_json_at_0600() {
    let llm = FakeLlm::start().await;
    let (t, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let home = t.path().join("fresh/zot");
    let (b, _rx) = Backend::start(BackendOptions {
        provider: ProviderKind::Ollama,
        ..in_process::options(&home, cwd.path(), &llm.url)
    })
    .await
    .unwrap();
    let start = Startup {
        zot_home: &home,
        provider: "ollama",
        model: "m",
        api_key: None,
    };
    settings::save(
        &start,
        &b,
        &SettingsUpdate {
            api_key: Some("sk-test-0123456789".into()),
            theme: Some("light".into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    b.shutdown().await;
    assert_eq!(mode(&home), 0o700);
    assert_eq!(mode(&home.join("auth.json")), 0o600);
    assert_eq!(mode(&home.join("config.json")), 0o600);
    // No temp file left beside them.
    let names: Vec<String> = std::fs::read_dir(&home)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

//! The restart seam: a restart ends the old run's calls and starts clean;
//! what cannot run says why; a finished extension's state and registry
//! change in one step. The leak loop is in `restart_leak.rs`.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::HostError;
use zot_ext_protocol::rpc::ExtState;

#[tokio::test]
async fn a_restart_ends_the_old_runs_calls_and_starts_clean() {
    let env = Env::new();
    env.global(
        "slow",
        json!({"register":[{"type":"register_tool","name":"wait","schema":{"type":"object"}}],
               "tools":{"wait":"hang"}}),
    );
    let (host, _rx) = start(env.config()).await;
    let pending = {
        let host = host.clone();
        tokio::spawn(async move { host.call_tool("wait", json!({})).await })
    };
    // Let the call reach the extension.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(!pending.is_finished());
    host.restart("slow").await.unwrap();
    let err = pending.await.unwrap().unwrap_err();
    assert!(
        matches!(err, HostError::NotRunning { .. } | HostError::Exited { .. }),
        "{err}"
    );
    assert_eq!(host.list()[0].state, ExtState::Ready);
    assert_eq!(host.tools().len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn restarting_what_cannot_run_says_why() {
    let env = Env::new();
    let dir = env.global("off", json!({}));
    zot_ext_host::toggle::set_enabled(&dir.join("extension.json"), false).unwrap();
    let (host, _rx) = start(env.config()).await;
    let err = host.restart("nope").await.unwrap_err();
    assert!(matches!(err, HostError::UnknownExtension(_)), "{err}");
    let err = host.restart("off").await.unwrap_err();
    assert!(
        err.to_string()
            .contains("'off' cannot be started: it is disabled"),
        "{err}"
    );
}

#[tokio::test]
async fn once_an_extension_is_seen_exited_its_tools_are_gone() {
    let env = Env::new();
    env.global(
        "boom",
        json!({"register":[{"type":"register_tool","name":"die","schema":{"type":"object"}}],
               "tools":{"die":{"exit": 3}}}),
    );
    let (host, _rx) = start(env.config()).await;
    let watcher = {
        let host = host.clone();
        tokio::spawn(async move {
            // The state and the registry change in one step: whoever sees
            // the new state sees the new registry.
            loop {
                let state = host.list()[0].state;
                if state != ExtState::Ready {
                    assert!(host.tools().is_empty(), "{state:?} with tools listed");
                    return state;
                }
                tokio::task::yield_now().await;
            }
        })
    };
    let err = host.call_tool("die", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::Exited { .. }), "{err}");
    assert_eq!(watcher.await.unwrap(), ExtState::Exited);
}

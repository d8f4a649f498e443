//! "Develop a folder…" (`Host::develop`): a working copy added while the
//! host runs loads like an `--ext` path, reloads when its sources change
//! (a broken save shows its error, the next good one recovers), and a
//! folder without a manifest is refused with what to do.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::develop::DevelopError;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::{ExtState, Scope, UiEvent};

fn command_names(host: &zot_ext_host::Host) -> Vec<String> {
    host.commands().into_iter().map(|c| c.name).collect()
}

async fn next_reload(rx: &mut tokio::sync::mpsc::Receiver<HostEvent>) -> (u32, Vec<String>) {
    match wait_event(rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtReload { .. }))
    })
    .await
    {
        HostEvent::Ui(UiEvent::ExtReload { ready, errors, .. }) => {
            (ready, errors.into_iter().map(|e| e.message).collect())
        }
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_developed_folder_loads_then_reloads_on_save_and_recovers_from_a_broken_one() {
    let env = Env::new();
    env.global("installed", json!({}));
    let dir = env.loose(
        "mine",
        json!({"register":[{"type":"register_command","name":"one"}]}),
    );
    let (host, mut rx) = start(env.config()).await;
    assert_eq!(command_names(&host), Vec::<String>::new());

    let report = host.develop(&dir).await.unwrap();
    assert_eq!(report.ready, 2, "{report:?}");
    assert_eq!(next_reload(&mut rx).await.0, 2);
    let canonical = dir.canonicalize().unwrap();
    assert_eq!(host.dev_folders(), vec![canonical.clone()]);
    let mine = host.list().into_iter().find(|e| e.name == "mine").unwrap();
    assert_eq!((mine.scope, mine.state), (Scope::Explicit, ExtState::Ready));
    assert_eq!(mine.dir, canonical.display().to_string());
    assert_eq!(command_names(&host), vec!["one"]);
    let first_pid = read_pid(&dir, "pid");

    // A save: the watcher reloads it with the new registration.
    scripted(
        dir.parent().unwrap(),
        "mine",
        json!({"register":[{"type":"register_command","name":"two"}]}),
    );
    assert_eq!(next_reload(&mut rx).await, (2, vec![]));
    assert_eq!(command_names(&host), vec!["two"]);
    assert!(!alive(first_pid), "the old process survived the reload");

    // A broken save shows its error…
    scripted(
        dir.parent().unwrap(),
        "mine",
        json!({"exit_before_hello": 3}),
    );
    let (ready, errors) = next_reload(&mut rx).await;
    assert_eq!(ready, 1);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("exited (status 3) before sending hello")),
        "{errors:?}"
    );
    // …and the next good one recovers.
    scripted(
        dir.parent().unwrap(),
        "mine",
        json!({"register":[{"type":"register_command","name":"three"}]}),
    );
    assert_eq!(next_reload(&mut rx).await, (2, vec![]));
    assert_eq!(command_names(&host), vec!["three"]);

    // Developing it again only reloads; it is listed and watched once.
    host.develop(&dir).await.unwrap();
    assert_eq!(host.dev_folders().len(), 1);
    assert_eq!(host.list().iter().filter(|e| e.name == "mine").count(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_folder_without_a_manifest_or_that_does_not_exist_is_refused() {
    let env = Env::new();
    let (host, _rx) = start(env.config()).await;
    let empty = tempfile::tempdir().unwrap();
    let err = host.develop(empty.path()).await.unwrap_err();
    assert!(matches!(err, DevelopError::NoManifest { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("has no extension.json"), "{msg}");
    assert!(msg.contains("New extension"), "{msg}");

    let gone = empty.path().join("nope");
    let err = host.develop(&gone).await.unwrap_err();
    assert!(matches!(err, DevelopError::Missing { .. }), "{err}");
    assert!(err.to_string().contains("nope"), "{err}");
    assert!(host.dev_folders().is_empty());
    host.shutdown().await;
}

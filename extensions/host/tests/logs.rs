//! Following a log across growth, truncation and re-creation.

use std::ops::ControlFlow;
use std::time::Duration;

use tokio::sync::mpsc;
use zot_ext_host::ext_ops::OpsError;
use zot_ext_host::logs::{follow, log_file, LogEvent};

/// Generous hang guard; never an assertion on speed.
const WAIT: Duration = Duration::from_secs(20);

async fn next(rx: &mut mpsc::UnboundedReceiver<LogEvent>) -> LogEvent {
    tokio::time::timeout(WAIT, rx.recv())
        .await
        .expect("no log event within the hang guard")
        .expect("follower ended")
}

/// Collects data events until `want` has been seen in full.
async fn data_until(rx: &mut mpsc::UnboundedReceiver<LogEvent>, want: &str) -> Vec<LogEvent> {
    let mut seen = Vec::new();
    let mut text = String::new();
    while !text.contains(want) {
        let ev = next(rx).await;
        if let LogEvent::Data(d) = &ev {
            text.push_str(&String::from_utf8_lossy(d));
        }
        seen.push(ev);
    }
    seen
}

#[tokio::test]
async fn following_survives_truncation_and_recreation() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("ext-x.log");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let follower = tokio::spawn({
        let path = path.clone();
        async move {
            follow(&path, 0, move |ev| {
                if tx.send(ev).is_err() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .await
        }
    });

    // Not there yet: it is waited for.
    std::fs::write(&path, "one\n").unwrap();
    data_until(&mut rx, "one\n").await;

    // Growth.
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"two\n").unwrap();
    data_until(&mut rx, "two\n").await;

    // Truncation to something shorter than what was read.
    std::fs::write(&path, "3\n").unwrap();
    let seen = data_until(&mut rx, "3\n").await;
    assert!(seen.contains(&LogEvent::Truncated), "{seen:?}");

    // Deleted and re-created with more bytes than were read.
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "after re-creation, a longer line\n").unwrap();
    let seen = data_until(&mut rx, "after re-creation").await;
    assert!(
        seen.contains(&LogEvent::Recreated) || seen.contains(&LogEvent::Truncated),
        "{seen:?}"
    );

    drop(rx);
    std::fs::write(
        &path,
        "wake the follower so it sees the closed channel, longer\n",
    )
    .unwrap();
    let ended = tokio::time::timeout(WAIT, follower)
        .await
        .expect("follower did not stop");
    ended.unwrap().unwrap();
}

#[tokio::test]
async fn a_replaced_file_is_reported_as_recreated() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("ext-y.log");
    std::fs::write(&path, "old\n").unwrap();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let follower = tokio::spawn({
        let path = path.clone();
        async move {
            follow(&path, 0, move |ev| {
                let _ = tx.send(ev);
                ControlFlow::Continue(())
            })
            .await
        }
    });
    data_until(&mut rx, "old\n").await;
    // Rename a new file over it: same size class, different inode.
    let new = tmp.path().join("new.log");
    std::fs::write(&new, "fresh content\n").unwrap();
    std::fs::rename(&new, &path).unwrap();
    let seen = data_until(&mut rx, "fresh content\n").await;
    assert!(seen.contains(&LogEvent::Recreated), "{seen:?}");
    follower.abort();
}

#[test]
fn log_file_tells_unknown_from_not_yet_started() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let dir = home.join("extensions/quiet");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("extension.json"), r#"{"name":"quiet"}"#).unwrap();

    let err = log_file(home, home, "quiet").unwrap_err();
    assert!(matches!(err, OpsError::NoLog { .. }), "{err}");
    let err = log_file(home, home, "nope").unwrap_err();
    assert!(err.to_string().contains("installed: quiet"), "{err}");
    let err = log_file(home, home, "../../etc/passwd").unwrap_err();
    assert!(matches!(err, OpsError::BadName { .. }), "{err}");

    std::fs::create_dir_all(home.join("logs")).unwrap();
    std::fs::write(home.join("logs/ext-quiet.log"), "hi").unwrap();
    assert_eq!(
        log_file(home, home, "quiet").unwrap(),
        home.join("logs/ext-quiet.log")
    );
}

#[test]
fn polling_reads_new_bytes_in_chunks_and_starts_over_after_a_truncation() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("ext-x.log");
    std::fs::write(&path, "hello world").unwrap();
    let (text, next) = zot_ext_host::logs::read_chunk(&path, 0, 5).unwrap();
    assert_eq!((text.as_str(), next), ("hello", 5));
    let (text, next) = zot_ext_host::logs::read_chunk(&path, next, 100).unwrap();
    assert_eq!((text.as_str(), next), (" world", 11));
    std::fs::write(&path, "new").unwrap();
    let (text, next) = zot_ext_host::logs::read_chunk(&path, next, 100).unwrap();
    assert_eq!((text.as_str(), next), ("new", 3));
}

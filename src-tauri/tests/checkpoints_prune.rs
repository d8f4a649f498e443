//! Pruning checkpoints (docs/desktop.md "Checkpoints"): a checkpoint stays
//! while a recent session file of its project mentions it, or while it is
//! young; the rest go, a project left with none loses its shadow
//! repository, and `zot checkpoints prune` says what it did.

use zot_test_support::rpc;

use std::path::Path;
use std::time::{Duration, SystemTime};

use zot_lib::checkpoints::prune::{disk_usage, prune};
use zot_lib::checkpoints::shadow::Shadow;

const DAY: Duration = Duration::from_secs(24 * 3600);

fn age(p: &Path, by: Duration) {
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(SystemTime::now() - by)
        .unwrap();
}

fn session(home: &Path, cwd: &Path, name: &str, checkpoint: &str, old: Duration) {
    let d = zot_lib::agent::session::dir(home, cwd);
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let line = serde_json::json!({"type":"message","message":{"role":"user","content":[{"type":"text","text":"x"}],"checkpoint":checkpoint}});
    std::fs::write(&p, format!("{line}\n")).unwrap();
    age(&p, old);
}

#[test]
fn checkpoints_of_recent_sessions_and_young_ones_stay_the_rest_go() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    std::fs::write(proj.path().join("f.txt"), "1").unwrap();
    let shadow = Shadow::open(home.path(), proj.path()).unwrap();
    let [kept, unmentioned, stale, young] =
        ["a", "b", "c", "d"].map(|n| shadow.checkpoint(n).unwrap().id);
    let refs = shadow.git().git_dir.join("refs/zot/cp");
    for id in [&kept, &unmentioned, &stale] {
        age(&refs.join(id), 3 * DAY);
    }
    session(home.path(), proj.path(), "1-recent.jsonl", &kept, DAY);
    session(home.path(), proj.path(), "0-old.jsonl", &stale, 40 * DAY);

    let p = prune(home.path(), SystemTime::now()).unwrap();
    assert_eq!((p.projects, p.removed, p.kept), (1, 2, 2));
    assert!(shadow.has(&kept) && shadow.has(&young));
    assert!(!shadow.has(&unmentioned) && !shadow.has(&stale));
    assert!(p.bytes_after <= p.bytes_before);

    // A day later nothing mentions the young one: it goes too, and when the
    // recent session is deleted the project's repository goes with it.
    std::fs::remove_dir_all(zot_lib::agent::session::dir(home.path(), proj.path())).unwrap();
    let p = prune(home.path(), SystemTime::now() + 2 * DAY).unwrap();
    assert_eq!((p.removed, p.kept), (2, 0));
    assert!(!shadow.dir().exists());
    assert_eq!(disk_usage(home.path()), 0);
}

#[tokio::test]
async fn zot_checkpoints_prune_says_what_it_removed() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    std::fs::write(proj.path().join("f.txt"), "1").unwrap();
    let shadow = Shadow::open(home.path(), proj.path()).unwrap();
    let id = shadow.checkpoint("a").unwrap().id;
    age(&shadow.git().git_dir.join("refs/zot/cp").join(&id), 3 * DAY);
    let out = rpc::command(home.path(), proj.path(), &["checkpoints", "prune"])
        .output()
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("pruned 1 checkpoint in 1 project; kept 0;"),
        "{text}"
    );
}

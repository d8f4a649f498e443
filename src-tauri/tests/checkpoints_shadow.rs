//! The shadow repository (`checkpoints::shadow`) on real directories with
//! the real `git`: a snapshot holds what git would see (ignored files and
//! `.git` stay out), a restore brings back edits, deletions and new files
//! and is itself undoable, a project that is not a git repository works,
//! the project's own repository is never touched, and the size limit and
//! the unreadable-file report say what they skipped.

use std::path::Path;

use zot_lib::checkpoints::shadow::{unreadable_paths, Change, Shadow};
use zot_lib::checkpoints::size::{self, Limits};
use zot_lib::checkpoints::Checkpoints;
use zot_test_support::fixtures::git;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn read(root: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(root.join(rel)).ok()
}

#[test]
fn a_restore_brings_back_edits_deletions_and_new_files_and_can_be_undone() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    let p = proj.path();
    write(p, "a.txt", "one\n");
    write(p, "src/lib.rs", "fn main() {}\n");
    let shadow = Shadow::open(home.path(), p).unwrap();
    let cp = shadow.checkpoint("before").unwrap();
    assert!(cp.unreadable.is_empty());
    assert!(shadow.has(&cp.id));

    write(p, "a.txt", "two\n");
    std::fs::remove_dir_all(p.join("src")).unwrap();
    write(p, "new/deep/file.txt", "new\n");

    let (undo, mut files) = shadow.restore(&cp.id).unwrap();
    files.sort();
    assert_eq!(files, ["a.txt", "new/deep/file.txt", "src/lib.rs"]);
    assert_eq!(read(p, "a.txt").as_deref(), Some("one\n"));
    assert_eq!(read(p, "src/lib.rs").as_deref(), Some("fn main() {}\n"));
    assert!(
        !p.join("new").exists(),
        "the new file and its empty directories are gone"
    );

    // The rewind recorded the tree before it: rewinding to that undoes it.
    shadow.restore(&undo).unwrap();
    assert_eq!(read(p, "a.txt").as_deref(), Some("two\n"));
    assert_eq!(read(p, "new/deep/file.txt").as_deref(), Some("new\n"));
    assert!(!p.join("src/lib.rs").exists());
}

#[test]
fn ignored_files_and_git_internals_stay_out_and_are_never_touched() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    let p = proj.path();
    git(p, &["init", "-q"]);
    write(p, ".gitignore", "target/\n*.log\n");
    write(p, "kept.txt", "k\n");
    write(p, "target/big.bin", "build output\n");
    write(p, "run.log", "log 1\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "init"]);
    write(p, "staged.txt", "s\n");
    git(p, &["add", "staged.txt"]);
    write(p, "stash-me.txt", "x\n");
    let status = git(p, &["status", "--porcelain"]);
    let refs = git(p, &["for-each-ref"]);
    // What the index holds (entries, modes, blobs), not its bytes: `git
    // status` itself may rewrite the file to refresh its stat cache (racy
    // git), which is no change the user could see.
    let index = git(p, &["ls-files", "--stage"]);

    let shadow = Shadow::open(home.path(), p).unwrap();
    let cp = shadow.checkpoint("before").unwrap();
    let all = shadow
        .changes("4b825dc642cb6eb9a060e54bf8d69288fbee4904", &cp.id)
        .unwrap();
    let paths: Vec<&str> = all.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [".gitignore", "kept.txt", "staged.txt", "stash-me.txt"]
    );
    assert!(all.iter().all(|(_, c)| *c == Change::Added));

    write(p, "run.log", "log 2\n");
    write(p, "target/big.bin", "rebuilt\n");
    write(p, "kept.txt", "changed\n");
    shadow.restore(&cp.id).unwrap();
    assert_eq!(read(p, "kept.txt").as_deref(), Some("k\n"));
    assert_eq!(
        read(p, "run.log").as_deref(),
        Some("log 2\n"),
        "ignored: untouched"
    );
    assert_eq!(read(p, "target/big.bin").as_deref(), Some("rebuilt\n"));

    assert_eq!(git(p, &["status", "--porcelain"]), status);
    assert_eq!(git(p, &["for-each-ref"]), refs);
    assert_eq!(git(p, &["ls-files", "--stage"]), index);
    assert_eq!(git(p, &["stash", "list"]), "");
    assert!(!p.join(".git/refs/zot").exists());
}

#[test]
fn a_project_that_is_not_a_git_repository_works_and_gets_no_git_directory() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    let p = proj.path();
    write(p, "notes.md", "hello\n");
    let cps = Checkpoints::new(home.path(), p, Limits::default());
    let taken = cps.before_prompt();
    assert!(taken.problem.is_none(), "{taken:?}");
    let id = taken.id.unwrap();
    write(p, "notes.md", "bye\n");
    let (_, files) = cps.restore(&id).unwrap();
    assert_eq!(files, ["notes.md"]);
    assert_eq!(read(p, "notes.md").as_deref(), Some("hello\n"));
    assert!(!p.join(".git").exists());
    assert!(home.path().join("checkpoints").is_dir());
}

#[test]
fn a_project_over_the_size_limit_is_skipped_once_with_a_reason() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    for i in 0..5 {
        write(proj.path(), &format!("f{i}.txt"), "x");
    }
    let limits = Limits {
        max_files: 3,
        max_bytes: 1 << 20,
    };
    let cps = Checkpoints::new(home.path(), proj.path(), limits);
    let first = cps.before_prompt();
    assert!(first.id.is_none());
    let why = first.problem.unwrap();
    assert!(
        why.contains("more than 3 files") && why.contains("max_files"),
        "{why}"
    );
    // Said once: later prompts are skipped silently.
    assert_eq!(cps.before_prompt(), Default::default());

    let shadow = Shadow::open(home.path(), proj.path()).unwrap();
    let m = size::measure(shadow.git(), Limits::default()).unwrap();
    assert_eq!((m.files, m.bytes), (5, 5));
    let bytes = Limits {
        max_files: 100,
        max_bytes: 4,
    };
    assert!(size::over(m, bytes).unwrap().contains("MiB"));
}

#[test]
fn unreadable_files_are_named_from_gits_own_messages() {
    let stderr = "error: open(\"secret.key\"): Permission denied\nerror: unable to index file 'secret.key'\nerror: open(\"dir/other\"): Permission denied\nfatal: adding files failed\n";
    assert_eq!(unreadable_paths(stderr), ["secret.key", "dir/other"]);
}

#[test]
fn an_unreadable_file_is_left_out_with_one_note_and_the_rest_is_kept() {
    // root reads everything: there is no unreadable file to make.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("skipped: running as root, every file is readable");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    write(proj.path(), "ok.txt", "fine");
    write(proj.path(), "locked.txt", "secret");
    std::fs::set_permissions(
        proj.path().join("locked.txt"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let cps = Checkpoints::new(home.path(), proj.path(), Limits::default());
    let taken = cps.before_prompt();
    assert!(taken.id.is_some());
    let note = taken.problem.unwrap();
    assert!(
        note.contains("locked.txt") && note.contains("could not be read"),
        "{note}"
    );
}

#[test]
fn file_contents_come_back_per_snapshot_and_missing_ones_are_none() {
    let home = tempfile::tempdir().unwrap();
    let proj = tempfile::tempdir().unwrap();
    write(proj.path(), "a.txt", "first\n");
    let shadow = Shadow::open(home.path(), proj.path()).unwrap();
    let one = shadow.checkpoint("1").unwrap().id;
    write(proj.path(), "a.txt", "second\n");
    write(proj.path(), "b.txt", "bee\n");
    let two = shadow.tree().unwrap().id;
    let got = shadow
        .contents(&[
            (one.clone(), "a.txt".into()),
            (two.clone(), "a.txt".into()),
            (one, "b.txt".into()),
            (two, "b.txt".into()),
        ])
        .unwrap();
    assert_eq!(
        got,
        [
            Some(b"first\n".to_vec()),
            Some(b"second\n".to_vec()),
            None,
            Some(b"bee\n".to_vec())
        ]
    );
}

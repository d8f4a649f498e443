//! `zot ext update` and `zot ext rollback` through the real binary, for
//! each kind of source (folder, git, catalog): the check that changes
//! nothing, the update with its commits or changelog, the consent an
//! update that reaches further waits for, the rollback that restores the
//! kept copy and what was accepted for it, and the bad cases (a gone or
//! rewritten remote, an update killed mid-copy) that leave the installed
//! copy as it was.

use zot_test_support::cli;
use zot_test_support::fixtures;
use zot_test_support::fixtures::git;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;
use zot_test_support::cli::Env;
use zot_test_support::fixtures::{entries, write_ext};

/// `write_ext` with its `run.sh` executable, so the manifest loads.
fn write_exec_ext(dir: &Path, manifest: &str) {
    use std::os::unix::fs::PermissionsExt;
    write_ext(dir, manifest);
    std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn manifest(env: &Env, name: &str) -> Value {
    let text = std::fs::read_to_string(env.extensions().join(name).join("extension.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn listed(env: &Env, name: &str) -> Value {
    let out = env.zot(&["ext", "list", "--json"]).ok();
    let all: Vec<Value> = serde_json::from_str(&out).unwrap();
    all.into_iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("{name} not listed: {out}"))
}

#[test]
fn a_folder_update_shows_old_to_new_with_its_changelog_and_rollback_puts_it_back() {
    let env = Env::new();
    let src = env.path("src/hello");
    write_exec_ext(
        &src,
        r#"{"name":"hello","version":"1.0.0","exec":"./run.sh","permissions":["commands"]}"#,
    );
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    let s = listed(&env, "hello");
    assert_eq!(s["source"]["kind"], "folder");
    assert_eq!(
        s["source"]["location"],
        src.canonicalize().unwrap().to_str().unwrap()
    );
    let table = env.zot(&["ext", "list"]).ok();
    assert!(
        table.contains(&format!("folder {}", src.canonicalize().unwrap().display())),
        "{table}"
    );

    let none = env.zot(&["ext", "update", "hello", "--check"]);
    assert_eq!(none.ok(), "");
    assert!(none.stderr().contains("up to date"), "{}", none.stderr());

    write_exec_ext(
        &src,
        r#"{"name":"hello","version":"1.1.0","exec":"./run.sh","permissions":["commands"]}"#,
    );
    std::fs::write(
        src.join("CHANGELOG.md"),
        "# Changes\n## 1.1.0\n- faster greeting\n## 1.0.0\n- first\n",
    )
    .unwrap();
    let check = env.zot(&["ext", "update", "hello", "--check"]).ok();
    assert!(check.contains("hello 1.0.0 → 1.1.0"), "{check}");
    assert!(check.contains("- faster greeting"), "{check}");
    assert!(!check.contains("- first"), "only what is new: {check}");
    assert_eq!(
        manifest(&env, "hello")["version"],
        "1.0.0",
        "--check changes nothing"
    );

    let out = env.zot(&["ext", "update", "hello"]).ok();
    assert!(out.contains("hello 1.0.0 → 1.1.0"), "{out}");
    assert_eq!(manifest(&env, "hello")["version"], "1.1.0");
    assert_eq!(listed(&env, "hello")["source"]["version"], "1.1.0");
    assert_eq!(
        listed(&env, "hello")["rollback_to"],
        "1.0.0",
        "the kept copy's version"
    );
    assert!(env
        .zot(&["ext", "update", "hello", "--check"])
        .ok()
        .is_empty());

    let back = env.zot(&["ext", "rollback", "hello"]).ok();
    assert!(back.contains("rolled back hello 1.1.0 → 1.0.0"), "{back}");
    assert_eq!(manifest(&env, "hello")["version"], "1.0.0");
    // Only the installed copy is visible to discovery.
    assert_eq!(env.installed_entries(), ["hello"]);
}

#[test]
fn an_update_that_asks_for_more_is_installed_but_waits_for_consent_and_rollback_restores_what_was_accepted(
) {
    let env = Env::new();
    let src = env.path("src/wide");
    write_exec_ext(
        &src,
        r#"{"name":"wide","version":"1.0.0","exec":"./run.sh","permissions":["commands"]}"#,
    );
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    write_exec_ext(
        &src,
        r#"{"name":"wide","version":"2.0.0","exec":"./run.sh","permissions":["commands","tools"]}"#,
    );

    let check = env.zot(&["ext", "update", "wide", "--check"]).ok();
    assert!(check.contains("wide 1.0.0 → 2.0.0"), "{check}");
    assert!(
        check.contains("+ can add tools"),
        "the widening is shown: {check}"
    );

    let out = env.zot(&["ext", "update", "wide"]).ok();
    assert!(out.contains("zot ext accept wide"), "{out}");
    assert_eq!(manifest(&env, "wide")["version"], "2.0.0", "installed");
    let s = listed(&env, "wide");
    assert_eq!(s["state"], "failed", "it waits for consent: {s}");
    assert_eq!(s["unaccepted"], serde_json::json!(["tools"]), "{s}");

    env.zot(&["ext", "accept", "wide"]).ok();
    assert!(listed(&env, "wide").get("unaccepted").is_none());

    // Rolling back puts back the copy *and* what was accepted for it; each
    // copy carries its own.
    env.zot(&["ext", "rollback", "wide"]).ok();
    assert_eq!(manifest(&env, "wide")["version"], "1.0.0");
    let perms: Value =
        serde_json::from_str(&std::fs::read_to_string(env.home.join("permissions.json")).unwrap())
            .unwrap();
    let entry = perms["accepted"]
        .as_object()
        .unwrap()
        .values()
        .find(|v| v["name"] == "wide")
        .unwrap();
    assert_eq!(
        entry["permissions"],
        serde_json::json!(["commands"]),
        "{perms}"
    );
    env.zot(&["ext", "rollback", "wide"]).ok();
    assert_eq!(manifest(&env, "wide")["version"], "2.0.0");
    assert!(
        listed(&env, "wide").get("unaccepted").is_none(),
        "rolled forward, its acceptance comes back with it"
    );
}

#[test]
fn yes_accepts_the_widening_of_an_update() {
    let env = Env::new();
    let src = env.path("src/y");
    write_exec_ext(
        &src,
        r#"{"name":"y","version":"1.0.0","exec":"./run.sh","permissions":["commands"]}"#,
    );
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    write_exec_ext(
        &src,
        r#"{"name":"y","version":"1.0.1","exec":"./run.sh","permissions":["commands","notes"]}"#,
    );
    let out = env.zot(&["ext", "update", "--all", "--yes"]);
    out.ok();
    assert!(out.stderr().contains("accepting"), "{}", out.stderr());
    assert!(listed(&env, "y").get("unaccepted").is_none());
}

#[test]
fn a_git_update_moves_to_the_remotes_new_commit_and_lists_the_commits() {
    let env = Env::new();
    let repo = env.path("repo");
    write_exec_ext(
        &repo,
        r#"{"name":"from-git","version":"1.0.0","exec":"./run.sh"}"#,
    );
    let url = fixtures::git_repo(&repo);
    env.zot(&["ext", "install", &url]).ok();
    let first = git(&repo, &["rev-parse", "HEAD"]);
    let s = listed(&env, "from-git");
    assert_eq!(s["source"]["kind"], "git");
    assert_eq!(s["source"]["location"], url.as_str());
    assert_eq!(s["source"]["revision"], first.as_str());

    write_exec_ext(
        &repo,
        r#"{"name":"from-git","version":"1.2.0","exec":"./run.sh"}"#,
    );
    git(&repo, &["commit", "-qam", "teach it a new trick"]);
    std::fs::write(repo.join("NOTES"), "x").unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "add notes"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);

    let check = env.zot(&["ext", "update", "--all", "--check"]).ok();
    assert!(check.contains("from-git 1.0.0 → 1.2.0"), "{check}");
    assert!(
        check.contains("teach it a new trick") && check.contains("add notes"),
        "{check}"
    );
    assert_eq!(
        listed(&env, "from-git")["source"]["revision"],
        first.as_str()
    );

    env.zot(&["ext", "update", "from-git"]).ok();
    assert_eq!(manifest(&env, "from-git")["version"], "1.2.0");
    assert_eq!(
        listed(&env, "from-git")["source"]["revision"],
        head.as_str()
    );

    // Same version, new commit: short commits instead of versions.
    std::fs::write(repo.join("NOTES"), "y").unwrap();
    git(&repo, &["commit", "-qam", "tweak"]);
    let check = env.zot(&["ext", "update", "from-git", "--check"]).ok();
    assert!(
        check.contains(&format!("from-git {} → ", &head[..12])),
        "{check}"
    );

    env.zot(&["ext", "rollback", "from-git"]).ok();
    assert_eq!(manifest(&env, "from-git")["version"], "1.0.0");
    assert_eq!(
        listed(&env, "from-git")["source"]["revision"],
        first.as_str()
    );
}

#[test]
fn a_force_pushed_remote_is_reported_and_nothing_changes() {
    let env = Env::new();
    let repo = env.path("repo");
    write_exec_ext(
        &repo,
        r#"{"name":"rewritten","version":"1.0.0","exec":"./run.sh"}"#,
    );
    let url = fixtures::git_repo(&repo);
    env.zot(&["ext", "install", &url]).ok();
    write_exec_ext(
        &repo,
        r#"{"name":"rewritten","version":"9.0.0","exec":"./run.sh"}"#,
    );
    git(
        &repo,
        &["commit", "-qa", "--amend", "-m", "history rewritten"],
    );

    for args in [
        &["ext", "update", "rewritten", "--check"][..],
        &["ext", "update", "rewritten"],
    ] {
        let err = env.zot(args).failed();
        assert!(err.contains("not updating `rewritten`"), "{err}");
        assert!(err.contains("rewritten (a force-push?)"), "{err}");
        assert!(err.contains("installed copy is unchanged"), "{err}");
    }
    assert_eq!(manifest(&env, "rewritten")["version"], "1.0.0");
    assert!(!env.home.join("previous/rewritten").exists());
    assert_eq!(env.installed_entries(), ["rewritten"], "no leftovers");
}

#[test]
fn a_gone_remote_is_reported_and_nothing_changes() {
    let env = Env::new();
    let repo = env.path("repo");
    write_exec_ext(
        &repo,
        r#"{"name":"orphan","version":"1.0.0","exec":"./run.sh"}"#,
    );
    let url = fixtures::git_repo(&repo);
    env.zot(&["ext", "install", &url]).ok();
    std::fs::remove_dir_all(&repo).unwrap();

    let err = env.zot(&["ext", "update", "orphan"]).failed();
    assert!(
        err.contains("cannot be fetched (gone, moved or unreachable)"),
        "{err}"
    );
    assert!(err.contains(&url), "names the remote: {err}");
    assert_eq!(manifest(&env, "orphan")["version"], "1.0.0");
    assert_eq!(env.installed_entries(), ["orphan"]);
}

#[test]
fn a_catalog_update_takes_the_newer_version_zot_ships_and_never_an_older_one() {
    let env = Env::new();
    let cat = env.path("catalog");
    let entry = cat.join("extensions/cat-ext");
    let index = |version: &str| {
        write_exec_ext(
            &entry,
            &format!(r#"{{"name":"cat-ext","version":"{version}","exec":"./run.sh"}}"#),
        );
        std::fs::write(
            cat.join("index.json"),
            format!(r#"{{"catalog":1,"extensions":[{{"name":"cat-ext","version":"{version}","description":"d","source":"extensions/cat-ext"}}]}}"#),
        )
        .unwrap();
    };
    let zot = |args: &[&str]| {
        cli::Run(
            env.command(args)
                .env("ZOT_CATALOG", cat.join("index.json"))
                .output()
                .unwrap(),
        )
    };
    index("1.0.0");
    zot(&["ext", "install", "cat-ext"]).ok();
    let s: Vec<Value> = serde_json::from_str(&zot(&["ext", "list", "--json"]).ok()).unwrap();
    assert_eq!(s[0]["source"]["kind"], "catalog");
    assert_eq!(s[0]["source"]["location"], "cat-ext");

    index("0.9.0");
    assert!(
        zot(&["ext", "update", "cat-ext", "--check"])
            .ok()
            .is_empty(),
        "never a downgrade"
    );
    index("1.1.0");
    let out = zot(&["ext", "update", "cat-ext"]).ok();
    assert!(out.contains("cat-ext 1.0.0 → 1.1.0"), "{out}");
    assert_eq!(manifest(&env, "cat-ext")["version"], "1.1.0");
}

#[test]
fn names_that_cannot_be_updated_or_rolled_back_say_why() {
    let env = Env::new();
    let err = env.zot(&["ext", "update", "ghost"]).failed();
    assert!(err.contains("ghost"), "{err}");
    let err = env.zot(&["ext", "update"]).failed();
    assert!(err.contains("--all"), "{err}");
    let src = env.path("src/once");
    write_exec_ext(
        &src,
        r#"{"name":"once","version":"1.0.0","exec":"./run.sh"}"#,
    );
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    let err = env.zot(&["ext", "rollback", "once"]).failed();
    assert!(err.contains("no earlier copy of `once` is kept"), "{err}");
    std::fs::remove_file(env.home.join("sources.json")).unwrap();
    let err = env.zot(&["ext", "update", "once"]).failed();
    assert!(err.contains("has no recorded source"), "{err}");
    assert!(err.contains("--force"), "says what to do: {err}");
}

#[test]
fn an_update_killed_mid_copy_leaves_the_old_copy_installed_and_running() {
    let env = Env::new();
    let src = zot_test_support::fixtures::agent_ext(
        &env.path("src"),
        "big",
        serde_json::json!({"name":"big"}),
    );
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    // A new version with enough files that the copy takes a while.
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("extension.json")).unwrap())
            .unwrap();
    m["version"] = "0.2.0".into();
    std::fs::write(src.join("extension.json"), m.to_string()).unwrap();
    let bulk = src.join("bulk");
    for d in 0..40 {
        let dir = bulk.join(format!("d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..250 {
            std::fs::write(dir.join(format!("f{f}")), [b'x'; 512]).unwrap();
        }
    }

    let mut child = env
        .command(&["ext", "update", "big"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("copying") {
        line.clear();
        assert_ne!(stderr.read_line(&mut line).unwrap(), 0, "zot ended early");
    }
    let kill = std::process::Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait().unwrap();
    let mut rest = String::new();
    let _ = stderr.read_to_string(&mut rest);

    let version = manifest(&env, "big")["version"].clone();
    if rest.contains("checking extension.json") {
        // The copy finished before the kill landed: the swap is atomic, so
        // the install is whole either way.
        assert!(version == "0.1.0" || version == "0.2.0", "{version}");
    } else {
        assert_eq!(version, "0.1.0", "killed mid-copy: the old copy stays");
        assert!(
            !env.extensions().join("big/bulk").exists(),
            "nothing of the new copy mixed in"
        );
    }
    // It still runs, and the next operation sweeps the dead update's leftovers.
    let s = listed(&env, "big");
    assert_eq!(s["state"], "ready", "{s}");
    env.zot(&["ext", "update", "big"]).ok();
    assert_eq!(manifest(&env, "big")["version"], "0.2.0");
    assert_eq!(entries(&env.extensions()), ["big"], "leftovers swept");
}

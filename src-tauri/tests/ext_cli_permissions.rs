//! Permissions through the real binary: `zot ext install` lists them in
//! plain words (unrestricted says so), an update (`--force`) that asks for
//! more is refused without a terminal unless `--yes`, leaving the old copy,
//! `zot ext accept` accepts what an extension asks for now, and the doctor
//! shows the grant.

use zot_test_support::cli::Env;
use zot_test_support::fixtures::write_ext;

fn executable(file: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn install_lists_permissions_in_plain_words() {
    let env = Env::new();
    let src = env.path("src/watcher");
    write_ext(
        &src,
        r#"{"name":"watcher","version":"1","permissions":["events","intercept","submit"]}"#,
    );
    let out = env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    for words in [
        "can read every tool call and its arguments",
        "can block or rewrite tool calls",
        "can submit prompts to the agent at any time",
    ] {
        assert!(out.contains(words), "{words}: {out}");
    }
    assert!(!out.contains("can add slash commands"), "{out}");
}

#[test]
fn an_unrestricted_install_says_so_plainly() {
    let env = Env::new();
    let src = env.path("src/free");
    write_ext(&src, r#"{"name":"free"}"#);
    let out = env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    assert!(
        out.contains("unrestricted: its manifest declares no permissions"),
        "{out}"
    );
}

#[test]
fn an_update_asking_for_more_needs_yes_without_a_terminal() {
    let env = Env::new();
    let v1 = env.path("v1");
    let v2 = env.path("v2");
    write_ext(
        &v1,
        r#"{"name":"grow","version":"1","permissions":["commands"]}"#,
    );
    write_ext(
        &v2,
        r#"{"name":"grow","version":"2","permissions":["commands","prompt","submit"]}"#,
    );
    env.zot(&["ext", "install", v1.to_str().unwrap()]).ok();

    let err = env
        .zot(&["ext", "install", "--force", v2.to_str().unwrap()])
        .failed();
    assert!(
        err.contains("asks for more than you accepted")
            && err.contains("can submit prompts to the agent")
            && err.contains("--yes"),
        "{err}"
    );
    let kept = std::fs::read_to_string(env.extensions().join("grow/extension.json")).unwrap();
    assert!(
        kept.contains(r#""version":"1""#),
        "the old copy was replaced: {kept}"
    );

    let out = env
        .zot(&["ext", "install", "--force", "--yes", v2.to_str().unwrap()])
        .ok();
    assert!(out.contains("replaced grow 2"), "{out}");
    assert!(out.contains("can submit prompts to the agent"), "{out}");
    let book = std::fs::read_to_string(env.home.join("permissions.json")).unwrap();
    assert!(book.contains("submit"), "{book}");

    // Asking for less (or the same) needs no yes.
    write_ext(
        &v1,
        r#"{"name":"grow","version":"3","permissions":["commands"]}"#,
    );
    env.zot(&["ext", "install", "--force", v1.to_str().unwrap()])
        .ok();
}

#[test]
fn accept_records_what_an_extension_asks_for_now() {
    let env = Env::new();
    let src = env.path("src/later");
    write_ext(
        &src,
        r#"{"name":"later","exec":"./run.sh","permissions":["notes"]}"#,
    );
    executable(&src.join("run.sh"));
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    // Edited in place (as an update by hand would): it asks for more.
    let dir = env.extensions().join("later");
    write_ext(
        &dir,
        r#"{"name":"later","exec":"./run.sh","permissions":["notes","insert"]}"#,
    );
    executable(&dir.join("run.sh"));
    let doctor = env.zot(&["ext", "doctor"]).stdout();
    assert!(
        doctor.contains("asks for, not accepted: insert")
            && doctor.contains("zot ext accept later"),
        "{doctor}"
    );
    let out = env.zot(&["ext", "accept", "later"]).ok();
    assert!(out.contains("can type text into your message box"), "{out}");
    let doctor = env.zot(&["ext", "doctor"]).stdout();
    assert!(doctor.contains("permissions: notes, insert"), "{doctor}");
    assert!(!doctor.contains("not accepted"), "{doctor}");
}

/// `zot ext install --force` on a terminal (a pty made by util-linux
/// `script`), answering `answer` to the question about new permissions.
fn install_on_a_terminal(env: &Env, src: &std::path::Path, answer: &str) -> Option<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` (to make a terminal) is not installed");
        return None;
    }
    let line = format!(
        "{} ext install --force {}",
        env!("CARGO_BIN_EXE_zot"),
        src.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(&env.project)
        .env("ZOT_HOME", &env.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open until it exits: typed ahead into the terminal, read when asked.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{answer}\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn on_a_terminal_the_update_asks_and_no_keeps_the_old_copy() {
    let env = Env::new();
    let v1 = env.path("v1");
    let v2 = env.path("v2");
    write_ext(
        &v1,
        r#"{"name":"ask","version":"1","permissions":["commands"]}"#,
    );
    write_ext(
        &v2,
        r#"{"name":"ask","version":"2","permissions":["commands","submit"]}"#,
    );
    env.zot(&["ext", "install", v1.to_str().unwrap()]).ok();
    let manifest = || std::fs::read_to_string(env.extensions().join("ask/extension.json")).unwrap();

    let Some(said) = install_on_a_terminal(&env, &v2, "n") else {
        return;
    };
    assert!(
        said.contains("asks for more than you accepted")
            && said.contains("+ can submit prompts to the agent at any time")
            && said.contains("[y/N]"),
        "{said}"
    );
    assert!(manifest().contains(r#""version":"1""#), "{said}");

    let said = install_on_a_terminal(&env, &v2, "y").unwrap();
    assert!(said.contains("replaced ask 2"), "{said}");
    assert!(manifest().contains(r#""version":"2""#), "{said}");
}

#[test]
fn a_dropped_sandbox_is_named_by_the_doctor_accept_and_install_force() {
    let env = Env::new();
    let src = env.path("src/boxed");
    write_ext(
        &src,
        r#"{"name":"boxed","exec":"./run.sh","permissions":["notes"],"sandbox":{"read":["/usr/share"]}}"#,
    );
    executable(&src.join("run.sh"));
    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();
    // An update without the sandbox: refused without a yes, naming it.
    let v2 = env.path("src/boxed2");
    write_ext(
        &v2,
        r#"{"name":"boxed","exec":"./run.sh","permissions":["notes"]}"#,
    );
    executable(&v2.join("run.sh"));
    let err = env
        .zot(&["ext", "install", "--force", v2.to_str().unwrap()])
        .failed();
    assert!(err.contains("without its OS sandbox"), "{err}");
    let kept = std::fs::read_to_string(env.extensions().join("boxed/extension.json")).unwrap();
    assert!(kept.contains("sandbox"), "{kept}");
    // The same edit made in place (as the extension itself could).
    let dir = env.extensions().join("boxed");
    std::fs::copy(v2.join("extension.json"), dir.join("extension.json")).unwrap();
    let doctor = env.zot(&["ext", "doctor"]).stdout();
    assert!(
        doctor.contains("changed since you accepted it: runs without its OS sandbox")
            && doctor.contains("zot ext accept boxed"),
        "{doctor}"
    );
    let out = env.zot(&["ext", "accept", "boxed"]).ok();
    assert!(
        out.contains("what changed")
            && out.contains("+ runs without its OS sandbox")
            && out.contains("network (sandbox)"),
        "{out}"
    );
    let doctor = env.zot(&["ext", "doctor"]).stdout();
    assert!(
        !doctor.contains("changed since you accepted it"),
        "{doctor}"
    );
}

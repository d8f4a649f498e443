//! `zot ext logs [-f]` through the real binary.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use zot_test_support::cli::Env;
use zot_test_support::fixtures::write_ext;

/// Hang guard for the follower; never a speed check.
const WAIT: Duration = Duration::from_secs(20);

fn setup() -> (Env, std::path::PathBuf) {
    let env = Env::new();
    write_ext(
        &env.extensions().join("noisy"),
        r#"{"name":"noisy","exec":"./run.sh"}"#,
    );
    let log = env.home.join("logs/ext-noisy.log");
    (env, log)
}

#[test]
fn logs_prints_the_whole_file() {
    let (env, log) = setup();
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, "line one\nline two\n").unwrap();
    assert_eq!(
        env.zot(&["ext", "logs", "noisy"]).ok(),
        "line one\nline two\n"
    );
}

#[test]
fn logs_of_an_extension_that_never_ran_says_so() {
    let (env, _) = setup();
    let err = env.zot(&["ext", "logs", "noisy"]).failed();
    assert!(err.contains("no log for `noisy` yet"), "{err}");
    assert!(err.contains("ext-noisy.log"), "{err}");
}

#[test]
fn logs_refuses_names_that_escape() {
    let (env, _) = setup();
    let err = env.zot(&["ext", "logs", "../../etc/passwd"]).failed();
    assert!(err.contains("invalid extension name"), "{err}");
}

#[test]
fn follow_waits_for_the_log_and_survives_truncation_and_recreation() {
    let (env, log) = setup();
    let mut child = env
        .command(&["ext", "logs", "noisy", "-f"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let expect = |want: &str| loop {
        let line = rx.recv_timeout(WAIT).expect("the follower printed nothing");
        if line == want {
            break;
        }
    };

    // The log does not exist yet.
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, "first\n").unwrap();
    expect("first");
    // Truncated to something shorter.
    std::fs::write(&log, "2\n").unwrap();
    expect("2");
    // Deleted and re-created.
    std::fs::remove_file(&log).unwrap();
    std::fs::write(&log, "after re-creation\n").unwrap();
    expect("after re-creation");

    child.kill().unwrap();
    child.wait().unwrap();
}

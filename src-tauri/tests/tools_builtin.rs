//! The built-in tools on a real temp directory: read (offset, limit,
//! images), write, edit (exactly one match), bash (cwd, timeout, output cap,
//! the process group killed on abort), and bad args as tool errors.

use std::time::Duration;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::ContentBlock;
use zot_lib::tools::{self, bash::Bash, builtin, run_checked, ToolCtx, ToolOutput};
use zot_test_support::procs::alive;

fn ctx(dir: &std::path::Path) -> ToolCtx {
    ToolCtx {
        cwd: dir.to_path_buf(),
        cancel: CancellationToken::new(),
        progress: None,
    }
}

async fn run(name: &str, args: Value, c: &ToolCtx) -> ToolOutput {
    run_checked(builtin(name).unwrap().as_ref(), args, c).await
}

fn text(o: &ToolOutput) -> String {
    o.content
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => text.clone(),
            _ => String::new(),
        })
        .collect()
}

#[tokio::test]
async fn read_honours_offset_and_limit_and_says_what_is_left() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("f.txt"), "one\ntwo\nthree\nfour\n").unwrap();
    let o = run(
        "read",
        json!({"path":"f.txt","offset":2,"limit":2}),
        &ctx(d.path()),
    )
    .await;
    assert!(!o.is_error);
    let t = text(&o);
    assert!(t.contains("2\ttwo") && t.contains("3\tthree"), "{t}");
    assert!(!t.contains("one") && !t.contains("\tfour"), "{t}");
    assert!(t.contains("1 more lines; continue with offset 4"), "{t}");
}

#[tokio::test]
async fn read_returns_an_image_block_for_an_image() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("p.png"), [0x89, b'P', b'N', b'G']).unwrap();
    let o = run("read", json!({"path":"p.png"}), &ctx(d.path())).await;
    assert_eq!(
        o.content,
        vec![ContentBlock::Image {
            mime_type: "image/png".into(),
            data: "iVBORw==".into()
        }]
    );
}

#[tokio::test]
async fn read_of_a_missing_file_is_a_tool_error_naming_it() {
    let d = tempfile::tempdir().unwrap();
    let o = run("read", json!({"path":"nope.txt"}), &ctx(d.path())).await;
    assert!(o.is_error && text(&o).contains("nope.txt"));
}

#[tokio::test]
async fn write_creates_parent_directories() {
    let d = tempfile::tempdir().unwrap();
    let o = run(
        "write",
        json!({"path":"a/b/c.txt","content":"hi"}),
        &ctx(d.path()),
    )
    .await;
    assert!(!o.is_error, "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("a/b/c.txt")).unwrap(),
        "hi"
    );
}

#[tokio::test]
async fn edit_replaces_a_unique_match_and_refuses_zero_or_many() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("e.txt");
    std::fs::write(&f, "x = 1\ny = 1\nx = 1\n").unwrap();
    let c = ctx(d.path());
    let o = run(
        "edit",
        json!({"path":"e.txt","old_string":"x = 1","new_string":"x = 2"}),
        &c,
    )
    .await;
    assert!(
        o.is_error && text(&o).contains("matched 2 times"),
        "{}",
        text(&o)
    );
    let o = run(
        "edit",
        json!({"path":"e.txt","old_string":"z = 1","new_string":"z"}),
        &c,
    )
    .await;
    assert!(
        o.is_error && text(&o).contains("matched 0 times"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        "x = 1\ny = 1\nx = 1\n"
    );
    let o = run(
        "edit",
        json!({"path":"e.txt","old_string":"y = 1","new_string":"y = 9"}),
        &c,
    )
    .await;
    assert!(!o.is_error, "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        "x = 1\ny = 9\nx = 1\n"
    );
}

#[tokio::test]
async fn bash_runs_in_the_project_directory_and_reports_failure() {
    let d = tempfile::tempdir().unwrap();
    let o = run(
        "bash",
        json!({"command":"pwd; echo oops >&2; exit 3"}),
        &ctx(d.path()),
    )
    .await;
    let t = text(&o);
    assert!(o.is_error);
    assert!(
        t.contains(&d.path().canonicalize().unwrap().display().to_string()),
        "{t}"
    );
    assert!(t.contains("oops") && t.contains("exit status: 3"), "{t}");
}

#[tokio::test]
async fn bash_caps_output() {
    let d = tempfile::tempdir().unwrap();
    let b = Bash {
        max_output: 100,
        default_timeout: Duration::from_secs(30),
    };
    let o = run_checked(&b, json!({"command":"yes | head -c 5000"}), &ctx(d.path())).await;
    let t = text(&o);
    assert!(t.contains("output capped: 4900 more bytes dropped"), "{t}");
}

async fn wait_for_file(p: &std::path::Path) -> String {
    for _ in 0..500 {
        if let Ok(s) = std::fs::read_to_string(p) {
            if s.ends_with('\n') {
                return s.trim().to_owned();
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{} never appeared", p.display());
}

#[tokio::test]
async fn bash_timeout_kills_the_whole_process_group() {
    let d = tempfile::tempdir().unwrap();
    let o = run(
        "bash",
        json!({"command":"sleep 30 & echo $! > child.pid; wait","timeout":0.5}),
        &ctx(d.path()),
    )
    .await;
    assert!(o.is_error && text(&o).contains("timed out"), "{}", text(&o));
    let pid: i32 = wait_for_file(&d.path().join("child.pid"))
        .await
        .parse()
        .unwrap();
    for _ in 0..200 {
        if !alive(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the background sleep {pid} survived the timeout");
}

#[tokio::test]
async fn bash_abort_kills_the_grandchildren_too() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    let cancel = c.cancel.clone();
    let dir = d.path().to_path_buf();
    let task = tokio::spawn(async move {
        run(
            "bash",
            json!({"command":"bash -c 'sleep 30 & echo $! > gc.pid; wait'"}),
            &c,
        )
        .await
    });
    let pid: i32 = wait_for_file(&dir.join("gc.pid")).await.parse().unwrap();
    assert!(alive(pid));
    cancel.cancel();
    let o = task.await.unwrap();
    assert!(o.is_error && text(&o).contains("aborted"), "{}", text(&o));
    for _ in 0..200 {
        if !alive(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the grandchild {pid} survived the abort");
}

#[tokio::test]
async fn args_that_are_not_an_object_or_miss_fields_are_tool_errors() {
    let d = tempfile::tempdir().unwrap();
    let c = ctx(d.path());
    let o = run("read", json!("{\"path\": broken"), &c).await;
    assert!(
        o.is_error && text(&o).contains("invalid arguments for tool read: expected a JSON object"),
        "{}",
        text(&o)
    );
    let o = run("edit", json!({"path":"x"}), &c).await;
    assert!(
        o.is_error && text(&o).contains("missing required field \"old_string\""),
        "{}",
        text(&o)
    );
    let o = run("bash", json!({"command": 5}), &c).await;
    assert!(
        o.is_error && text(&o).contains("\"command\" must be string"),
        "{}",
        text(&o)
    );
}

#[test]
fn tools_csv_selects_and_rejects_unknown_names() {
    let t = tools::select(Some("read, bash"), false).unwrap();
    assert_eq!(
        t.iter().map(|t| t.def().name).collect::<Vec<_>>(),
        vec!["read", "bash"]
    );
    assert!(tools::select(None, true).unwrap().is_empty());
    let e = tools::select(Some("read,fly"), false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("unknown tool \"fly\""), "{e}");
}

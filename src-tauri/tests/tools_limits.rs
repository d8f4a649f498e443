//! The built-in tools' limits against hostile args and files: bash's
//! timeout range, `read` of non-regular files (checked before any open, so
//! a FIFO cannot block), the per-call text cap, the image cap, checked
//! offset/limit, and the write/edit caps. Each is a tool error for the
//! model, never a hang, a panic or an allocation the size of the file.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::ContentBlock;
use zot_lib::tools::{builtin, run_checked, ToolCtx, ToolOutput};

fn ctx(dir: &Path) -> ToolCtx {
    ToolCtx {
        cwd: dir.to_path_buf(),
        cancel: CancellationToken::new(),
        progress: None,
    }
}

/// Runs a tool with a generous deadline, so a hang fails the test.
async fn run(name: &str, args: Value, dir: &Path) -> ToolOutput {
    let c = ctx(dir);
    tokio::time::timeout(
        Duration::from_secs(30),
        run_checked(builtin(name).unwrap().as_ref(), args, &c),
    )
    .await
    .unwrap_or_else(|_| panic!("the {name} tool hung"))
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

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo failed");
}

#[tokio::test]
async fn bash_timeouts_outside_0_to_3600_seconds_are_errors_stating_the_range() {
    let d = tempfile::tempdir().unwrap();
    for t in [
        json!(1e20),
        json!(-1),
        json!(0),
        json!(3601),
        json!(f64::MAX),
        json!("NaN"),
        json!("inf"),
        json!("abc"),
    ] {
        let o = run(
            "bash",
            json!({"command":"echo ran > ran.txt","timeout":t}),
            d.path(),
        )
        .await;
        let m = text(&o);
        assert!(o.is_error, "timeout {t}: {m}");
        assert!(
            m.contains("more than 0") && m.contains("3600"),
            "timeout {t}: {m}"
        );
        assert!(!d.path().join("ran.txt").exists(), "timeout {t} ran");
    }
    let o = run(
        "bash",
        json!({"command":"echo ok","timeout":3600}),
        d.path(),
    )
    .await;
    assert!(!o.is_error && text(&o).contains("ok"), "{}", text(&o));
}

#[tokio::test]
async fn read_refuses_a_fifo_without_blocking() {
    let d = tempfile::tempdir().unwrap();
    mkfifo(&d.path().join("pipe"));
    let o = run("read", json!({"path":"pipe"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("FIFO"), "{}", text(&o));
    // An image name does not change that.
    mkfifo(&d.path().join("pipe.png"));
    let o = run("read", json!({"path":"pipe.png"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("FIFO"), "{}", text(&o));
}

#[tokio::test]
async fn read_refuses_devices_sockets_and_directories() {
    let d = tempfile::tempdir().unwrap();
    let o = run("read", json!({"path":"/dev/zero"}), d.path()).await;
    assert!(
        o.is_error && text(&o).contains("character device"),
        "{}",
        text(&o)
    );
    let _sock = std::os::unix::net::UnixListener::bind(d.path().join("s.sock")).unwrap();
    let o = run("read", json!({"path":"s.sock"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("socket"), "{}", text(&o));
    std::fs::create_dir(d.path().join("sub")).unwrap();
    let o = run("read", json!({"path":"sub"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("directory"), "{}", text(&o));
}

#[tokio::test]
async fn read_returns_at_most_2000_lines_and_says_how_to_continue() {
    let d = tempfile::tempdir().unwrap();
    let body: String = (1..=3000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(d.path().join("f.txt"), body).unwrap();
    let o = run("read", json!({"path":"f.txt"}), d.path()).await;
    let t = text(&o);
    assert!(!o.is_error, "{t}");
    assert!(
        t.contains("\tline 2000\n") && !t.contains("line 2001"),
        "{t}"
    );
    assert!(
        t.trim_end()
            .ends_with("[1000 more lines; continue with offset 2001]"),
        "{}",
        &t[t.len() - 200..]
    );
    // A limit above the cap is clamped, not honoured.
    let o = run(
        "read",
        json!({"path":"f.txt","offset":2001,"limit":5000}),
        d.path(),
    )
    .await;
    let t = text(&o);
    assert!(
        t.contains("\tline 3000\n") && !t.contains("more lines"),
        "{t}"
    );
}

#[tokio::test]
async fn read_caps_text_at_256_kib_per_call() {
    let d = tempfile::tempdir().unwrap();
    let line = "x".repeat(1000);
    let body: String = (0..1000).map(|_| format!("{line}\n")).collect();
    std::fs::write(d.path().join("wide.txt"), body).unwrap();
    let o = run("read", json!({"path":"wide.txt"}), d.path()).await;
    let t = text(&o);
    assert!(!o.is_error);
    assert!(t.len() <= 256 * 1024 + 200, "{} bytes", t.len());
    let last = t.trim_end().lines().last().unwrap();
    assert!(
        last.contains("continue with offset") && last.contains("256 KiB"),
        "{last}"
    );
}

#[tokio::test]
async fn read_of_one_endless_line_is_cut_and_bounded() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("min.js"), "a".repeat(20 << 20)).unwrap();
    let o = run("read", json!({"path":"min.js"}), d.path()).await;
    let t = text(&o);
    assert!(!o.is_error && t.contains("[line cut]"), "{}", &t[..100]);
    assert!(t.len() < 10_000, "{} bytes", t.len());
}

#[tokio::test]
async fn read_checks_offset_and_limit() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("f.txt"), "a\nb\nc\n").unwrap();
    for (args, want) in [
        (json!({"offset":-5}), "offset must be a line number from 1"),
        (json!({"limit":0}), "limit must be a number of lines from 1"),
        (
            json!({"limit":-1}),
            "limit must be a number of lines from 1",
        ),
        (json!({"offset":u64::MAX}), "past the end"),
        (json!({"offset":1e30}), "must be integer"),
    ] {
        let mut a = args.clone();
        a["path"] = json!("f.txt");
        let o = run("read", a, d.path()).await;
        assert!(
            o.is_error && text(&o).contains(want),
            "{args}: {}",
            text(&o)
        );
    }
    // Huge values together never overflow.
    let o = run(
        "read",
        json!({"path":"f.txt","offset":2,"limit":u64::MAX}),
        d.path(),
    )
    .await;
    assert!(!o.is_error && text(&o).contains("\tb\n"), "{}", text(&o));
    let o = run(
        "read",
        json!({"path":"f.txt","offset":i64::MAX,"limit":u64::MAX}),
        d.path(),
    )
    .await;
    assert!(
        o.is_error && text(&o).contains("past the end"),
        "{}",
        text(&o)
    );
}

#[tokio::test]
async fn read_refuses_images_over_5_mib() {
    let d = tempfile::tempdir().unwrap();
    std::fs::File::create(d.path().join("big.png"))
        .unwrap()
        .set_len(5 * 1024 * 1024 + 1)
        .unwrap();
    let o = run("read", json!({"path":"big.png"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("5 MiB"), "{}", text(&o));
    std::fs::write(d.path().join("ok.png"), [1u8, 2, 3]).unwrap();
    let o = run("read", json!({"path":"ok.png"}), d.path()).await;
    assert!(!o.is_error);
}

#[tokio::test]
async fn write_and_edit_refuse_fifos_devices_and_oversized_content() {
    let d = tempfile::tempdir().unwrap();
    mkfifo(&d.path().join("pipe"));
    let o = run("write", json!({"path":"pipe","content":"x"}), d.path()).await;
    assert!(o.is_error && text(&o).contains("FIFO"), "{}", text(&o));
    let o = run(
        "edit",
        json!({"path":"pipe","old_string":"a","new_string":"b"}),
        d.path(),
    )
    .await;
    assert!(o.is_error && text(&o).contains("FIFO"), "{}", text(&o));
    let o = run(
        "edit",
        json!({"path":"/dev/zero","old_string":"a","new_string":"b"}),
        d.path(),
    )
    .await;
    assert!(
        o.is_error && text(&o).contains("character device"),
        "{}",
        text(&o)
    );
    let o = run(
        "write",
        json!({"path":"big.txt","content":"y".repeat(17 << 20)}),
        d.path(),
    )
    .await;
    assert!(o.is_error && text(&o).contains("16 MiB"), "{}", text(&o));
    assert!(!d.path().join("big.txt").exists());
    std::fs::File::create(d.path().join("huge.txt"))
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    let o = run(
        "edit",
        json!({"path":"huge.txt","old_string":"a","new_string":"b"}),
        d.path(),
    )
    .await;
    assert!(o.is_error && text(&o).contains("16 MiB"), "{}", text(&o));
}

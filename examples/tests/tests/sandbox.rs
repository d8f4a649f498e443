//! A Rust SDK extension (`src/bin/zot-sandbox-probe.rs`) under the real
//! sandbox: the canary outside its grant stays unread, writes outside its
//! directory fail, loopback is unreachable without `net`, the network
//! (not the host's loopback) reachable with it, and the host keeps serving
//! it after each refusal.

use std::io::{ErrorKind, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tempfile::TempDir;
use zot_examples_tests::Harness;
use zot_ext_protocol::ContentBlock;

/// The probe with its binary next to `extension.json` and `sandbox`.
fn probe(root: &Path, sandbox: Value) -> PathBuf {
    let dir = root.join("rsprobe");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_zot-sandbox-probe"),
        dir.join("zot-sandbox-probe"),
    )
    .unwrap();
    let manifest = json!({"name":"rsprobe","exec":"./zot-sandbox-probe","sandbox":sandbox});
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

async fn ask(h: &Harness, tool: &str, args: Value) -> String {
    let out = h.host.call_tool(tool, args).await.unwrap();
    match out.content.first() {
        Some(ContentBlock::Text { text }) => text.clone(),
        other => panic!("{tool}: {other:?}"),
    }
}

#[tokio::test]
async fn a_rust_sdk_extension_stays_inside_its_sandbox() {
    // Outside /tmp (the sandbox's /tmp is private and writable), like a
    // home: the target dir, or $HOME when the checkout is under /tmp.
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = if target.starts_with("/tmp") {
        std::path::PathBuf::from(std::env::var_os("HOME").expect("HOME"))
    } else {
        target.to_path_buf()
    };
    let fake_home = TempDir::new_in(base).unwrap();
    let canary = fake_home.path().join("canary.txt");
    std::fs::write(&canary, "CANARY-rs-51c2").unwrap();
    let scratch = TempDir::new().unwrap();
    let dir = probe(scratch.path(), json!({"net": false}));
    let h = Harness::start(std::slice::from_ref(&dir)).await;
    assert!(h.host.list()[0].sandboxed);

    let got = ask(&h, "probe_read", json!({"path": canary})).await;
    assert!(got.starts_with("error: NotFound"), "{got}");
    assert!(!got.contains("CANARY-rs-51c2"), "{got}");

    let outside = fake_home.path().join("dropped.txt");
    let got = ask(&h, "probe_write", json!({"path": outside})).await;
    assert!(got.starts_with("error:"), "{got}");
    assert!(!outside.exists());

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = ask(&h, "probe_connect", json!({"port": port})).await;
    assert!(got.starts_with("error:"), "{got}");
    listener.set_nonblocking(true).unwrap();
    assert!(matches!(listener.accept(), Err(e) if e.kind() == ErrorKind::WouldBlock));

    let got = ask(&h, "probe_write", json!({"path": dir.join("state.txt")})).await;
    assert_eq!(got, "wrote");
    assert_eq!(
        std::fs::read_to_string(dir.join("state.txt")).unwrap(),
        "written from the sandbox"
    );
    assert_eq!(h.host.list()[0].health.errors, 0);
    h.host.shutdown().await;
}

/// The address this machine sends from on its default route (a UDP
/// "connect" sends nothing): one that is not loopback.
fn outward_address() -> std::net::IpAddr {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    s.connect("198.51.100.1:9")
        .expect("this machine needs a default route for the test");
    s.local_addr().unwrap().ip()
}

#[tokio::test]
async fn with_net_the_rust_sdk_extension_reaches_the_network_not_the_hosts_loopback() {
    let scratch = TempDir::new().unwrap();
    let dir = probe(scratch.path(), json!({"net": true}));
    let h = Harness::start(std::slice::from_ref(&dir)).await;
    let ip = outward_address();
    let listener = TcpListener::bind((ip, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    assert_eq!(
        ask(
            &h,
            "probe_connect",
            json!({"port": port, "host": ip.to_string()})
        )
        .await,
        "connected"
    );
    let (mut conn, _) = listener.accept().unwrap();
    let mut got = String::new();
    conn.read_to_string(&mut got).unwrap();
    assert_eq!(got, "hello from the sandbox\n");
    // The host's loopback is not the network (the sandbox has its own).
    let local = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = local.local_addr().unwrap().port();
    let got = ask(&h, "probe_connect", json!({"port": port})).await;
    assert!(got.starts_with("error:"), "{got}");
    h.host.shutdown().await;
}

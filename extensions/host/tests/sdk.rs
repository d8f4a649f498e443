//! zot provides its SDKs: they are unpacked once per build into
//! `$ZOT_HOME/sdk/<version>-<hash>/` (atomically, even with two unpacks
//! racing), real Python and Node extensions (ESM and CommonJS) import them
//! with no copy of their own, a copy an extension ships wins (with a
//! warning when its version or protocol differs), and an unpack that fails
//! is named in the log while self-contained extensions still run.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};

use support::{python, start, Env};
use zot_ext_host::sdk;
use zot_ext_protocol::rpc::ExtState;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn node_available() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A Python extension whose `/where` command says which `zot_ext` it got.
fn python_ext(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("main.py"),
        format!(
            "import zot_ext\nfrom zot_ext import Extension, Response\n\
             ext = Extension({name:?}, '1.0.0')\n\
             @ext.command('where', 'which sdk')\n\
             def where(ctx, args):\n    return Response.display(zot_ext.__file__)\n\
             ext.run()\n"
        ),
    )
    .unwrap();
    let manifest = serde_json::json!({
        "name": name, "exec": python(), "args": ["main.py"], "language": "python",
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

/// A Node extension importing `zot-ext` as an ES module (`.mjs`) or with
/// CommonJS `require` (`.cjs`); `/where-esm` or `/where-cjs` answers with
/// its module kind.
fn node_ext(root: &Path, name: &str, esm: bool) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let (file, head, tail) = if esm {
        (
            "main.mjs",
            "import { Extension, Response } from 'zot-ext';\nconst kind = 'esm';\n",
            "await ext.run();\n",
        )
    } else {
        (
            "main.cjs",
            "const { Extension, Response } = require('zot-ext');\nconst kind = 'cjs';\n",
            "ext.run();\n",
        )
    };
    std::fs::write(
        dir.join(file),
        format!(
            "{head}const ext = new Extension({name:?}, '1.0.0');\n\
             ext.command('where-' + kind, 'which sdk', () => Response.display(kind));\n{tail}"
        ),
    )
    .unwrap();
    let manifest = serde_json::json!({
        "name": name, "exec": "node", "args": [file], "language": "javascript",
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

/// Copies the repository's Python SDK into `<dir>/zot_ext` (vendoring it),
/// with `edit` applied to its `__init__.py`.
fn vendor_python(dir: &Path, edit: impl Fn(String) -> String) {
    let src = repo().join("extensions/sdk-py/zot_ext");
    let dst = dir.join("zot_ext");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
        }
    }
    let init = dst.join("__init__.py");
    let text = std::fs::read_to_string(&init).unwrap();
    std::fs::write(&init, edit(text)).unwrap();
}

async fn display(host: &zot_ext_host::Host, cmd: &str) -> String {
    host.invoke_command(cmd, "")
        .await
        .unwrap()
        .response
        .display
        .unwrap_or_default()
}

#[test]
fn two_racing_unpacks_both_see_one_whole_tree() {
    for _round in 0..5 {
        let home = tempfile::tempdir().unwrap();
        let barrier = Arc::new(Barrier::new(4));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let home = home.path().to_path_buf();
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    let dir = sdk::ensure(&home).unwrap();
                    // Whatever this thread got must already be complete.
                    for (rel, bytes) in embedded_files() {
                        assert_eq!(std::fs::read(dir.join(&rel)).unwrap(), bytes, "{rel}");
                    }
                    dir
                })
            })
            .collect();
        let dirs: Vec<PathBuf> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(dirs.windows(2).all(|w| w[0] == w[1]), "{dirs:?}");
        assert_eq!(dirs[0], home.path().join("sdk").join(sdk::dir_name()));
        let left: Vec<_> = std::fs::read_dir(home.path().join("sdk"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 1, "temporary directories left behind: {left:?}");
    }
}

/// What the tree must hold: the Python SDK always, Node's when built.
fn embedded_files() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let py = repo().join("extensions/sdk-py/zot_ext");
    for e in std::fs::read_dir(&py).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_file() && !name.ends_with(".pyc") {
            files.push((
                format!("python/zot_ext/{name}"),
                std::fs::read(e.path()).unwrap(),
            ));
        }
    }
    if sdk::has_node_sdk() {
        let pkg = repo().join("extensions/sdk-ts/package.json");
        files.push((
            "node/node_modules/zot-ext/package.json".into(),
            std::fs::read(pkg).unwrap(),
        ));
    }
    files
}

#[test]
fn racing_zot_processes_never_see_half_a_tree() {
    // Two real processes (this test binary re-run as a child) unpack into one
    // home at the same time; each checks the tree it was handed.
    if let Ok(home) = std::env::var("ZOT_SDK_RACE_HOME") {
        let dir = sdk::ensure(Path::new(&home)).unwrap();
        for (rel, bytes) in embedded_files() {
            assert_eq!(std::fs::read(dir.join(&rel)).unwrap(), bytes, "{rel}");
        }
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let me = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(&me)
                .args([
                    "--exact",
                    &support::exact_name(
                        module_path!(),
                        "racing_zot_processes_never_see_half_a_tree",
                    ),
                    "--test-threads=1",
                ])
                .env("ZOT_SDK_RACE_HOME", home.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let names: Vec<_> = std::fs::read_dir(home.path().join("sdk"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [sdk::dir_name()]);
}

#[tokio::test]
async fn a_python_extension_imports_zots_sdk_without_a_copy_of_its_own() {
    let env = Env::new();
    let dir = python_ext(env.loose.path(), "py-plain");
    let mut cfg = env.config();
    cfg.explicit = vec![dir];
    let (host, _rx) = start(cfg).await;
    let s = &host.list()[0];
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("py-plain")
    );
    let file = display(&host, "where").await;
    let unpacked = env.home.path().join("sdk").join(sdk::dir_name());
    assert!(Path::new(&file).starts_with(&unpacked), "{file}");
    host.shutdown().await;
}

#[tokio::test]
async fn node_extensions_import_zots_sdk_as_esm_and_require_it_as_commonjs() {
    if !node_available() || !sdk::has_node_sdk() {
        eprintln!("skipped: node or the built TypeScript SDK is missing");
        return;
    }
    let env = Env::new();
    let esm = node_ext(env.loose.path(), "node-esm", true);
    let cjs = node_ext(env.loose.path(), "node-cjs", false);
    let mut cfg = env.config();
    cfg.explicit = vec![esm, cjs];
    let (host, _rx) = start(cfg).await;
    for s in host.list() {
        assert_eq!(
            s.state,
            ExtState::Ready,
            "{}: {:?}\n{}",
            s.name,
            s.error,
            env.log(&s.name)
        );
    }
    assert_eq!(display(&host, "where-esm").await, "esm");
    assert_eq!(display(&host, "where-cjs").await, "cjs");
    host.shutdown().await;
}

#[tokio::test]
async fn a_vendored_copy_wins_and_a_different_version_is_a_warning_not_a_failure() {
    let env = Env::new();
    let dir = python_ext(env.loose.path(), "py-vendored");
    vendor_python(&dir, |t| {
        t.replace("__version__ = \"0.1.0\"", "__version__ = \"0.0.7\"")
    });
    let mut cfg = env.config();
    cfg.explicit = vec![dir.clone()];
    let (host, _rx) = start(cfg).await;
    let s = &host.list()[0];
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    let file = display(&host, "where").await;
    assert!(Path::new(&file).starts_with(dir.join("zot_ext")), "{file}");
    let report = host.report();
    let warnings = &report.extensions[0].warnings;
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("0.0.7") && w.contains("protocol 1")),
        "{warnings:?}"
    );
    host.shutdown().await;
    assert!(
        env.log("py-vendored").contains("0.0.7"),
        "{}",
        env.log("py-vendored")
    );
}

#[tokio::test]
async fn a_shipped_sdk_of_another_protocol_is_warned_about_in_the_doctor_and_still_runs() {
    let env = Env::new();
    let dir = python_ext(env.loose.path(), "py-proto");
    vendor_python(&dir, |t| {
        t.replace("PROTOCOL_VERSION = 1", "PROTOCOL_VERSION = 2")
    });
    let mut cfg = env.config();
    cfg.explicit = vec![dir];
    let report = zot_ext_host::doctor::diagnose(cfg).await;
    let ext = &report.extensions[0];
    assert_eq!(ext.summary.state, ExtState::Ready);
    assert!(
        ext.warnings
            .iter()
            .any(|w| w.contains("protocol 2") && w.contains("zot speaks protocol 1")),
        "{:?}",
        ext.warnings
    );
}

#[tokio::test]
async fn the_sdks_are_unpacked_by_the_first_spawn_not_at_start() {
    let env = Env::new();
    let sdk_dir = env.home.path().join("sdk");
    let (host, _rx) = start(env.config()).await;
    assert!(
        !sdk_dir.exists(),
        "a start with nothing to spawn unpacked the SDKs"
    );
    host.shutdown().await;

    let mut cfg = env.config();
    cfg.explicit = vec![python_ext(env.loose.path(), "py-first")];
    let (host, _rx) = start(cfg).await;
    assert_eq!(
        host.list()[0].state,
        ExtState::Ready,
        "{}",
        env.log("py-first")
    );
    assert!(sdk_dir.join(sdk::dir_name()).is_dir());
    host.shutdown().await;
}

#[tokio::test]
async fn a_failed_unpack_names_the_directory_and_self_contained_extensions_still_run() {
    let env = Env::new();
    // `$ZOT_HOME/sdk` is a file: nothing can be unpacked under it (a
    // read-only home would do the same, but tests may run as root).
    std::fs::write(env.home.path().join("sdk"), "not a directory").unwrap();
    let err = sdk::ensure(env.home.path()).unwrap_err();
    assert!(
        err.to_string()
            .contains(&env.home.path().join("sdk").display().to_string()),
        "{err}"
    );

    let needs = python_ext(env.loose.path(), "py-needs");
    let own = python_ext(env.loose.path(), "py-own");
    vendor_python(&own, |t| t);
    let mut cfg = env.config();
    cfg.explicit = vec![needs, own];
    let (host, _rx) = start(cfg).await;
    let list = host.list();
    let by = |n: &str| list.iter().find(|s| s.name == n).unwrap().clone();
    assert_eq!(
        by("py-own").state,
        ExtState::Ready,
        "{:?}",
        by("py-own").error
    );
    assert_ne!(by("py-needs").state, ExtState::Ready);
    host.shutdown().await;
    let log = env.log("py-needs");
    assert!(
        log.contains("could not unpack zot's extension SDKs into"),
        "{log}"
    );
    assert!(log.contains("ModuleNotFoundError"), "{log}");
}

#[test]
fn a_virtualenv_copy_wins_over_zots() {
    let home = tempfile::tempdir().unwrap();
    let root = sdk::ensure(home.path()).unwrap();
    let ext = tempfile::tempdir().unwrap();
    let plain = sdk::spawn_env(Ok(&root), ext.path());
    let pythonpath = |e: &sdk::SpawnEnv| {
        e.vars
            .iter()
            .find(|(k, _)| k == "PYTHONPATH")
            .map(|(_, v)| v.to_string_lossy().into_owned())
    };
    let got = pythonpath(&plain).unwrap();
    assert!(
        got.ends_with(&root.join("python").display().to_string()),
        "{got}"
    );

    let pkg = ext
        .path()
        .join(".venv/lib/python3.11/site-packages/zot_ext");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("__init__.py"),
        "__version__ = \"0.1.0\"\nPROTOCOL_VERSION = 1\n",
    )
    .unwrap();
    let with_venv = sdk::spawn_env(Ok(&root), ext.path());
    assert_eq!(pythonpath(&with_venv), None);
    assert!(with_venv.warnings.is_empty(), "{:?}", with_venv.warnings);
}

//! Every example works installed, as a user would run it: `zot ext install
//! <dir>` (the real binary) into a temp `ZOT_HOME`, then `zot --mode rpc`
//! with no `--ext`, driving what each README promises (commands, tools
//! through the fake model server, panel keys, state in its data dir). The
//! installed copies live outside this repository, so the Python and
//! TypeScript examples can only find their SDK through zot.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn example(name: &str) -> PathBuf {
    repo().join("examples/extensions").join(name)
}

struct Env {
    llm: FakeLlm,
    home: tempfile::TempDir,
    cwd: tempfile::TempDir,
}

impl Env {
    async fn new() -> Env {
        Env {
            llm: FakeLlm::start().await,
            home: tempfile::tempdir().unwrap(),
            cwd: tempfile::tempdir().unwrap(),
        }
    }

    /// `zot ext install <dir>`; returns stdout and stderr.
    fn install(&self, dir: &Path) -> (String, String) {
        let out = std::process::Command::new(bin())
            .args(["ext", "install", dir.to_str().unwrap()])
            .env("ZOT_HOME", self.home.path())
            .env_remove("XDG_STATE_HOME")
            .current_dir(self.cwd.path())
            .output()
            .unwrap();
        let (o, e) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        assert!(out.status.success(), "install failed:\n{o}\n{e}");
        (o, e)
    }

    fn installed(&self, name: &str) -> PathBuf {
        self.home.path().join("extensions").join(name)
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.home.path().join(format!("logs/ext-{name}.log")))
            .unwrap_or_default()
    }

    /// `zot --mode rpc` with discovery on and no `--ext`; asserts that
    /// `name` came up ready, or idle for an `on_use` example (its first
    /// command or tool call below starts it).
    async fn start(&self, name: &str) -> Rpc {
        let mut z = Rpc::against(
            &self.llm,
            self.home.path(),
            self.cwd.path(),
            &["--no-session"],
            &[],
        )
        .await;
        let r = z.call(json!({"type":"ext_list"})).await;
        let exts = r["data"]["extensions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let me = exts.iter().find(|x| x["name"] == name);
        assert!(
            me.is_some_and(
                |x| (x["state"] == "ready" || x["state"] == "idle") && x["scope"] == "global"
            ),
            "{name} is not ready: {r}\nlog:\n{}",
            self.log(name)
        );
        z
    }
}

async fn command(z: &mut Rpc, name: &str, args: &str) -> Value {
    let r = z
        .call(json!({"type":"command","name":name,"args":args}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    r["data"].clone()
}

/// The first `tool_result` of a turn in which the model calls `tool`.
async fn model_calls(e: &Env, z: &mut Rpc, tool: &str, args: Value) -> Value {
    e.llm
        .push(anthropic_tool("", "t1", tool, &[&args.to_string()]));
    e.llm.push(anthropic_text(&["Done."]));
    let evs = z.prompt("go").await;
    of(&evs, "tool_result")
        .first()
        .copied()
        .cloned()
        .unwrap_or_else(|| panic!("no tool_result: {evs:#?}"))
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A Rust example as its README installs it: the built binary copied next
/// to `extension.json` (in a scratch copy, never in the checkout).
fn rust_example_with_binary(name: &str, bin_name: &str, scratch: &Path) -> PathBuf {
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", bin_name])
        .current_dir(repo())
        .status()
        .unwrap();
    assert!(status.success(), "cargo build -p {bin_name} failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| repo().join("target"));
    let dir = scratch.join(name);
    copy_files(&example(name), &dir);
    std::fs::copy(target.join("debug").join(bin_name), dir.join(bin_name)).unwrap();
    dir
}

/// Copies the top-level files and `src/` of `from` (enough for a Rust
/// example's README to hold).
fn copy_files(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    let src = from.join("src");
    if src.is_dir() {
        copy_files(&src, &to.join("src"));
    }
}

/// Removes state a developer's run left in the checkout, so each test
/// starts from an empty store.
fn forget_state(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with("todos.json") || n.starts_with("scratchpad.md") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
}

#[tokio::test]
async fn hello_installed_answers_its_commands() {
    let e = Env::new().await;
    let scratch = tempfile::tempdir().unwrap();
    e.install(&rust_example_with_binary(
        "hello",
        "zot-example-hello",
        scratch.path(),
    ));
    let mut z = e.start("hello").await;
    assert_eq!(
        command(&mut z, "shout", "hi there").await["display"],
        "HI THERE"
    );
    let cwd = command(&mut z, "cwd", "").await;
    assert_eq!(
        Path::new(cwd["display"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        e.cwd.path().canonicalize().unwrap()
    );
    assert_eq!(command(&mut z, "hello", "").await["action"], "prompt");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn hello_py_installed_prompts_the_agent() {
    let e = Env::new().await;
    e.install(&example("hello-py"));
    e.llm.push(anthropic_text(&["Hi!"]));
    let mut z = e.start("hello-py").await;
    let r = command(&mut z, "hellopy", "").await;
    assert_eq!(r["action"], "prompt");
    let evs = z.until(|v| v["type"] == "done").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "Hi!");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn clock_installed_tells_the_time_and_rings_a_timer() {
    let e = Env::new().await;
    e.install(&example("clock"));
    let mut z = e.start("clock").await;
    let r = command(&mut z, "clock", "UTC").await;
    assert!(r["display"].as_str().unwrap().contains("UTC"), "{r}");
    command(&mut z, "timer", "1").await;
    let evs = z
        .until(|v| {
            v["type"] == "ext_notify" && v["message"].as_str().unwrap_or("").contains("timer done")
        })
        .await;
    assert_eq!(evs.last().unwrap()["extension"], "clock");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn weather_installed_answers_the_models_tool_call() {
    let e = Env::new().await;
    let scratch = tempfile::tempdir().unwrap();
    e.install(&rust_example_with_binary(
        "weather",
        "zot-example-weather",
        scratch.path(),
    ));
    let mut z = e.start("weather").await;
    let r = model_calls(&e, &mut z, "weather", json!({"city": "Berlin"})).await;
    assert_eq!(r["is_error"], false, "{r}");
    assert!(text(&r).contains("Berlin: 16°C, fog"), "{r}");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn guard_installed_refuses_a_dangerous_command() {
    let e = Env::new().await;
    let scratch = tempfile::tempdir().unwrap();
    e.install(&rust_example_with_binary(
        "guard",
        "zot-example-guard",
        scratch.path(),
    ));
    let mut z = e.start("guard").await;
    let r = model_calls(&e, &mut z, "bash", json!({"command": "rm -rf /"})).await;
    assert_eq!(r["is_error"], true, "{r}");
    assert!(text(&r).contains("refused by guard"), "{r}");
    let stats = command(&mut z, "guard", "").await;
    assert_eq!(
        stats["display"],
        "guard: 1 blocked, 0 rewritten, 0 messages redacted"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn todo_installed_keeps_its_list_in_its_data_dir_across_restarts() {
    let e = Env::new().await;
    e.install(&example("todo"));
    let data = e.installed("todo");
    forget_state(&data);
    let mut z = e.start("todo").await;
    command(&mut z, "todo", "buy milk").await;
    let saved = std::fs::read_to_string(data.join("todos.json")).unwrap();
    assert!(saved.contains("buy milk"), "{saved}");

    // The panel: open it, toggle the item with `x`, close it with esc.
    let r = command(&mut z, "todo", "").await;
    assert_eq!(r["action"], "open_panel");
    assert!(
        r["open_panel"]["lines"][0]
            .as_str()
            .unwrap()
            .contains("buy milk"),
        "{r}"
    );
    let k = z
        .call(json!({"type":"panel_key","panel_id":"todos-main","key":"rune","text":"x"}))
        .await;
    assert_eq!(k["success"], true, "{k}");
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    let lines = evs.last().unwrap()["lines"].to_string();
    assert!(
        lines.contains("[x]") || lines.contains("✓") || lines.contains("✔"),
        "{lines}"
    );
    z.call(json!({"type":"panel_key","panel_id":"todos-main","key":"esc"}))
        .await;
    z.until(|v| v["type"] == "ext_panel_close").await;

    // The model's tool sees the same list.
    let r = model_calls(&e, &mut z, "todo_manage", json!({"action": "list"})).await;
    assert!(text(&r).contains("buy milk"), "{r}");
    assert!(z.close().await.success());

    // A new zot reads it back from the data dir.
    let mut z = e.start("todo").await;
    let r = model_calls(&e, &mut z, "todo_manage", json!({"action": "list"})).await;
    assert!(text(&r).contains("buy milk"), "{r}");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn plan_installed_keeps_its_plan_in_the_conversation() {
    let e = Env::new().await;
    e.install(&example("plan"));
    let mut z = e.start("plan").await;
    let steps = json!({"steps": [{"text": "read the code", "done": true}, {"text": "fix it"}]});
    let r = model_calls(&e, &mut z, "plan_update", steps).await;
    assert!(text(&r).contains("plan saved: 1/2 done"), "{r}");
    let added = command(&mut z, "plan", "test it").await;
    assert_eq!(added["display"], "added step 3: test it", "{added}");
    let r = command(&mut z, "plan", "").await;
    assert_eq!(
        r["open_panel"]["lines"],
        json!(["1. [x] read the code", "2. [ ] fix it", "3. [ ] test it"]),
        "{r}"
    );
    // The plan belongs to the conversation: a new one starts without it.
    z.call(json!({"type":"clear"})).await;
    let r = command(&mut z, "plan", "").await;
    assert!(
        r["open_panel"]["lines"][0]
            .as_str()
            .unwrap()
            .contains("no plan yet"),
        "{r}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn scratchpad_installed_shares_notes_with_the_model() {
    let built = example("scratchpad").join("scratchpad.js");
    assert!(
        built.is_file(),
        "{} is missing: run `make deps` (it compiles the TypeScript examples)",
        built.display()
    );
    let e = Env::new().await;
    e.install(&example("scratchpad"));
    let data = e.installed("scratchpad");
    forget_state(&data);
    let mut z = e.start("scratchpad").await;
    let r = command(&mut z, "scratch", "ship on friday").await;
    assert!(r["display"].as_str().unwrap().contains("noted"), "{r}");
    let file = std::fs::read_to_string(data.join("scratchpad.md")).unwrap();
    assert!(file.contains("ship on friday"), "{file}");
    let r = model_calls(&e, &mut z, "scratchpad", json!({"action": "read"})).await;
    assert!(text(&r).contains("ship on friday"), "{r}");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_rust_example_installed_as_source_says_it_needs_cargo_when_cargo_is_missing() {
    let e = Env::new().await;
    let scratch = tempfile::tempdir().unwrap();
    let src = scratch.path().join("hello");
    copy_files(&example("hello"), &src);
    let install = |path: &str| {
        std::process::Command::new(bin())
            .args(["ext", "install", "--force", src.to_str().unwrap()])
            .env("ZOT_HOME", e.home.path())
            .env("PATH", path)
            .output()
            .unwrap()
    };
    // No cargo anywhere on PATH.
    let empty = scratch.path().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let out = install(empty.to_str().unwrap());
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cargo is not installed") && err.contains("zot-example-hello"),
        "{err}"
    );
    // With cargo on PATH the note says how to build instead.
    let cargo_dir = Path::new(env!("CARGO")).parent().unwrap();
    let out = install(cargo_dir.to_str().unwrap());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cargo build -p zot-example-hello"), "{err}");
    // A copy that ships its binary gets no note.
    let out = install(empty.to_str().unwrap());
    assert!(out.status.success());
    let with_bin = rust_example_with_binary("hello", "zot-example-hello", scratch.path());
    let out = std::process::Command::new(bin())
        .args(["ext", "install", "--force", with_bin.to_str().unwrap()])
        .env("ZOT_HOME", e.home.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("note:"), "{err}");
}

#[tokio::test]
async fn toolchart_installed_opens_its_chart_page_and_answers_it() {
    let e = Env::new().await;
    e.install(&example("toolchart"));
    let mut z = e.start("toolchart").await;
    let from = z.log.len();
    assert_eq!(
        command(&mut z, "toolchart", "").await["action"],
        "open_panel"
    );
    let open = z.find_from(from, |v| v["type"] == "ext_panel_open").await;
    assert!(
        open["panel"]["html"].as_str().unwrap().contains("<svg"),
        "{open}"
    );
    assert_eq!(open["panel"]["id"], "toolchart");
    let from = z.log.len();
    let r = z
        .call(json!({"type":"panel_message","panel_id":"toolchart","data":{"ready":true}}))
        .await;
    assert_eq!(r["data"]["delivered"], true, "{r}");
    let back = z
        .find_from(from, |v| v["type"] == "ext_panel_message")
        .await;
    assert_eq!(back["data"], json!({"counts": {}}), "no tool calls yet");
    z.close().await;
}

//! Deferred tools placed each provider's way, as golden requests: one
//! scripted session per provider against the fake server, with an
//! extension whose `loader` tool activates the deferred `hidden` and a
//! second deferred tool `finder` that the model loads natively (Anthropic's
//! tool search, Kimi's `select_tools`). The exact JSON of every request is
//! compared with `tests/golden/tool_loading_<provider>.json`
//! (`ZOT_UPDATE_GOLDEN=1` rewrites them; review the diff).

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn plan() -> Value {
    json!({"tools": {
        "loader": {"description": "Enables the hidden tool.",
                   "result": {"content": [{"type":"text","text":"enabled"}], "activate_tools": ["hidden"]}},
        "hidden": {"deferred": true, "echo": true, "description": "A tool that starts deferred."},
        "finder": {"deferred": true, "echo": true, "description": "Finds things. Loaded on demand."}
    }})
}

/// Runs one prompt against `provider` with the scripted `replies` and
/// returns every request body the server saw.
async fn session(provider: &str, model: &str, replies: Vec<Reply>) -> (Vec<Value>, Vec<Value>) {
    let (recorded, evs) = session_recorded(provider, model, replies).await;
    (recorded.into_iter().map(|r| r.body).collect(), evs)
}

/// [`session`], with the requests as the server recorded them (headers).
async fn session_recorded(
    provider: &str,
    model: &str,
    replies: Vec<Reply>,
) -> (Vec<Recorded>, Vec<Value>) {
    let s = FakeLlm::start().await;
    for r in replies {
        s.push(r);
    }
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = fixtures::agent_ext(home.path(), "fx-src", plan());
    let ext = ext.to_str().unwrap().to_owned();
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &[
            "--no-session",
            "--provider",
            provider,
            "--model",
            model,
            "--no-ext",
            "-e",
            &ext,
            "--tools=",
            "--system-prompt",
            "sys",
        ],
        &[],
    )
    .await;
    let evs = z.prompt("go").await;
    z.close().await;
    (s.requests(), evs)
}

fn golden(name: &str, got: &[Value]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("tool_loading_{name}.json"));
    let text = serde_json::to_string_pretty(got).unwrap() + "\n";
    if std::env::var_os("ZOT_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        Value::from(got.to_vec()),
        want,
        "requests differ from {}; got:\n{text}",
        path.display()
    );
}

fn results(evs: &[Value]) -> Vec<String> {
    evs.iter()
        .filter(|v| v["type"] == "tool_result")
        .map(|v| {
            format!(
                "{}:{}",
                v["is_error"],
                v["content"][0]["text"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[tokio::test]
async fn anthropic_sends_deferred_tools_for_its_tool_search_and_keeps_the_search_blocks() {
    let (reqs, evs) = session(
        "anthropic",
        "claude-sonnet-4-5",
        vec![
            anthropic_tool("", "t1", "loader", &["{}"]),
            anthropic_search_then_tool("find", "finder", "t2", "finder", "{\"q\":1}"),
            anthropic_tool("", "t3", "hidden", &["{\"a\":2}"]),
            anthropic_text(&["done"]),
        ],
    )
    .await;
    assert_eq!(
        results(&evs),
        ["false:enabled", "false:{\"q\": 1}", "false:{\"a\": 2}"]
    );
    // Before the activation `hidden` is deferred; after it, an ordinary tool.
    let defer = |i: usize, n: &str| {
        reqs[i]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == n)
            .map(|t| t["defer_loading"] == true)
    };
    assert_eq!(
        (defer(0, "hidden"), defer(1, "hidden")),
        (Some(true), Some(false))
    );
    assert_eq!(defer(3, "finder"), Some(true));
    // The search blocks go back exactly as they came.
    let a = &reqs[2]["messages"][3]["content"];
    assert_eq!(a[0]["type"], "server_tool_use");
    assert_eq!(a[0]["input"], json!({"pattern":"find"}));
    assert_eq!(a[1]["content"]["tool_references"][0]["tool_name"], "finder");
    // No deferred tool ever carries cache_control.
    for r in &reqs {
        for t in r["tools"].as_array().unwrap() {
            assert!(
                !(t["defer_loading"] == true && t.get("cache_control").is_some()),
                "{t}"
            );
        }
    }
    golden("anthropic", &reqs);
}

#[tokio::test]
async fn kimi_keeps_its_tool_list_and_loads_schemas_by_system_message() {
    let (reqs, evs) = session(
        "kimi",
        "kimi-k3",
        vec![
            openai_tool("c1", "loader", &["{}"]),
            openai_tool("c2", "select_tools", &["{\"names\":[\"finder\",\"nope\"]}"]),
            openai_tool("c3", "finder", &["{\"q\":1}"]),
            openai_text(&["done"]),
        ],
    )
    .await;
    assert_eq!(
        results(&evs),
        [
            "false:enabled",
            "false:Loaded: finder\nUnknown tool: nope; pick a name from the latest <tools_added> announcement",
            "false:{\"q\": 1}"
        ]
    );
    for r in &reqs {
        assert_eq!(
            r["tools"], reqs[0]["tools"],
            "the top-level tools never change"
        );
    }
    let names: Vec<&str> = reqs[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["loader", "select_tools"]);
    golden("kimi", &reqs);
}

#[tokio::test]
async fn openai_compatible_models_and_ollama_get_the_generic_full_list() {
    for (provider, model) in [("openai", "gpt-4.1"), ("ollama", "llama3.1")] {
        let (reqs, evs) = session(
            provider,
            model,
            vec![
                openai_tool("c1", "loader", &["{}"]),
                openai_tool("c2", "hidden", &["{\"a\":2}"]),
                openai_text(&["done"]),
            ],
        )
        .await;
        assert_eq!(results(&evs), ["false:enabled", "false:{\"a\": 2}"]);
        assert!(reqs.iter().all(|r| r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.get("tools").is_none())));
        golden(provider, &reqs);
    }
}

#[tokio::test]
async fn a_kimi_model_without_dynamic_tools_gets_the_generic_list() {
    let (reqs, _) = session(
        "kimi",
        "kimi-k2-0905-preview",
        vec![openai_tool("c1", "loader", &["{}"]), openai_text(&["done"])],
    )
    .await;
    let names = |i: usize| -> Vec<String> {
        reqs[i]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(0), ["loader"]);
    assert_eq!(names(1), ["loader", "hidden"]);
    assert!(reqs.iter().all(|r| r["messages"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["role"] != "system" || m["content"] == "sys")));
}

/// Runs `first` then, in a new zot on the same session file, `second`;
/// returns the last request of each run.
async fn across_a_reload(
    provider: &str,
    model: &str,
    first: Vec<Reply>,
    second: Vec<Reply>,
) -> (Value, Value) {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = fixtures::agent_ext(home.path(), "fx-src", plan());
    let ext = ext.to_str().unwrap().to_owned();
    let file = home.path().join("s.jsonl");
    let file = file.to_str().unwrap().to_owned();
    let args = [
        "--session",
        &file,
        "--provider",
        provider,
        "--model",
        model,
        "--no-ext",
        "-e",
        &ext,
        "--tools=",
        "--system-prompt",
        "sys",
    ];
    let mut last = Vec::new();
    for replies in [first, second] {
        for r in replies {
            s.push(r);
        }
        let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
        z.prompt("go").await;
        z.close().await;
        last.push(s.requests().last().unwrap().body.clone());
    }
    (last[0].clone(), last[1].clone())
}

#[tokio::test]
async fn the_session_keeps_the_search_blocks_and_sends_them_back_after_a_reload() {
    let (before, after) = across_a_reload(
        "anthropic",
        "claude-sonnet-4-5",
        vec![
            anthropic_search_then_tool("find", "finder", "t2", "finder", "{\"q\":1}"),
            anthropic_text(&["done"]),
        ],
        vec![anthropic_text(&["again"])],
    )
    .await;
    let strip = |m: &Value| {
        let mut m = m.clone();
        for b in m["content"].as_array_mut().unwrap() {
            b.as_object_mut().unwrap().remove("cache_control");
        }
        m
    };
    // The assistant message with the search, as the API sent it, both times.
    assert_eq!(
        before["messages"][1]["content"][0]["type"],
        "server_tool_use"
    );
    assert_eq!(strip(&after["messages"][1]), strip(&before["messages"][1]));
    assert_eq!(
        after["messages"][1]["content"][1]["content"]["tool_references"][0]["tool_name"],
        "finder"
    );
}

#[tokio::test]
async fn kimi_announcements_and_loaded_schemas_survive_a_reload() {
    let (before, after) = across_a_reload(
        "kimi",
        "kimi-k3",
        vec![
            openai_tool("c1", "select_tools", &["{\"names\":[\"finder\"]}"]),
            openai_text(&["done"]),
        ],
        vec![openai_text(&["again"])],
    )
    .await;
    let system = |r: &Value| -> Vec<Value> {
        r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "system")
            .cloned()
            .collect()
    };
    // Nothing is announced twice and the loaded schema is still there.
    assert_eq!(system(&after), system(&before));
    assert_eq!(system(&before).len(), 3, "{:#?}", system(&before));
    assert_eq!(system(&after)[2]["tools"][0]["function"]["name"], "finder");
}

#[tokio::test]
async fn the_tool_search_beta_goes_with_deferred_tools_and_older_claude_models_get_the_generic_list(
) {
    let (reqs, _) = session_recorded(
        "anthropic",
        "claude-sonnet-4-5-20250929",
        vec![anthropic_text(&["hi"])],
    )
    .await;
    assert_eq!(
        reqs[0].header("anthropic-beta"),
        Some("advanced-tool-use-2025-11-20")
    );
    let (reqs, _) = session_recorded(
        "anthropic",
        "claude-3-5-haiku-latest",
        vec![
            anthropic_tool("", "t1", "loader", &["{}"]),
            anthropic_text(&["hi"]),
        ],
    )
    .await;
    assert_eq!(reqs[0].header("anthropic-beta"), None);
    let names = |i: usize| -> Vec<&str> {
        reqs[i].body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect()
    };
    assert_eq!(names(0), ["loader"]);
    assert_eq!(names(1), ["loader", "hidden"]);
}

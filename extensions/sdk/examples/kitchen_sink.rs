//! Every SDK feature in one extension. The SDK's integration tests drive it
//! over real pipes, and it doubles as a reference for authors.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use serde_json::json;
use zot_ext::{
    AssistantMessageDecision, Extension, LifecycleEvent, NoteLevel, PanelKey, PanelSpec, Response,
    ToolCallDecision, ToolResult, TurnStartDecision,
};

/// Args of the typed `mul` tool.
#[derive(serde::Deserialize)]
struct MulArgs {
    a: i64,
    b: i64,
}

/// Released by `/release`; `block` tool waits on it (10 s at most).
static GATE: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

fn main() {
    let mut ext = Extension::new("kitchen-sink", "0.1.0");
    ext.command("units", "display the units setting", |ctx, _| {
        Response::display(
            ctx.setting("units")
                .map(|v| v.to_string())
                .unwrap_or_default(),
        )
    });
    // Says that the token arrived without ever showing it.
    ext.on_config_change(|ctx, config| {
        ctx.notify(
            NoteLevel::Info,
            format!(
                "units now {}; token set: {}",
                config.get("units").cloned().unwrap_or_default(),
                config.get("token").is_some()
            ),
        )
    });
    ext.command("echo", "display the args", |_ctx, args| {
        Response::display(args)
    })
    .command(
        "ask",
        "asks each kind of dialog and displays the answers",
        |ctx, _args| {
            let answers = [
                ctx.confirm("Delete it?", None),
                ctx.select("Which?", &["a", "b"], Some("b")),
                ctx.input("Name?", Some("a name"), None),
                ctx.form(
                    "New item",
                    json!({"type":"object","properties":{"title":{"type":"string"}}}),
                ),
            ];
            let shown: Vec<String> = answers.iter().map(|a| format!("{a:?}")).collect();
            Response::display(shown.join("; "))
        },
    )
    .command("prompt", "submit a prompt", |_ctx, args| {
        Response::prompt(args)
    })
    .command("insert", "insert text", |_ctx, args| Response::insert(args))
    .command("noop", "notify, then nothing", |ctx, _| {
        ctx.notify(NoteLevel::Success, "did it");
        ctx.clear_notes();
        ctx.submit("queued prompt");
        Response::noop()
    })
    .command("fail", "an error response", |_ctx, _| {
        Response::error("it failed")
    })
    .command("boom", "panics", |_ctx, _| panic!("kaboom in a command"))
    .command("print", "prints to stdout", |_ctx, args| {
        // Must land in stderr, not on the wire.
        println!("stray stdout text {args}");
        Response::display("printed")
    })
    .command("panel", "open a panel", |_ctx, _| {
        Response::open_panel(PanelSpec {
            id: "p1".into(),
            title: Some("Sink".into()),
            lines: vec!["one".into()],
            ..Default::default()
        })
    })
    .command("release", "releases the block tool", |_ctx, _| {
        *GATE.0.lock().unwrap() = true;
        GATE.1.notify_all();
        Response::noop()
    });

    let schema =
        json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}});
    ext.tool("add", "adds a and b", schema.clone(), |_ctx, args| {
        let sum = args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0);
        ToolResult::text(sum.to_string())
    })
    .typed_tool(
        "mul",
        "multiplies a and b",
        schema.clone(),
        |_ctx, args: MulArgs| ToolResult::text((args.a * args.b).to_string()),
    )
    .tool(
        "block",
        "waits for /release",
        json!({"type":"object"}),
        |_ctx, _| {
            let guard = GATE.0.lock().unwrap();
            let (guard, _) = GATE
                .1
                .wait_timeout_while(guard, Duration::from_secs(10), |open| !*open)
                .unwrap();
            ToolResult::text(if *guard { "released" } else { "timed out" })
        },
    )
    // A slow build: progress every 20 ms until done or cancelled.
    .tool_with_call(
        "build",
        "a slow build",
        json!({"type":"object"}),
        |ctx, args, call| {
            let steps = args["steps"].as_u64().unwrap_or(1000);
            for i in 1..=steps {
                call.progress(&format!("step {i}"), i as f64, Some(steps as f64));
                call.output(&format!("unit {i}\n"));
                if call.token().wait_timeout(Duration::from_millis(20)) {
                    ctx.log(format!(
                        "stopped on {}",
                        call.token().reason().unwrap_or_default()
                    ));
                    return ToolResult::text("stopped");
                }
            }
            ToolResult::text("built")
        },
    )
    .tool("explode", "panics", json!({"type":"object"}), |_ctx, _| {
        panic!("tool blew up")
    })
    .tool(
        "loader",
        "enables secret",
        json!({"type":"object"}),
        |_ctx, _| ToolResult::text("enabled").activate(["secret"]),
    )
    .deferred_tool(
        "secret",
        "hidden until loaded",
        json!({"type":"object"}),
        |_ctx, _| ToolResult::text("42"),
    );

    ext.on_hello(|ext, host| {
        let cwd = host.cwd.display().to_string();
        ext.command("cwd", "show the project dir", move |_ctx, _| {
            Response::display(cwd.clone())
        });
    });

    ext.on_event(LifecycleEvent::TurnEnd, |ctx, ev| {
        ctx.notify(
            NoteLevel::Info,
            format!("turn ended: {}", ev.fields.stop.as_deref().unwrap_or("?")),
        );
    })
    .intercept_tool_call(|_ctx, tool, args| {
        let cmd = args["command"].as_str().unwrap_or("");
        match tool {
            "bash" if cmd.contains("rm -rf /") => ToolCallDecision::block("refused: rm -rf /"),
            "bash" if cmd == "ls" => ToolCallDecision::rewrite(json!({"command":"ls -la"})),
            "bash" if cmd == "panic" => panic!("interceptor blew up"),
            _ => ToolCallDecision::allow(),
        }
    })
    .intercept_turn_start(|_ctx, step| {
        if step > 9 {
            TurnStartDecision::block("too many steps")
        } else {
            TurnStartDecision::allow()
        }
    })
    .intercept_assistant_message(|_ctx, text| {
        if text.contains("BLOCK") {
            AssistantMessageDecision::block("blocked")
        } else {
            AssistantMessageDecision::replace(text.replace("SECRET", "[redacted]"))
        }
    })
    .on_panel_key(|ctx, key| {
        let what = match key.key {
            PanelKey::Rune => format!("rune {}", key.text.as_deref().unwrap_or("")),
            k => format!("{k:?}").to_lowercase(),
        };
        if what == "rune q" {
            ctx.close_panel(&key.panel_id);
            return;
        }
        ctx.render_panel(PanelSpec {
            id: key.panel_id.clone(),
            title: Some("Sink".into()),
            lines: vec![what],
            footer: Some("q closes".into()),
            ..Default::default()
        });
    })
    .on_panel_mouse(|ctx, m| {
        let at = match m.delta {
            Some(d) => format!("{d:+}"),
            None => format!("{}:{}", m.row.unwrap_or(0), m.col.unwrap_or(0)),
        };
        let action = serde_json::to_value(m.action).unwrap_or_default();
        ctx.render_panel(PanelSpec {
            id: m.panel_id.clone(),
            lines: vec![format!("{} {at}", action.as_str().unwrap_or("?"))],
            ..Default::default()
        });
    })
    .on_panel_resize(|ctx, r| {
        ctx.render_panel(PanelSpec {
            id: r.panel_id.clone(),
            lines: vec![format!("size {}x{}", r.cols, r.rows)],
            placement: Some("side".into()),
            ..Default::default()
        });
    })
    .on_panel_message(|ctx, id, data| {
        ctx.post_message(id, serde_json::json!({ "echo": data }));
    })
    .on_panel_close(|ctx, id| ctx.notify(NoteLevel::Info, format!("panel {id} closed")))
    .on_shutdown(|ctx| ctx.log("shutting down"));

    if let Err(e) = ext.run() {
        eprintln!("kitchen-sink: {e}");
        std::process::exit(1);
    }
}

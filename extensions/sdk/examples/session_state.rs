//! Session state through the Rust SDK (tests/session_state.rs drives it):
//! reads what `hello_ack.state` brought, stores typed values, reports
//! each `state_restored`.

use zot_ext::{Extension, NoteLevel, Response};

fn main() {
    let mut ext = Extension::new("stateful", "0.1.0");
    ext.command("show", "display the plan", |ctx, _| {
        let plan: Option<Vec<String>> = ctx.state().get("plan");
        Response::display(serde_json::to_string(&plan).unwrap_or_default())
    });
    ext.command("add", "append a step", |ctx, args| {
        let mut plan: Vec<String> = ctx.state().get("plan").unwrap_or_default();
        plan.push(args.to_owned());
        match ctx.state().set("plan", &plan) {
            Ok(()) => Response::display(plan.len().to_string()),
            Err(e) => Response::error(e.to_string()),
        }
    });
    ext.command("huge", "try a value over the limit", |ctx, _| {
        match ctx.state().set("big", &"x".repeat(70 * 1024)) {
            Ok(()) => Response::display("sent"),
            Err(e) => Response::display(e.to_string()),
        }
    });
    ext.on_state_restored(|ctx, state| {
        ctx.notify(
            NoteLevel::Info,
            format!(
                "restored {}",
                serde_json::to_string(state).unwrap_or_default()
            ),
        )
    });
    ext.run().expect("zot went away");
}

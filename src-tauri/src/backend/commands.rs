//! Each `spec/rpc.md` command, and the slash commands (`command`): the
//! built-ins answer themselves; extension commands apply their action.

use std::sync::atomic::Ordering;

use base64::Engine;
use serde_json::{json, Value};
use zot_ext_protocol::rpc::{ImageInput, RpcCommand, UiEvent};
use zot_ext_protocol::{CommandAction, NoteLevel, BUILTIN_COMMANDS};

use super::Backend;
use crate::agent::session::{Session, SessionChoice};
use crate::agent::transcript::Block;

pub(super) async fn handle(b: &Backend, cmd: RpcCommand) -> Result<Value, String> {
    match cmd {
        RpcCommand::Hello { token } => {
            if let Some(want) = super::options::rpc_token() {
                if token.as_deref() != Some(want.as_str()) {
                    return Err("hello: the token is missing or wrong; send the value of ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN) as \"token\"".into());
                }
            }
            Ok(b.hello_data())
        }
        RpcCommand::Prompt { message, images } => {
            check_images(&images)?;
            let mut content = vec![Block::text(message)];
            for i in images {
                content.push(Block::Image {
                    mime_type: i.mime_type,
                    data: i.data,
                });
            }
            b.enqueue(content);
            Ok(json!({"started": true}))
        }
        RpcCommand::Command { name, args } => {
            command(b, name.trim_start_matches('/'), args.trim()).await
        }
        RpcCommand::Abort {} => Ok(json!({"aborted": b.abort()})),
        RpcCommand::PanelKey {
            panel_id,
            key,
            text,
        } => b
            .inner
            .host
            .panel_key(&panel_id, key, text)
            .map(|()| json!({}))
            .map_err(|e| e.to_string()),
        RpcCommand::PanelClose { panel_id } => {
            b.inner
                .host
                .close_panel(&panel_id)
                .map_err(|e| e.to_string())?;
            Ok(json!({}))
        }
        RpcCommand::ExtList {} => Ok(json!({"extensions": b.inner.host.list()})),
        RpcCommand::GetState {} => {
            let st = b.inner.agent.state();
            Ok(json!({
                "provider": b.inner.agent.provider().kind.as_str(),
                "model": st.model,
                "cwd": b.inner.opts.cwd,
                "message_count": st.messages.len(),
                "busy": b.busy(),
                "usage": st.usage.report(),
                "session": st.session.as_ref().map(|s| s.path().to_path_buf()),
            }))
        }
        RpcCommand::GetMessages {} => Ok(json!({"messages": b.inner.agent.state().messages})),
        RpcCommand::Clear {} => clear(b).await,
        RpcCommand::SetModel { model } => {
            if model.trim().is_empty() {
                return Err(
                    "set_model: \"model\" is empty; give a model id (get_models lists them)".into(),
                );
            }
            b.inner.agent.state().model = model.clone();
            Ok(json!({"model": model}))
        }
        RpcCommand::GetModels {} => {
            let mut cache = b.inner.models.lock().await;
            if cache.is_none() {
                let models = b
                    .inner
                    .agent
                    .provider()
                    .provider
                    .list_models()
                    .await
                    .map_err(|e| e.message)?;
                *cache = Some(models);
            }
            Ok(json!({"models": cache.clone().unwrap_or_default()}))
        }
        RpcCommand::Ping {} => Ok(json!({"pong": true})),
    }
}

/// Refuses prompt images whose data is not base64, before anything runs.
pub fn check_images(images: &[ImageInput]) -> Result<(), String> {
    for i in images {
        if base64::engine::general_purpose::STANDARD
            .decode(&i.data)
            .is_err()
        {
            return Err(format!(
                "prompt: image data for {} is not valid base64",
                i.mime_type
            ));
        }
    }
    Ok(())
}

/// Drops the transcript (starting a new session file) and every note.
async fn clear(b: &Backend) -> Result<Value, String> {
    if b.abort() {
        b.idle().await;
    }
    let fresh = match &b.inner.opts.session {
        SessionChoice::Disabled => None,
        _ => Some(
            Session::create(&b.inner.opts.zot_home, &b.inner.opts.cwd)
                .map_err(|e| format!("{e:#}"))?,
        ),
    };
    {
        let mut st = b.inner.agent.state();
        st.messages.clear();
        st.usage = Default::default();
        if st.session.is_some() {
            st.session = fresh;
        }
    }
    // A cleared conversation is a new session for subscribers.
    b.inner.started.store(false, Ordering::SeqCst);
    b.announce_session();
    Ok(json!({"cleared": true}))
}

/// A slash command: built-in first, then the extensions.
async fn command(b: &Backend, name: &str, args: &str) -> Result<Value, String> {
    if name.is_empty() {
        return Err("command: \"name\" is empty; give a command name without the /".into());
    }
    match name.to_ascii_lowercase().as_str() {
        "clear" => return clear(b).await,
        "help" => {
            // The desktop's own commands (views, themes) mean nothing here.
            let mut commands: Vec<Value> = BUILTIN_COMMANDS
                .iter()
                .filter(|c| !c.desktop_only)
                .map(|c| json!({"name": c.name, "description": c.description}))
                .collect();
            for c in b.inner.host.commands() {
                commands.push(json!(c));
            }
            let text = commands
                .iter()
                .map(|c| {
                    let owner = c["extension"]
                        .as_str()
                        .map(|e| format!(" [{e}]"))
                        .unwrap_or_default();
                    format!(
                        "/{} - {}{owner}",
                        c["name"].as_str().unwrap_or(""),
                        c["description"].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            return Ok(json!({"text": text, "commands": commands}));
        }
        "model" => {
            if args.is_empty() {
                return Ok(json!({"model": b.inner.agent.state().model}));
            }
            b.inner.agent.state().model = args.to_owned();
            return Ok(json!({"model": args}));
        }
        "reload-ext" => {
            // The host itself announces the `ext_reload` event.
            let r = b.inner.host.reload().await;
            return Ok(
                json!({"stopped": r.stopped, "loaded": r.loaded, "ready": r.ready, "errors": r.errors}),
            );
        }
        _ => {}
    }
    let out = b
        .inner
        .host
        .invoke_command(name, args)
        .await
        .map_err(|e| e.to_string())?;
    let extension = out.extension;
    let r = out.response;
    let mut data = json!({"extension": extension});
    if let Some(err) = r.error.as_ref().filter(|e| !e.is_empty()) {
        b.send_after_host(UiEvent::ExtStatus {
            extension: extension.clone(),
            level: NoteLevel::Error,
            text: err.clone(),
        });
        data["error"] = json!(err);
    }
    // The host posts `ext_insert`, `ext_display` and `ext_panel_open`
    // itself, in the extension's frame order; here only the answer's data.
    match r.action {
        Some(CommandAction::Prompt) => {
            data["action"] = json!("prompt");
            if let Some(p) = r.prompt.filter(|p| !p.trim().is_empty()) {
                data["prompt"] = json!(p);
                b.enqueue(vec![Block::text(p)]);
            }
        }
        Some(CommandAction::Insert) => {
            data["action"] = json!("insert");
            data["insert"] = json!(r.insert.unwrap_or_default());
        }
        Some(CommandAction::Display) => {
            data["action"] = json!("display");
            data["display"] = json!(r.display.unwrap_or_default());
        }
        Some(CommandAction::OpenPanel) => {
            data["action"] = json!("open_panel");
            match r.open_panel {
                Some(panel) => data["open_panel"] = json!(panel),
                None => {
                    let msg = format!("extension {extension} asked to open a panel but sent no open_panel content");
                    b.send_after_host(UiEvent::ExtStatus {
                        extension: extension.clone(),
                        level: NoteLevel::Error,
                        text: msg.clone(),
                    });
                    data["error"] = json!(msg);
                }
            }
        }
        Some(CommandAction::Noop) | Some(CommandAction::Unknown) | None => {
            data["action"] = json!("noop");
        }
    }
    Ok(data)
}

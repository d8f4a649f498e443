//! Each `docs/rpc.md` command, and the slash commands (`command`): the
//! built-ins answer themselves; extension commands apply their action.

use std::sync::atomic::Ordering;

use zot_ext_host::HostError;
use zot_ext_protocol::rpc::{CommandInfo, RpcCommand, UiEvent};
use zot_ext_protocol::rpc_results::{
    AbortedResult, ClearedResult, CommandResult, CompactResult, DeliveredResult, DoneResult,
    ExtCommandResult, ExtListResult, ExtRestartResult, HelpResult, MessagesResult, ModelResult,
    ModelsResult, PongResult, ReloadResult, RpcResult, StartedResult, StateResult,
};
use zot_ext_protocol::{
    CommandAction, NoteLevel, PanelMessage, PanelMouseFrame, RpcError, BUILTIN_COMMANDS,
};

use super::Backend;
use crate::agent::session::{Session, SessionChoice};
use crate::providers::transcript::Block;

pub(super) async fn handle(b: &Backend, cmd: RpcCommand) -> Result<RpcResult, RpcError> {
    match cmd {
        RpcCommand::Hello { token } => {
            super::token::check_hello(token.as_deref())?;
            Ok(RpcResult::Hello(b.hello_data()))
        }
        RpcCommand::Prompt { message, images } => {
            let prompt = b.accept_prompt(message, images)?;
            let answer = prompt.answer();
            prompt.run();
            Ok(RpcResult::Started(answer))
        }
        RpcCommand::Command { name, args } => command(b, name.trim_start_matches('/'), args.trim())
            .await
            .map(RpcResult::Command),
        RpcCommand::Abort {} => Ok(RpcResult::Aborted(AbortedResult { aborted: b.abort() })),
        RpcCommand::PanelKey {
            panel_id,
            key,
            text,
        } => b
            .inner
            .host
            .panel_key(&panel_id, key, text)
            .map(|()| RpcResult::Done(DoneResult {}))
            .map_err(RpcError::from),
        RpcCommand::PanelClose { panel_id } => {
            b.inner.host.close_panel(&panel_id)?;
            Ok(RpcResult::Done(DoneResult {}))
        }
        RpcCommand::PanelMouse {
            panel_id,
            action,
            row,
            col,
            delta,
        } => {
            let frame = PanelMouseFrame::checked(panel_id, action, row, col, delta)
                .map_err(RpcError::invalid)?;
            let delivered = b.inner.host.panel_mouse(frame)?;
            Ok(RpcResult::Delivered(DeliveredResult { delivered }))
        }
        RpcCommand::PanelResize {
            panel_id,
            cols,
            rows,
        } => {
            if cols == 0 || rows == 0 {
                return Err(RpcError::invalid(format!(
                    "panel_resize: \"cols\" and \"rows\" must be at least 1 (got {cols}×{rows})"
                )));
            }
            let delivered = b.inner.host.panel_resize(&panel_id, cols, rows)?;
            Ok(RpcResult::Delivered(DeliveredResult { delivered }))
        }
        RpcCommand::PanelMessage { panel_id, data } => {
            let delivered = b
                .inner
                .host
                .panel_message(PanelMessage { panel_id, data })?;
            Ok(RpcResult::Delivered(DeliveredResult { delivered }))
        }
        RpcCommand::AppToolCall {
            extension,
            tool,
            args,
        } => b
            .inner
            .agent
            .app_tool_call(&extension, &tool, args)
            .await
            .map(RpcResult::AppTool),
        RpcCommand::AppMessage {
            extension,
            resource_uri,
            text,
        } => {
            if text.trim().is_empty() {
                return Err(RpcError::invalid(
                    "app_message: \"text\" is empty; an MCP App's ui/message needs text",
                ));
            }
            let from = crate::agent::PromptFrom {
                extension,
                command: None,
                app: Some(resource_uri),
            };
            b.enqueue(vec![Block::text(text)], Some(from));
            Ok(RpcResult::Started(StartedResult { started: true }))
        }
        RpcCommand::ExtList {} => Ok(RpcResult::Extensions(ExtListResult {
            extensions: b.inner.host.list_measured(),
        })),
        RpcCommand::GetState {} => {
            let st = b.inner.agent.status();
            Ok(RpcResult::State(StateResult {
                provider: b.inner.agent.provider().kind.as_str().to_owned(),
                model: st.model,
                cwd: b.inner.opts.cwd.clone(),
                message_count: st.message_count,
                busy: b.busy(),
                usage: st.usage,
                session: st.session,
            }))
        }
        RpcCommand::GetMessages {} => {
            let messages = b
                .inner
                .agent
                .messages_json()
                .map_err(|e| format!("get_messages: cannot write the transcript: {e}"))?;
            Ok(RpcResult::Messages(MessagesResult { messages }))
        }
        RpcCommand::Clear {} => clear(b).await.map(RpcResult::Cleared),
        RpcCommand::SetModel { model } => {
            if model.trim().is_empty() {
                return Err(RpcError::invalid(
                    "set_model: \"model\" is empty; give a model id (get_models lists them)",
                ));
            }
            b.inner.agent.set_model(model.clone());
            Ok(RpcResult::Model(ModelResult { model }))
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
            Ok(RpcResult::Models(ModelsResult {
                models: cache.clone().unwrap_or_default(),
            }))
        }
        RpcCommand::Ping {} => Ok(RpcResult::Pong(PongResult { pong: true })),
        RpcCommand::TrustProject { remember } => super::trust::trust(b, remember.unwrap_or(false))
            .await
            .map(RpcResult::Trusted),
        RpcCommand::UntrustProject { dir } => super::trust::untrust(b, dir)
            .await
            .map(RpcResult::Untrusted),
        RpcCommand::TrustStatus {} => Ok(RpcResult::TrustStatus(super::trust::status(b))),
        RpcCommand::ExtRestart { name } => ext_restart(b, name).await.map(RpcResult::Restarted),
        RpcCommand::ExtUpdate {
            daily: Some(true), ..
        } => super::updates::daily_check(b).await.map(RpcResult::Updates),
        RpcCommand::ExtUpdate { name, check, .. } => {
            super::updates::ext_update(b, name, check.unwrap_or(false))
                .await
                .map(RpcResult::Updates)
        }
        RpcCommand::ExtRollback { name } => super::updates::ext_rollback(b, name)
            .await
            .map(RpcResult::RolledBack),
        RpcCommand::SessionList { query } => {
            Ok(RpcResult::Sessions(super::sessions::list(b, query)))
        }
        RpcCommand::SessionOpen {
            path,
            readable_part,
        } => super::sessions::open(b, path, readable_part.unwrap_or(false))
            .await
            .map(RpcResult::SessionOpened),
        RpcCommand::SessionRename { path, title } => {
            super::sessions::rename(b, path, title).map(RpcResult::Done)
        }
        RpcCommand::SessionDelete { path } => {
            super::sessions::delete(b, path).map(RpcResult::SessionDeleted)
        }
        RpcCommand::Compact { instructions } => compact(b, instructions.as_deref())
            .await
            .map(RpcResult::Compacted),
        RpcCommand::ApproveTool {
            id,
            decision,
            remember,
            rule,
            scope,
        } => b
            .inner
            .agent
            .approvals()
            .answer(
                &id,
                decision,
                remember.unwrap_or(false),
                rule.as_deref(),
                scope,
            )
            .map(RpcResult::Approved),
        RpcCommand::ApprovalRules {} => Ok(RpcResult::ApprovalRules(
            b.inner.agent.approvals().remembered(),
        )),
        RpcCommand::ApprovalRuleForget { rule } => b
            .inner
            .agent
            .approvals()
            .forget(&rule)
            .map(RpcResult::ApprovalRules),
        RpcCommand::UiRespond {
            request_id,
            action,
            value,
        } => b
            .inner
            .host
            .ui_respond(&request_id, action, value)
            .map(|()| {
                RpcResult::UiResponded(zot_ext_protocol::rpc_results::UiRespondResult {
                    request_id,
                    action,
                })
            }),
        RpcCommand::ExtConfigGet { name } => b
            .inner
            .host
            .config_get(&name)
            .await
            .map(RpcResult::Config)
            .map_err(|e| prefixed("ext_config_get", e)),
        RpcCommand::Checkpoints {} => super::rewind::list(b).await.map(RpcResult::Checkpoints),
        RpcCommand::CheckpointPreview { checkpoint } => super::rewind::preview(b, checkpoint)
            .await
            .map(RpcResult::CheckpointPreview),
        RpcCommand::Rewind { checkpoint, scope } => super::rewind::rewind(b, checkpoint, scope)
            .await
            .map(RpcResult::Rewound),
        RpcCommand::Fork { checkpoint, code } => {
            super::rewind::fork(b, checkpoint, code.unwrap_or(false))
                .await
                .map(RpcResult::Forked)
        }
        RpcCommand::ExtConfigSet { name, values } => {
            let r = b
                .inner
                .host
                .config_set(&name, values)
                .await
                .map_err(|e| prefixed("ext_config_set", e));
            // A new secret joins the ones masked in every later answer and
            // event, this answer included.
            b.refresh_secrets();
            r.map(RpcResult::Config)
        }
    }
}

/// `compact`, `/compact`: summarises the older transcript now. Refused
/// while a prompt runs (its transcript is in use); `abort` stops it.
async fn compact(b: &Backend, instructions: Option<&str>) -> Result<CompactResult, RpcError> {
    if b.busy() {
        return Err(RpcError::busy(
            "compact: a prompt is running; wait for its done (or abort it), then compact",
        ));
    }
    let agent = b.inner.agent.clone();
    let _turn = agent.wait_turn().await;
    let (held, token) = b.inner.prompts.hold();
    let r = agent.compact(instructions, &token).await;
    drop(held);
    agent.sync_session();
    let c = r.map_err(|e| format!("compact: {e}"))?;
    Ok(CompactResult {
        before_tokens: c.before_tokens,
        after_tokens: c.after_tokens,
        summarized_messages: c.summarized,
        kept_messages: c.kept,
    })
}

/// `ext_restart`: starts extension `name` again with a fresh restart budget
/// and answers how the new run settled.
async fn ext_restart(b: &Backend, name: String) -> Result<ExtRestartResult, RpcError> {
    let host = &b.inner.host;
    host.restart(&name)
        .await
        .map_err(|e| prefixed("ext_restart", e))?;
    let s = host
        .list()
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| format!("ext_restart: extension '{name}' is gone after its restart (a reload ran at the same time); run ext_list"))?;
    Ok(ExtRestartResult {
        name,
        state: s.state,
        error: s.error,
    })
}

/// Drops the transcript (starting a new session file) and every note.
async fn clear(b: &Backend) -> Result<ClearedResult, RpcError> {
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
    b.inner.agent.start_over(fresh);
    // The new conversation holds no extension state.
    b.inner.host.restore_state(Default::default());
    // A cleared conversation is a new session for subscribers.
    b.inner.started.store(false, Ordering::SeqCst);
    b.announce_session();
    Ok(ClearedResult { cleared: true })
}

/// A slash command: built-in first, then the extensions.
async fn command(b: &Backend, name: &str, args: &str) -> Result<CommandResult, RpcError> {
    if name.is_empty() {
        return Err(RpcError::invalid(
            "command: \"name\" is empty; give a command name without the /",
        ));
    }
    match name.to_ascii_lowercase().as_str() {
        "clear" => return clear(b).await.map(CommandResult::Cleared),
        "compact" => {
            let i = Some(args).filter(|a| !a.is_empty());
            return compact(b, i).await.map(CommandResult::Compacted);
        }
        "help" => {
            // The desktop's own commands (views, themes) mean nothing here.
            let mut commands: Vec<CommandInfo> = BUILTIN_COMMANDS
                .iter()
                .filter(|c| !c.desktop_only)
                .map(|c| CommandInfo {
                    name: c.name.to_owned(),
                    description: Some(c.description.to_owned()),
                    extension: None,
                })
                .collect();
            commands.extend(b.inner.host.commands());
            let text = commands
                .iter()
                .map(|c| {
                    let owner = c
                        .extension
                        .as_deref()
                        .map(|e| format!(" [{e}]"))
                        .unwrap_or_default();
                    format!(
                        "/{} - {}{owner}",
                        c.name,
                        c.description.as_deref().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            return Ok(CommandResult::Help(HelpResult { text, commands }));
        }
        "model" => {
            if args.is_empty() {
                let model = b.inner.agent.model();
                return Ok(CommandResult::Model(ModelResult { model }));
            }
            b.inner.agent.set_model(args.to_owned());
            return Ok(CommandResult::Model(ModelResult {
                model: args.to_owned(),
            }));
        }
        "reload-ext" => {
            // The host itself announces the `ext_reload` event.
            let r = b.inner.host.reload().await;
            return Ok(CommandResult::Reload(ReloadResult {
                stopped: r.stopped,
                loaded: r.loaded,
                ready: r.ready,
                errors: r.errors,
            }));
        }
        _ => {}
    }
    let out = b.inner.host.invoke_command(name, args).await?;
    let extension = out.extension;
    let r = out.response;
    let mut data = ExtCommandResult {
        extension: extension.clone(),
        action: CommandAction::Noop,
        error: None,
        prompt: None,
        insert: None,
        display: None,
        open_panel: None,
    };
    if let Some(err) = r.error.as_ref().filter(|e| !e.is_empty()) {
        b.send_after_host(UiEvent::ExtStatus {
            extension: extension.clone(),
            level: NoteLevel::Error,
            text: err.clone(),
        });
        data.error = Some(err.clone());
    }
    // The host posts `ext_insert`, `ext_display` and `ext_panel_open`
    // itself, in the extension's frame order; here only the answer's data.
    match r.action {
        Some(CommandAction::Prompt) => {
            data.action = CommandAction::Prompt;
            if let Some(p) = r.prompt.filter(|p| !p.trim().is_empty()) {
                data.prompt = Some(p.clone());
                let from = crate::agent::PromptFrom {
                    extension: extension.clone(),
                    command: Some(name.to_owned()),
                    app: None,
                };
                b.enqueue(vec![Block::text(p)], Some(from));
            }
        }
        Some(CommandAction::Insert) => {
            data.action = CommandAction::Insert;
            data.insert = Some(r.insert.unwrap_or_default());
        }
        Some(CommandAction::Display) => {
            data.action = CommandAction::Display;
            data.display = Some(r.display.unwrap_or_default());
        }
        Some(CommandAction::OpenPanel) => {
            data.action = CommandAction::OpenPanel;
            match r.open_panel {
                Some(panel) => data.open_panel = Some(Box::new(panel)),
                None => {
                    let msg = format!("extension {extension} asked to open a panel but sent no open_panel content");
                    b.send_after_host(UiEvent::ExtStatus {
                        extension: extension.clone(),
                        level: NoteLevel::Error,
                        text: msg.clone(),
                    });
                    data.error = Some(msg);
                }
            }
        }
        Some(CommandAction::Noop) | Some(CommandAction::Unknown) | None => {}
    }
    Ok(CommandResult::Extension(data))
}

/// A host error under the command's name, keeping its code.
fn prefixed(command: &str, e: HostError) -> RpcError {
    RpcError::new(e.code(), format!("{command}: {e}"))
}

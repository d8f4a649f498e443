//! The handle the agent and the UI hold: a cheap clone over the shared
//! tables (`state.rs`), with async methods, plus one bounded stream of
//! [`HostEvent`]s. Above every runtime module: it calls them, none of them
//! calls it. Interception, reports and reload add their own `impl Host`
//! blocks one layer further up.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use zot_ext_protocol::rpc::{CommandInfo, ExtState, UiEvent};
use zot_ext_protocol::{
    CommandAction, CommandInvoked, CommandResponse, ContentBlock, Event, EventFields, HostToExt,
    LifecycleEvent, NoteLevel, PanelClose, PanelKey, PanelKeyFrame, RequestId,
};

use crate::config::HostConfig;
use crate::error::HostError;
use crate::io::codec::{self, encode};
use crate::manage::theme::LoadedTheme;
use crate::owner::deadlines;
use crate::owner::events::{Bus, HostEvent};
use crate::owner::state::Shared;
use crate::records::extension::{During, Ext, Reply, ToolWait};
use crate::records::registry::ExtTool;
use crate::records::tool_progress::{ProgressFeed, ProgressUpdate};
use crate::records::tool_target::{ToolTarget, ToolVia};
use crate::run::load::load;
use crate::run::shutdown::stop_all;

/// The answer to [`Host::invoke_command`].
#[derive(Debug, Clone, PartialEq)]
pub struct CommandOutcome {
    /// The extension that answered.
    pub extension: String,
    /// Its `command_response`; the caller applies the action.
    pub response: CommandResponse,
}

/// The answer to [`Host::call_tool`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    /// The extension that ran the tool.
    pub extension: String,
    /// What it returned.
    pub content: Vec<ContentBlock>,
    /// Whether it failed.
    pub is_error: bool,
    /// Deferred tools this result activated (unknown names are ignored).
    pub activated: Vec<String>,
    /// The MCP App to show in the tool's card (MCP servers only).
    pub app: Option<zot_ext_protocol::ToolApp>,
    /// Why the tool's MCP App is not shown.
    pub app_note: Option<String>,
    /// The MCP result's `structuredContent`.
    pub structured_content: Option<Value>,
}

/// The extension host. Clone it freely; all clones share one state.
#[derive(Clone)]
pub struct Host {
    pub(crate) inner: Arc<Shared>,
}

impl Host {
    /// Discovers extensions and spawns them in parallel; returns at once.
    /// Call inside a tokio runtime.
    pub fn start(cfg: HostConfig) -> (Host, mpsc::Receiver<HostEvent>) {
        Host::start_with_state(cfg, crate::SessionState::new())
    }

    /// [`Host::start`] in a session whose extensions already stored
    /// `state`: each one's `hello_ack.state` carries its part.
    pub fn start_with_state(
        cfg: HostConfig,
        state: crate::SessionState,
    ) -> (Host, mpsc::Receiver<HostEvent>) {
        let (bus, rx) = Bus::new();
        let inner = Arc::new(Shared::new(cfg, bus));
        *inner.session_state.lock() = state;
        tokio::spawn(deadlines::sweep(inner.deadlines.clone()));
        load(&inner);
        (Host { inner }, rx)
    }

    /// Waits until every spawned extension is ready (explicitly, or by the
    /// 250 ms idle rule within its 3 s grace after `hello_ack`), failed or
    /// exited, except that one which has not said `hello` within
    /// `startup_wait` (5 s) is left to finish starting in the background: a
    /// `go run .` that builds for 15 s must neither fail (the reference zot
    /// waits for it) nor hold up the app and the other extensions. It joins
    /// the registries when it is ready, with an `ext_changed` event.
    pub async fn wait_ready(&self) {
        let exts = self.inner.lock().exts.clone();
        let until = Instant::now() + self.inner.cfg.startup_wait;
        for e in exts {
            let mut rx = e.run().settled.subscribe();
            let settled = rx.wait_for(|s| *s);
            tokio::pin!(settled);
            tokio::select! {
                _ = &mut settled => continue,
                _ = tokio::time::sleep_until(until) => {}
            }
            if e.lock().said_hello {
                // Only its bounded registration window is left.
                let _ = settled.await;
            }
        }
    }

    /// Waits until every spawned extension is ready, failed or exited, however
    /// long its start takes (at most the hello timeout plus the registration
    /// grace). For the doctor and the install preview, which must say how a
    /// slow starter ends rather than that it is still starting.
    pub async fn wait_settled(&self) {
        let exts = self.inner.lock().exts.clone();
        for e in exts {
            let mut rx = e.run().settled.subscribe();
            let _ = rx.wait_for(|s| *s).await;
        }
    }

    /// Active extension commands, in load order.
    pub fn commands(&self) -> Vec<CommandInfo> {
        let st = self.inner.lock();
        let reg = &st.registry;
        reg.command_order
            .iter()
            .filter_map(|k| reg.commands.get(k))
            .map(|(c, owner)| CommandInfo {
                name: c.name.clone(),
                description: c.description.clone(),
                extension: Some(st.name_of(*owner)),
            })
            .collect()
    }

    /// Tools to advertise: every non-deferred tool plus activated deferred ones.
    pub fn tools(&self) -> Vec<ExtTool> {
        let st = self.inner.lock();
        let reg = &st.registry;
        reg.tool_order
            .iter()
            .filter_map(|n| reg.tools.get(n))
            .filter(|(t, _)| !t.deferred || st.activated.contains(&t.name))
            .map(|(t, owner)| ExtTool {
                name: t.name.clone(),
                description: t.description.clone(),
                schema: t.schema.clone(),
                extension: st.name_of(*owner),
                deferred: t.deferred,
                read_only: t.read_only,
                destructive: t.destructive,
            })
            .collect()
    }

    /// Deferred tools not activated yet: what a provider that loads tools
    /// natively (Anthropic's tool search, Kimi's `select_tools`) offers
    /// for loading.
    pub fn deferred_tools(&self) -> Vec<ExtTool> {
        let st = self.inner.lock();
        let reg = &st.registry;
        reg.tool_order
            .iter()
            .filter_map(|n| reg.tools.get(n))
            .filter(|(t, _)| t.deferred && !st.activated.contains(&t.name))
            .map(|(t, owner)| ExtTool {
                name: t.name.clone(),
                description: t.description.clone(),
                schema: t.schema.clone(),
                extension: st.name_of(*owner),
                deferred: true,
                read_only: t.read_only,
                destructive: t.destructive,
            })
            .collect()
    }

    /// Themes shipped by extensions (shadowed ones left out).
    pub fn themes(&self) -> Vec<LoadedTheme> {
        self.inner.lock().themes.clone()
    }

    /// Runs an extension command by name (case-insensitive, `/` optional).
    /// The answer's `insert`, `display` and `open_panel` actions are also
    /// posted as UI events (see `actions.rs`); an `open_panel` answer makes
    /// the extension that panel's owner.
    pub async fn invoke_command(
        &self,
        name: &str,
        args: &str,
    ) -> Result<CommandOutcome, HostError> {
        let key = name.trim().trim_start_matches('/').to_lowercase();
        let found = {
            let st = self.inner.lock();
            st.registry
                .commands
                .get(&key)
                .and_then(|(c, id)| Some((c.clone(), st.ext(*id)?.clone())))
        };
        let Some((cmd, ext)) = found else {
            return Err(HostError::UnknownCommand(
                name.trim_start_matches('/').to_owned(),
            ));
        };
        let _in_use = crate::run::on_use::ensure_running(&self.inner, &ext).await?;
        let during = During::Command(cmd.name.clone());
        let reply = ext
            .request(during, self.inner.cfg.command_timeout, |id| {
                encode(&HostToExt::CommandInvoked(CommandInvoked {
                    id: RequestId(id.to_owned()),
                    name: cmd.name.clone(),
                    args: args.trim().to_owned(),
                }))
            })
            .await?;
        // `complete` only delivers replies of the kind the request expects;
        // anything else is still an error for the caller, never a panic.
        let response = match reply {
            Reply::Command(r) => r,
            other => return Err(ext.wrong_reply(&During::Command(cmd.name.clone()), other.kind())),
        };
        if response.action == Some(CommandAction::Unknown) {
            ext.log.line(&format!(
                "command '/{}' answered with an unknown action; treated as noop",
                cmd.name
            ));
        }
        Ok(CommandOutcome {
            extension: ext.name.clone(),
            response,
        })
    }

    /// The extension tool called `name` (deferred ones too), resolved once
    /// for the caller to check and then call with [`Host::call_target`].
    pub fn resolve_tool(&self, name: &str) -> Option<ToolTarget> {
        let st = self.inner.lock();
        let (tool, owner) = st.registry.tools.get(name)?;
        let ext = st.ext(*owner)?;
        let mcp = ext.target.as_ref().is_some_and(|t| t.is_mcp());
        Some(ToolTarget {
            name: tool.name.clone(),
            extension: ext.name.clone(),
            via: if mcp {
                ToolVia::Mcp
            } else {
                ToolVia::Extension
            },
            deferred: tool.deferred,
            read_only: tool.read_only,
            destructive: tool.destructive,
            owner: *owner,
        })
    }

    /// Calls an extension tool with the model's args and waits for its
    /// result (the idle timeout, 60 s by default, restarted by each
    /// `tool_progress`; at most the manifest's `tool_timeout_s`).
    pub async fn call_tool(&self, name: &str, args: Value) -> Result<ToolOutcome, HostError> {
        self.call_tool_with(name, args, &|_| {}).await
    }

    /// [`Host::call_tool`] with [`Host::call_target`]'s progress.
    pub async fn call_tool_with(
        &self,
        name: &str,
        args: Value,
        on_progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
    ) -> Result<ToolOutcome, HostError> {
        let target = self
            .resolve_tool(name)
            .ok_or_else(|| HostError::UnknownTool(name.to_owned()))?;
        self.call_target(&target, args, on_progress).await
    }

    /// Calls the tool `target` names, handing its `tool_progress` to
    /// `on_progress`: merged, at most one update per UI frame
    /// ([`crate::records::tool_progress::FRAME`]), the last one before the
    /// result. Dropping the future sends the extension `tool_cancel`. A
    /// target whose owner no longer owns the name (a reload moved it, the
    /// extension left) is an unknown tool.
    pub async fn call_target(
        &self,
        target: &ToolTarget,
        args: Value,
        on_progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
    ) -> Result<ToolOutcome, HostError> {
        let feed = Arc::new(ProgressFeed::default());
        let call = self.call_target_fed(target, args, feed.clone());
        crate::records::tool_progress::drive(&feed, call, on_progress).await
    }

    async fn call_target_fed(
        &self,
        target: &ToolTarget,
        args: Value,
        feed: Arc<ProgressFeed>,
    ) -> Result<ToolOutcome, HostError> {
        let ext = {
            let st = self.inner.lock();
            let still_owned = st
                .registry
                .tools
                .get(&target.name)
                .is_some_and(|(_, owner)| *owner == target.owner);
            still_owned.then(|| st.ext(target.owner).cloned()).flatten()
        };
        let Some(ext) = ext else {
            return Err(HostError::UnknownTool(target.name.clone()));
        };
        let tool_name = &target.name;
        let _in_use = crate::run::on_use::ensure_running(&self.inner, &ext).await?;
        let cap_secs = crate::io::limits::tool_timeout_s(ext.manifest.as_ref());
        let wait = ToolWait {
            cap: tokio::time::Instant::now() + Duration::from_secs(cap_secs),
            cap_secs,
            feed: Some(feed),
        };
        let reply = ext
            .request_tool(
                During::Tool(tool_name.clone()),
                self.inner.cfg.tool_timeout,
                Some(wait),
                |id| codec::tool_call_line(id, tool_name, &args),
            )
            .await?;
        let result = match reply {
            Reply::Tool(r) => r,
            other => return Err(ext.wrong_reply(&During::Tool(tool_name.clone()), other.kind())),
        };
        let activated = self.activate(&ext, &result.activate_tools);
        // Only zot's MCP translator puts an app on a result (read from the
        // server's `ui://` resource); a native extension's is dropped.
        let mcp = ext
            .manifest
            .as_ref()
            .is_some_and(|m| m.kind == zot_ext_protocol::ExtKind::Mcp);
        if !mcp && (result.app.is_some() || result.app_note.is_some()) {
            ext.log.line("tool_result carries \"app\", which only MCP servers' results may; ignored (open an HTML panel instead)");
        }
        Ok(ToolOutcome {
            extension: ext.name.clone(),
            content: result.content,
            is_error: result.is_error,
            activated,
            app: result.app.filter(|_| mcp),
            app_note: result.app_note.filter(|_| mcp),
            structured_content: result.structured_content,
        })
    }

    fn activate(&self, ext: &Ext, names: &[String]) -> Vec<String> {
        if names.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut newly = false;
        {
            let mut st = self.inner.lock();
            let reg = st.registry.clone();
            for n in names {
                match reg.tools.get(n) {
                    // Only its own: one extension must not put another's
                    // tools in front of the model.
                    Some((t, owner)) if t.deferred && *owner == ext.id => {
                        newly |= st.activated.insert(n.clone());
                        out.push(n.clone());
                    }
                    Some((t, _)) if t.deferred => ext.log.line(&format!(
                        "activate_tools names '{n}', a deferred tool of another extension; an extension may only activate its own tools; ignored"
                    )),
                    _ => ext.log.line(&format!(
                        "activate_tools names '{n}', which is not a registered deferred tool; ignored"
                    )),
                }
            }
        }
        if newly {
            self.inner.changed();
        }
        out
    }

    /// Tells every subscriber of `event`; one-way, never waits.
    pub fn emit(&self, event: LifecycleEvent, fields: EventFields) {
        let exts = self.inner.lock().exts.clone();
        let mut line: Option<Vec<u8>> = None;
        for e in exts {
            let wants = {
                let m = e.lock();
                m.state == Some(ExtState::Ready) && m.events.contains(&event)
            };
            if wants {
                let line = line.get_or_insert_with(|| {
                    encode(&HostToExt::Event(Event {
                        event: event.into(),
                        fields: fields.clone(),
                    }))
                });
                e.send_one_way(line);
            }
        }
    }
}

impl Host {
    /// Forwards a key to the extension that owns `panel_id`. A key never
    /// starts an extension: a panel is open only while its owner runs, so
    /// a key for one that is not open (its owner crashed or was stopped)
    /// gets a status or [`HostError::UnknownPanel`], never a spawn.
    pub fn panel_key(
        &self,
        panel_id: &str,
        key: PanelKey,
        text: Option<String>,
    ) -> Result<(), HostError> {
        let owner = {
            let st = self.inner.lock();
            st.panels.owner(panel_id).and_then(|id| st.ext(id).cloned())
        };
        let Some(owner) = owner else {
            return self.key_for_crashed_panel(panel_id);
        };
        owner.send_one_way(&encode(&HostToExt::PanelKey(PanelKeyFrame {
            panel_id: panel_id.to_owned(),
            key,
            text,
        })));
        Ok(())
    }

    /// A key for a panel that is not open: when its owner's crash closed
    /// it, the key is dropped and one status says so (the user typing on
    /// gets no error per key); otherwise the panel is unknown.
    pub(crate) fn key_for_crashed_panel(&self, panel_id: &str) -> Result<(), HostError> {
        let exts = self.inner.lock().exts.clone();
        for ext in exts {
            let (told, state) = {
                let mut m = ext.lock();
                let state = m.state;
                match m.crashed_panels.iter_mut().find(|(p, _)| p == panel_id) {
                    Some((_, told)) => (std::mem::replace(told, true), state),
                    None => continue,
                }
            };
            if told {
                // Said once; the rest of what the user types is dropped quietly.
                return Ok(());
            }
            let text = match state {
                Some(ExtState::Ready) => format!(
                    "'{}' crashed and has restarted; its panel closed: open it again with its command",
                    ext.name
                ),
                Some(ExtState::Crashed) => format!(
                    "'{}' crashed and stays down; its panel closed: Restart it in the extension manager",
                    ext.name
                ),
                // An on_use extension rests after a crash; a key never
                // starts it (docs/host.md "Activation on first use").
                Some(ExtState::Idle) => format!(
                    "'{}' crashed; its panel closed: open it again with its command, which starts it again",
                    ext.name
                ),
                _ => format!(
                    "'{}' crashed and is restarting; its panel closed: open it again once it is back",
                    ext.name
                ),
            };
            self.inner.post(
                HostEvent::Ui(UiEvent::ExtStatus {
                    extension: ext.name.clone(),
                    level: NoteLevel::Warn,
                    text,
                }),
                None,
            );
            return Ok(());
        }
        Err(HostError::UnknownPanel(panel_id.to_owned()))
    }

    /// The user closed `panel_id`: forget it and send `panel_close` to its owner.
    pub fn close_panel(&self, panel_id: &str) -> Result<(), HostError> {
        let owner = {
            let mut st = self.inner.lock();
            st.panels
                .remove(panel_id)
                .and_then(|id| st.ext(id).cloned())
        };
        let owner = owner.ok_or_else(|| HostError::UnknownPanel(panel_id.to_owned()))?;
        owner.send_one_way(&encode(&HostToExt::PanelClose(PanelClose {
            panel_id: panel_id.to_owned(),
        })));
        // An open panel keeps an on_use extension running; its idle
        // timer counts from here.
        owner.uses.touch();
        Ok(())
    }

    /// Ids of the open panels and their owners.
    pub fn open_panels(&self) -> Vec<(String, String)> {
        let st = self.inner.lock();
        st.panels
            .list()
            .into_iter()
            .map(|(id, o)| (id, st.name_of(o)))
            .collect()
    }

    /// Answers the dialog `request_id` (the window's or an RPC client's
    /// `ui_respond`): `Err` says why not (an unknown id, or a value that
    /// does not fit, naming the field; the dialog then stays open).
    pub fn ui_respond(
        &self,
        request_id: &str,
        action: zot_ext_protocol::DialogAction,
        value: Option<Value>,
    ) -> Result<(), zot_ext_protocol::RpcError> {
        crate::run::dialogs::answer(&self.inner, request_id, action, value)
    }

    /// Writes `line` to extension `extension`'s log (what its MCP App
    /// asked zot to do, for review); nothing when no such extension.
    pub fn log_line(&self, extension: &str, line: &str) {
        let ext = self
            .inner
            .lock()
            .exts
            .iter()
            .find(|e| e.name == extension)
            .cloned();
        if let Some(e) = ext {
            e.log.line(line);
        }
    }

    /// The address of the waiting `url` dialog `request_id` (an MCP
    /// server's URL-mode elicitation), for the window to open on accept.
    pub fn dialog_url(&self, request_id: &str) -> Option<String> {
        crate::run::dialogs::url_of(&self.inner, request_id)
    }

    /// Marks a prompt as running (`Some(n)`, unique per prompt) or none:
    /// dialogs raised meanwhile belong to it, and [`Host::abort_dialogs`]
    /// cancels them.
    pub fn dialogs_turn(&self, turn: Option<u64>) {
        self.inner.lock().dialogs.set_turn(turn);
    }

    /// The running prompt is being aborted: its dialogs end with `cancel`
    /// (reason "aborted"); those raised outside a prompt stay.
    pub fn abort_dialogs(&self) {
        crate::run::dialogs::cancel_turn(&self.inner);
    }

    /// Shuts every extension down in parallel and waits until each process
    /// (and its process group) is gone.
    pub async fn shutdown(&self) {
        // Under the activation gate: a first use either started its run
        // before this (and the stop below finds that run) or sees `closing`
        // and starts nothing, never a run that outlives the shutdown.
        {
            let _gate = self
                .inner
                .activation_gate
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            self.inner
                .closing
                .store(true, std::sync::atomic::Ordering::Release);
        }
        // After a reload in flight, so the set it starts is stopped too.
        let _serial = self.inner.lifecycle.lock().await;
        let exts = self.inner.lock().exts.clone();
        stop_all(&exts).await;
    }
}

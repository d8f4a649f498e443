//! MCP servers as extensions (docs/rpc.md "MCP servers", docs/mcp.md): a
//! translator that speaks zot frames to the host and MCP to the server,
//! through the official Rust SDK (`rmcp`). The host sees an ordinary
//! extension behind a [`FrameSink`] / [`FrameSource`] pair: `initialize`
//! becomes `hello`, `tools/list` becomes `register_tool`s, prompts become
//! `register_command`s (`/server:prompt`), then `ready`; a `tool_call`
//! becomes `tools/call` and its answer a `tool_result`. Everything above
//! (the pending table and its timeouts, interception, the registry's
//! shadowing rules, `tool_result.extension`, supervision and its restart
//! budget, logs) is therefore the one native extensions have.
//!
//! What has no zot frame is done here with the host's own methods:
//! `notifications/tools/list_changed` replaces the entry's tools in one
//! step with the registry (`router::replace_tools`), progress becomes
//! `tool_progress`, and a call the agent abandons (`abort`) is cancelled with
//! `notifications/cancelled` ([`FrameSink::cancel`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotification, CancelledNotificationParam,
    ClientCapabilities, ClientConfig, ClientNotification, ClientRequest, GetPromptRequestParams,
    Implementation, ProgressNotificationParam, ProgressToken, Prompt, RequestId as McpId,
    ServerResult, Tool,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RoleClient, RunningService};
use rmcp::{ClientHandler, Peer, ServiceExt};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc::UnboundedSender;
use zot_ext_protocol::{
    CommandAction, CommandResponse, ContentBlock, ExtToHost, Hello, HostToExt, Ready,
    RegisterCommand, RegisterTool, RequestId, ToolResult,
};

mod apps;
mod elicit;

use crate::io::channel_transport::{ChannelSource, Incoming};
use crate::io::codec::encode_ext;
use crate::io::connection::{FrameSink, FrameSource, SendError};
use crate::owner::state::Shared;
use crate::records::extension::Ext;
use zot_ext_protocol::rpc::ExtState;

/// More tools than this and the server's tools are registered deferred,
/// behind one search tool (`<name>_tools`) that activates the ones a query
/// matches: a server with 80 tools would otherwise put 80 schemas into
/// every request. 32 keeps every server we have seen in common use (the
/// reference servers have 8 to 20) fully visible. docs/mcp.md.
pub const DEFER_TOOLS_OVER: usize = 32;

/// Most deferred tools one search activates.
const MAX_ACTIVATE: usize = 8;

/// How the host reaches the server.
pub(crate) enum McpTarget {
    /// A spawned server's pipes (the supervisor owns the process).
    Stdio {
        /// Its stdin.
        stdin: std::os::fd::OwnedFd,
        /// Its stdout.
        stdout: tokio::process::ChildStdout,
    },
    /// A streamable-HTTP endpoint.
    Http {
        /// The endpoint.
        url: String,
        /// Headers for every request.
        headers: Vec<(String, String)>,
    },
}

/// One run's translator state, shared by the sink, the client handler and
/// the call tasks.
struct Bridge {
    inner: Arc<Shared>,
    ext: Arc<Ext>,
    /// Frames to the host.
    tx: UnboundedSender<Incoming>,
    peer: OnceLock<Peer<RoleClient>>,
    stop: Mutex<Option<rmcp::service::RunningServiceCancellationToken>>,
    names: Mutex<Names>,
    /// zot request id → the call in flight.
    calls: Mutex<HashMap<String, Call>>,
    /// The connection task, ended with the sink (a handshake that never
    /// finishes must not outlive its run).
    task: Mutex<Option<tokio::task::AbortHandle>>,
    /// Held while registrations are framed (the first listing, each list
    /// change), so a `list_changed` that arrives during the handshake (the
    /// npm reference server sends one at start) cannot put a
    /// `register_tool` before `hello`, nor two listings' frames between
    /// each other.
    listing: tokio::sync::Mutex<()>,
    /// Elicitations waiting for the user's `ui_response` (`mcp/elicit.rs`).
    elicits: Mutex<HashMap<String, tokio::sync::oneshot::Sender<zot_ext_protocol::UiResponse>>>,
}

/// The zot names of this server's tools and prompts.
#[derive(Default)]
struct Names {
    /// zot tool name → MCP tool name.
    tools: HashMap<String, String>,
    /// The search tool's name when the tools are deferred.
    finder: Option<String>,
    /// Deferred tools: (zot name, description), for the search tool.
    deferred: Vec<(String, String)>,
    /// zot command (lower-case) → the prompt.
    prompts: HashMap<String, Prompt>,
    /// zot tool name → the `ui://` app its results are shown with.
    apps: HashMap<String, String>,
}

struct Call {
    tool: String,
    mcp_id: Option<McpId>,
    progress: Option<ProgressToken>,
    task: Option<tokio::task::AbortHandle>,
}

/// Starts the translator over `target`; the returned pair is the
/// extension's connection. The handshake runs in the background: the
/// source yields `hello` once `initialize` succeeded (the supervisor's
/// hello timeout bounds it), or an error that says why it failed.
pub(crate) fn start(
    inner: Arc<Shared>,
    ext: Arc<Ext>,
    target: McpTarget,
) -> (Arc<dyn FrameSink>, Box<dyn FrameSource>) {
    let (tx, source) = ChannelSource::new();
    let bridge = Arc::new(Bridge {
        inner,
        ext,
        tx,
        peer: OnceLock::new(),
        stop: Mutex::new(None),
        names: Mutex::new(Names::default()),
        calls: Mutex::new(HashMap::new()),
        task: Mutex::new(None),
        listing: tokio::sync::Mutex::new(()),
        elicits: Mutex::new(HashMap::new()),
    });
    let b = bridge.clone();
    let task = tokio::spawn(async move { b.run(target).await });
    *bridge.task.lock().unwrap_or_else(|e| e.into_inner()) = Some(task.abort_handle());
    (Arc::new(McpSink(bridge)), Box::new(source))
}

/// What the client says about itself in `initialize`.
fn client_info() -> ClientConfig {
    let mut caps = ClientCapabilities::default();
    // Elicitation becomes a form or url dialog (`mcp/elicit.rs`).
    caps.elicitation = serde_json::from_value(json!({"form": {}, "url": {}})).ok();
    // Tools with a `ui://` app have it rendered in their card (`mcp/apps.rs`).
    let mut ui = Map::new();
    ui.insert("mimeTypes".into(), json!([zot_ext_protocol::MCP_APP_MIME]));
    caps.extensions = Some(
        [(zot_ext_protocol::MCP_APPS_EXTENSION.to_owned(), ui)]
            .into_iter()
            .collect(),
    );
    ClientConfig::new(caps, Implementation::new("zot", env!("CARGO_PKG_VERSION")))
}

impl Bridge {
    fn frame(&self, f: &ExtToHost) {
        let _ = self.tx.send(Ok(encode_ext(f)));
    }

    fn log(&self, line: &str) {
        self.ext.log.line(line);
    }

    /// Connects, initializes, registers, then waits for the end of the
    /// connection and reports it.
    async fn run(self: Arc<Self>, target: McpTarget) {
        let handler = Handler(self.clone());
        let stdio = matches!(target, McpTarget::Stdio { .. });
        let running = match target {
            McpTarget::Stdio { stdin, stdout } => {
                let stdin = match tokio::net::unix::pipe::Sender::from_owned_fd(stdin) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = self.tx.send(Err(format!("could not use its stdin: {e}")));
                        return;
                    }
                };
                handler
                    .serve((stdout, stdin))
                    .await
                    .map_err(|e| e.to_string())
            }
            McpTarget::Http { url, headers } => match http_transport(&url, &headers) {
                Ok(t) => handler.serve(t).await.map_err(|e| e.to_string()),
                Err(e) => Err(e),
            },
        };
        let running: RunningService<RoleClient, Handler> = match running {
            Ok(r) => r,
            Err(e) => {
                let _ = self
                    .tx
                    .send(Err(format!("the MCP handshake (initialize) failed: {e}")));
                return;
            }
        };
        let peer = running.peer().clone();
        let _ = self.peer.set(peer.clone());
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(running.cancellation_token());
        let server = running
            .peer_info()
            .and_then(|i| {
                i.server_info
                    .as_ref()
                    .map(|s| format!("{} {}", s.name, s.version))
            })
            .unwrap_or_else(|| "an unnamed server".into());
        self.log(&format!("MCP: initialized with {server}"));
        // Everything is listed before `hello`, so the registrations follow
        // it at once: a slow `tools/list` must not let the host's 250 ms
        // idle rule call the entry ready with no tools yet.
        let listing = self.listing.lock().await;
        let tools = match peer.list_all_tools().await {
            Ok(tools) => tools,
            Err(e) => {
                self.log(&format!("MCP: tools/list failed: {e}; no tools registered"));
                Vec::new()
            }
        };
        let has_prompts = running
            .peer_info()
            .is_some_and(|i| i.capabilities.prompts.is_some());
        let prompts = if has_prompts {
            match peer.list_all_prompts().await {
                Ok(prompts) => prompts,
                Err(e) => {
                    self.log(&format!("MCP: prompts/list failed: {e}"));
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        self.frame(&ExtToHost::Hello(Hello {
            name: self.ext.name.clone(),
            version: None,
            capabilities: Vec::new(),
            auth: None,
        }));
        self.register_tools(tools);
        self.register_prompts(prompts);
        self.frame(&ExtToHost::Ready(Ready {}));
        drop(listing);
        let why = match running.waiting().await {
            Ok(rmcp::service::QuitReason::Cancelled) => None,
            // A stdio server's end is its process's exit, which the
            // supervisor reports with its status (and restarts).
            Ok(rmcp::service::QuitReason::Closed) if stdio => None,
            Ok(rmcp::service::QuitReason::Closed) => {
                Some("the MCP server closed the connection".to_owned())
            }
            Ok(other) => Some(format!("the MCP connection ended ({other:?})")),
            Err(e) => Some(format!("the MCP client stopped: {e}")),
        };
        if let Some(why) = why {
            let _ = self.tx.send(Err(why));
        }
    }

    /// Registers `tools` (the first listing, framed after `hello`):
    /// deferred behind a search tool when there are many.
    fn register_tools(&self, tools: Vec<Tool>) {
        for f in self.tool_frames(tools) {
            self.frame(&ExtToHost::RegisterTool(f));
        }
    }

    /// The registrations for `tools`; the zot → MCP names take their place.
    fn tool_frames(&self, tools: Vec<Tool>) -> Vec<RegisterTool> {
        let deferred = tools.len() > DEFER_TOOLS_OVER;
        let mut names = Names::default();
        let mut frames = Vec::new();
        for t in tools {
            let zot = tool_name(&t.name);
            let ui = apps::tool_ui(&t);
            if ui.app_only {
                // The model must never see it; apps calling their own
                // app-only tools is not supported yet (docs/mcp.md).
                self.log(&format!(
                    "MCP: tool '{}' is for its app only (_meta.ui.visibility); not offered to the model",
                    t.name
                ));
                continue;
            }
            if let Some(uri) = ui.resource_uri {
                names.apps.insert(zot.clone(), uri);
            }
            if zot != t.name {
                self.log(&format!(
                    "MCP: tool '{}' is offered as '{zot}' (tool names may use only letters, digits, '_' and '-')",
                    t.name
                ));
            }
            let ann = t.annotations.clone().unwrap_or_default();
            let description = t.description.as_deref().map(str::to_owned).or(t.title);
            if deferred {
                names
                    .deferred
                    .push((zot.clone(), description.clone().unwrap_or_default()));
            }
            frames.push(RegisterTool {
                name: zot.clone(),
                description,
                schema: Value::Object((*t.input_schema).clone()),
                deferred,
                read_only: ann.read_only_hint.unwrap_or(false),
                destructive: ann.destructive_hint.unwrap_or(false),
            });
            names.tools.insert(zot, t.name.into_owned());
        }
        if deferred {
            let finder = tool_name(&format!("{}_tools", self.ext.name));
            frames.insert(0, RegisterTool {
                name: finder.clone(),
                description: Some(format!(
                    "Search the {} tools of the MCP server '{}' by words of their name or purpose; the matches become callable.",
                    frames.len(),
                    self.ext.name
                )),
                schema: json!({"type":"object","properties":{"query":{"type":"string","description":"words to look for"}},"required":["query"]}),
                read_only: true,
                ..Default::default()
            });
            names.finder = Some(finder);
            self.log(&format!(
                "MCP: {} tools (over {DEFER_TOOLS_OVER}): registered deferred behind '{}'",
                frames.len() - 1,
                names.finder.as_deref().unwrap_or_default()
            ));
        }
        {
            let mut n = self.names.lock().unwrap_or_else(|e| e.into_inner());
            names.prompts = std::mem::take(&mut n.prompts);
            *n = names;
        }
        frames
    }

    fn register_prompts(&self, prompts: Vec<Prompt>) {
        let mut frames = Vec::new();
        {
            let mut n = self.names.lock().unwrap_or_else(|e| e.into_inner());
            for p in prompts {
                let cmd = format!("{}:{}", self.ext.name, tool_name(&p.name));
                frames.push(RegisterCommand {
                    name: cmd.clone(),
                    description: Some(prompt_usage(&p)),
                });
                n.prompts.insert(cmd.to_lowercase(), p);
            }
        }
        for f in frames {
            self.frame(&ExtToHost::RegisterCommand(f));
        }
    }

    /// `notifications/tools/list_changed`: the new list replaces the old
    /// one in the registry in one step, so the old list serves until the
    /// new one is in and a call to a tool the server still has never fails
    /// on the swap. Servers announce a change right after the handshake:
    /// the swap then waits until the first listing's frames are routed
    /// (the entry is ready), or they would land on top of it.
    async fn tools_changed(&self, peer: Peer<RoleClient>) {
        let _listing = self.listing.lock().await;
        match peer.list_all_tools().await {
            Ok(tools) => {
                if !self.first_listing_routed().await {
                    return;
                }
                self.log(&format!(
                    "MCP: the tool list changed; now {} tools",
                    tools.len()
                ));
                let frames = self.tool_frames(tools);
                crate::run::router::replace_tools(&self.inner, &self.ext, frames);
            }
            Err(e) => self.log(&format!(
                "MCP: the tool list changed but tools/list failed: {e}; kept the old list"
            )),
        }
    }

    /// Waits until the entry has left `loading` (its `ready`, framed after
    /// the first listing, was routed); false when the run ended instead.
    async fn first_listing_routed(&self) -> bool {
        // The router takes the frames in its own task and marks the run
        // settled when it routes `ready` (or the run ends): wait for that,
        // not for a poll's next look.
        let mut settled = self.ext.run().settled.subscribe();
        let _ = tokio::time::timeout(crate::config::HELLO_TIMEOUT, settled.wait_for(|s| *s)).await;
        self.ext.lock().state == Some(ExtState::Ready)
    }

    /// `notifications/prompts/list_changed`: the commands are replaced.
    async fn prompts_changed(&self, peer: Peer<RoleClient>) {
        let _listing = self.listing.lock().await;
        match peer.list_all_prompts().await {
            Ok(prompts) => {
                self.log(&format!(
                    "MCP: the prompt list changed; now {} prompts",
                    prompts.len()
                ));
                self.names
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .prompts
                    .clear();
                self.inner.update(&self.ext, |m| m.commands.clear());
                self.register_prompts(prompts);
                self.inner.rebuild_soon();
            }
            Err(e) => self.log(&format!(
                "MCP: the prompt list changed but prompts/list failed: {e}; kept the old list"
            )),
        }
    }

    /// A `tool_call` from the host.
    fn call(self: &Arc<Self>, id: RequestId, name: String, args: Value) {
        let (mcp_name, finder, app) = {
            let n = self.names.lock().unwrap_or_else(|e| e.into_inner());
            (
                n.tools.get(&name).cloned(),
                n.finder.clone(),
                n.apps.get(&name).cloned(),
            )
        };
        if finder.as_deref() == Some(name.as_str()) {
            let result = self.search(&id, &args);
            self.frame(&ExtToHost::ToolResult(result));
            return;
        }
        let Some(mcp_name) = mcp_name else {
            self.frame(&ExtToHost::ToolResult(error_result(
                id,
                format!("MCP server '{}' has no tool '{name}'", self.ext.name),
            )));
            return;
        };
        let Some(peer) = self.peer.get().cloned() else {
            self.frame(&ExtToHost::ToolResult(error_result(
                id,
                "the MCP server is not connected".into(),
            )));
            return;
        };
        let key = id.as_str().to_owned();
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).insert(
            key.clone(),
            Call {
                tool: name.clone(),
                mcp_id: None,
                progress: None,
                task: None,
            },
        );
        let b = self.clone();
        let mine = key.clone();
        let task = tokio::spawn(async move {
            let result = b.call_remote(&peer, &key, &mcp_name, args).await;
            b.calls
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&key);
            let result = match result {
                Ok(mut r) => {
                    if let Some(uri) = app {
                        b.attach_app(&peer, &name, &uri, &mut r).await;
                    }
                    r
                }
                Err(e) => error_result(
                    id,
                    format!(
                        "MCP server '{}' failed tool '{name}': {e}; see {}",
                        b.ext.name,
                        b.ext.log_path().display()
                    ),
                ),
            };
            b.frame(&ExtToHost::ToolResult(result));
        });
        if let Some(c) = self
            .calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&mine)
        {
            c.task = Some(task.abort_handle());
        }
    }

    async fn call_remote(
        &self,
        peer: &Peer<RoleClient>,
        key: &str,
        tool: &str,
        args: Value,
    ) -> Result<ToolResult, String> {
        let arguments = match args {
            Value::Object(m) => m,
            Value::Null => Map::new(),
            other => return Err(format!("its arguments must be an object, not {other}")),
        };
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| e.to_string())?;
        if let Some(c) = self
            .calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(key)
        {
            c.mcp_id = Some(handle.id.clone());
            c.progress = Some(handle.progress_token.clone());
        }
        match handle.await_response().await.map_err(|e| e.to_string())? {
            ServerResult::CallToolResult(r) => {
                let v = serde_json::to_value(&r).map_err(|e| e.to_string())?;
                Ok(ToolResult {
                    id: RequestId(key.to_owned()),
                    content: content_blocks(&v),
                    is_error: r.is_error.unwrap_or(false),
                    structured_content: v.get("structuredContent").cloned(),
                    ..Default::default()
                })
            }
            other => Err(format!(
                "it answered tools/call with something else: {}",
                serde_json::to_string(&other).unwrap_or_default()
            )),
        }
    }

    /// Reads tool `name`'s app at `uri` onto its result `r`, or says on
    /// `r` (and in the log) why it cannot be shown.
    async fn attach_app(&self, peer: &Peer<RoleClient>, name: &str, uri: &str, r: &mut ToolResult) {
        match apps::fetch(peer, uri).await {
            Ok(mut app) => {
                if let Some(csp) = &app.csp {
                    // Audit trail: what the app may reach is in the log.
                    self.log(&format!("MCP: app {uri} of tool '{name}' declares {csp:?}"));
                }
                app.structured_content = r.structured_content.clone();
                r.app = Some(app);
            }
            Err(why) => {
                let note = format!("tool '{name}': {why}; showing its plain result");
                self.log(&format!("MCP: {note}"));
                r.app_note = Some(note);
            }
        }
    }

    /// The search tool of a server with deferred tools.
    fn search(&self, id: &RequestId, args: &Value) -> ToolResult {
        let query = args
            .get("query")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_lowercase();
        let words: Vec<&str> = query.split_whitespace().collect();
        let n = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let hits: Vec<&(String, String)> = n
            .deferred
            .iter()
            .filter(|(name, desc)| {
                let hay = format!("{} {}", name.to_lowercase(), desc.to_lowercase());
                words.is_empty() || words.iter().any(|w| hay.contains(w))
            })
            .take(MAX_ACTIVATE)
            .collect();
        let text = if hits.is_empty() {
            format!("No tool of '{}' matches '{query}'.", self.ext.name)
        } else {
            let lines: Vec<String> = hits.iter().map(|(n, d)| format!("- {n}: {d}")).collect();
            format!("These tools are now callable:\n{}", lines.join("\n"))
        };
        ToolResult {
            id: id.clone(),
            content: vec![ContentBlock::text(text)],
            is_error: false,
            activate_tools: hits.iter().map(|(n, _)| n.clone()).collect(),
            ..Default::default()
        }
    }

    /// A `command_invoked` for one of the server's prompts.
    fn prompt(self: &Arc<Self>, id: RequestId, name: String, args: String) {
        let prompt = self
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .prompts
            .get(&name.to_lowercase())
            .cloned();
        let b = self.clone();
        tokio::spawn(async move {
            let answer = match (prompt, b.peer.get()) {
                (Some(p), Some(peer)) => match prompt_args(&p, &args) {
                    Ok(a) => {
                        let params = GetPromptRequestParams::new(p.name.clone()).with_arguments(a);
                        match peer.get_prompt(params).await {
                            Ok(r) => Ok(prompt_text(&serde_json::to_value(&r).unwrap_or_default())),
                            Err(e) => Err(format!("prompts/get failed: {e}")),
                        }
                    }
                    Err(e) => Err(e),
                },
                (None, _) => Err(format!("no prompt for /{name}")),
                (_, None) => Err("the MCP server is not connected".into()),
            };
            let r = match answer {
                Ok(text) => CommandResponse {
                    id,
                    action: Some(CommandAction::Prompt),
                    prompt: Some(text),
                    ..Default::default()
                },
                Err(e) => CommandResponse {
                    id,
                    error: Some(e),
                    ..Default::default()
                },
            };
            b.frame(&ExtToHost::CommandResponse(r));
        });
    }

    /// The agent gave up on call `id` (abort): the server hears
    /// `notifications/cancelled` and the waiting task ends.
    fn cancel(&self, id: &str) {
        let Some(call) = self
            .calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
        else {
            return;
        };
        if let Some(t) = &call.task {
            t.abort();
        }
        self.log(&format!(
            "MCP: tool '{}' was aborted; sent notifications/cancelled",
            call.tool
        ));
        let (Some(peer), Some(mcp_id)) = (self.peer.get().cloned(), call.mcp_id) else {
            return;
        };
        tokio::spawn(async move {
            let n = CancelledNotification::new(CancelledNotificationParam::new(
                Some(mcp_id),
                Some("aborted by the user".into()),
            ));
            let _ = peer
                .send_notification(ClientNotification::CancelledNotification(n))
                .await;
        });
    }

    /// `notifications/progress`: a `tool_progress` for the call it names
    /// (the host merges, clamps and shows it), and a log line.
    fn progress(&self, p: &ProgressNotificationParam) {
        let found = self
            .calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(_, c)| c.progress.as_ref() == Some(&p.progress_token))
            .map(|(key, c)| (key.clone(), c.tool.clone()));
        if let Some((key, _)) = &found {
            self.frame(&ExtToHost::ToolProgress(zot_ext_protocol::ToolProgress {
                id: RequestId(key.clone()),
                message: p.message.clone(),
                progress: Some(p.progress),
                total: p.total,
                partial: None,
            }));
        }
        let tool = found.map_or_else(|| "a call".into(), |(_, tool)| tool);
        let of = p.total.map(|t| format!("/{t}")).unwrap_or_default();
        let msg = p
            .message
            .as_deref()
            .map(|m| format!(": {m}"))
            .unwrap_or_default();
        self.log(&format!("MCP progress of {tool}: {}{of}{msg}", p.progress));
    }

    fn shutdown(&self) {
        let stop = self.stop.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(stop) = stop {
            stop.cancel();
        }
    }
}

/// The client side of the connection: notifications from the server.
struct Handler(Arc<Bridge>);

impl ClientHandler for Handler {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0.progress(&params);
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        let b = self.0.clone();
        // Not inline: the listing is a request, whose answer this very
        // notification loop must be free to deliver.
        tokio::spawn(async move { b.tools_changed(context.peer).await });
    }

    async fn on_prompt_list_changed(&self, context: NotificationContext<RoleClient>) {
        let b = self.0.clone();
        tokio::spawn(async move { b.prompts_changed(context.peer).await });
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        Ok(elicit::ask(&self.0, request).await)
    }

    fn get_info(&self) -> ClientConfig {
        client_info()
    }
}

/// The host's side: zot frames in, MCP requests out.
struct McpSink(Arc<Bridge>);

impl FrameSink for McpSink {
    fn send(&self, line: &[u8]) -> Result<(), SendError> {
        let frame: HostToExt = match serde_json::from_slice(line) {
            Ok(f) => f,
            Err(e) => {
                self.0
                    .log(&format!("MCP: could not read a host frame: {e}"));
                return Ok(());
            }
        };
        match frame {
            HostToExt::ToolCall(c) => self.0.call(c.id, c.name, c.args),
            HostToExt::CommandInvoked(c) => self.0.prompt(c.id, c.name, c.args),
            HostToExt::Shutdown(_) => self.0.shutdown(),
            HostToExt::UiResponse(r) => elicit::answered(&self.0, r),
            // Nothing else means anything to an MCP server (it subscribes
            // to no events and opens no panels).
            _ => {}
        }
        Ok(())
    }

    fn close(&self) {
        self.0.shutdown();
        if self.0.peer.get().is_none() {
            if let Some(t) = self.0.task.lock().unwrap_or_else(|e| e.into_inner()).take() {
                t.abort();
            }
        }
    }

    fn cancel(&self, id: &str) {
        self.0.cancel(id);
    }
}

/// The streamable-HTTP transport for `url` with `headers`.
fn http_transport(
    url: &str,
    headers: &[(String, String)],
) -> Result<rmcp::transport::StreamableHttpClientTransport<reqwest::Client>, String> {
    // reqwest is built without a crypto provider of its own (see
    // Cargo.toml); ring's is installed once for the process.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut map = HashMap::new();
    for (k, v) in headers {
        let name = http::HeaderName::from_bytes(k.as_bytes())
            .map_err(|e| format!("header '{k}' is not a valid name: {e}"))?;
        let value = http::HeaderValue::from_str(v)
            .map_err(|e| format!("header '{k}' has a value that cannot be sent: {e}"))?;
        map.insert(name, value);
    }
    let config =
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
            url.to_owned(),
        )
        .custom_headers(map);
    Ok(rmcp::transport::StreamableHttpClientTransport::from_config(
        config,
    ))
}

/// An MCP tool or prompt name as a zot name: characters providers refuse
/// become `_`, and it is cut to 64 bytes.
pub(crate) fn tool_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.truncate(crate::io::limits::MAX_NAME_LEN);
    if out.is_empty() {
        out.push('_');
    }
    out
}

fn error_result(id: RequestId, text: String) -> ToolResult {
    ToolResult {
        id,
        content: vec![ContentBlock::text(text)],
        is_error: true,
        ..Default::default()
    }
}

/// An MCP `CallToolResult` (as JSON) as zot content: text and images as
/// they are; audio, embedded resources and resource links as text that
/// says what they are and where, so the model sees every block.
pub(crate) fn content_blocks(result: &Value) -> Vec<ContentBlock> {
    let mut out = Vec::new();
    let blocks = result
        .get("content")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for b in &blocks {
        let s = |k: &str| {
            b.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        match b.get("type").and_then(Value::as_str).unwrap_or_default() {
            "text" => out.push(ContentBlock::text(s("text"))),
            "image" => out.push(ContentBlock::Image {
                mime_type: s("mimeType"),
                data: s("data"),
            }),
            "audio" => out.push(ContentBlock::text(format!(
                "[audio: {}, {} bytes base64; zot cannot play audio to the model]",
                s("mimeType"),
                s("data").len()
            ))),
            "resource" => {
                let r = b.get("resource").cloned().unwrap_or_default();
                let rs = |k: &str| {
                    r.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                let mime = rs("mimeType");
                if let Some(text) = r.get("text").and_then(Value::as_str) {
                    out.push(ContentBlock::text(format!(
                        "[resource {}]\n{text}",
                        rs("uri")
                    )));
                } else if mime.starts_with("image/") {
                    out.push(ContentBlock::Image {
                        mime_type: mime,
                        data: rs("blob"),
                    });
                } else {
                    out.push(ContentBlock::text(format!(
                        "[resource {} ({}), {} bytes base64]",
                        rs("uri"),
                        if mime.is_empty() {
                            "binary".into()
                        } else {
                            mime
                        },
                        rs("blob").len()
                    )));
                }
            }
            "resource_link" => {
                let mut t = format!("[resource link] {}: {}", s("name"), s("uri"));
                if !s("mimeType").is_empty() {
                    t.push_str(&format!(" ({})", s("mimeType")));
                }
                if !s("description").is_empty() {
                    t.push_str(&format!(" — {}", s("description")));
                }
                out.push(ContentBlock::text(t));
            }
            other => out.push(ContentBlock::text(format!(
                "[{other} content: {}]",
                serde_json::to_string(b).unwrap_or_default()
            ))),
        }
    }
    if out.is_empty() {
        if let Some(s) = result.get("structuredContent") {
            out.push(ContentBlock::text(s.to_string()));
        }
    }
    out
}

/// `/server:prompt`'s description: the prompt's, with its arguments.
fn prompt_usage(p: &Prompt) -> String {
    let args: Vec<String> = p
        .arguments
        .iter()
        .flatten()
        .map(|a| {
            if a.required.unwrap_or(false) {
                format!("{}=…", a.name)
            } else {
                format!("[{}=…]", a.name)
            }
        })
        .collect();
    let desc = p.description.clone().unwrap_or_else(|| "MCP prompt".into());
    if args.is_empty() {
        desc
    } else {
        format!("{desc} ({})", args.join(" "))
    }
}

/// The command line as the prompt's arguments: `key=value` pairs, or words
/// taken in the arguments' order; a prompt with one argument takes the
/// whole line.
pub(crate) fn prompt_args(p: &Prompt, line: &str) -> Result<Map<String, Value>, String> {
    let declared: Vec<&rmcp::model::PromptArgument> = p.arguments.iter().flatten().collect();
    let mut out = Map::new();
    let line = line.trim();
    let keyed = line.split_whitespace().any(|w| {
        w.split_once('=')
            .is_some_and(|(k, _)| declared.iter().any(|a| a.name == k))
    });
    if !keyed && declared.len() == 1 && !line.is_empty() {
        if let Some(a) = declared.first() {
            out.insert(a.name.clone(), Value::String(line.to_owned()));
        }
    } else {
        let mut positional = declared.iter();
        for w in line.split_whitespace() {
            match w.split_once('=') {
                Some((k, v)) if declared.iter().any(|a| a.name == k) => {
                    out.insert(k.to_owned(), Value::String(v.to_owned()));
                }
                _ => match positional.find(|a| !out.contains_key(&a.name)) {
                    Some(a) => {
                        out.insert(a.name.clone(), Value::String(w.to_owned()));
                    }
                    None => {
                        return Err(format!(
                            "too many arguments: '{w}' has no place; {}",
                            prompt_usage(p)
                        ))
                    }
                },
            }
        }
    }
    let missing: Vec<&str> = declared
        .iter()
        .filter(|a| a.required.unwrap_or(false) && !out.contains_key(&a.name))
        .map(|a| a.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing argument(s) {}; {}",
            missing.join(", "),
            prompt_usage(p)
        ));
    }
    Ok(out)
}

/// A `GetPromptResult` (as JSON) as the text sent to the model.
fn prompt_text(r: &Value) -> String {
    let msgs = r
        .get("messages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let parts: Vec<String> = msgs
        .iter()
        .map(|m| {
            let content = m.get("content").cloned().unwrap_or_default();
            let blocks = content_blocks(&json!({ "content": [content] }));
            blocks
                .into_iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(text),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_providers_refuse_are_rewritten() {
        assert_eq!(tool_name("get.weather/now"), "get_weather_now");
        assert_eq!(tool_name("ok-name_1"), "ok-name_1");
        assert_eq!(tool_name(&"x".repeat(80)).len(), 64);
    }

    #[test]
    fn every_content_kind_reaches_the_model() {
        let r = json!({"content":[
            {"type":"text","text":"hi"},
            {"type":"image","mimeType":"image/png","data":"AAA="},
            {"type":"resource_link","name":"readme","uri":"file:///r.md","mimeType":"text/markdown"},
            {"type":"resource","resource":{"uri":"mem://a","text":"body"}},
            {"type":"audio","mimeType":"audio/wav","data":"AAAA"}
        ]});
        let b = content_blocks(&r);
        assert_eq!(b.len(), 5);
        assert_eq!(b[0], ContentBlock::text("hi"));
        assert!(matches!(&b[1], ContentBlock::Image { mime_type, .. } if mime_type == "image/png"));
        assert!(
            matches!(&b[2], ContentBlock::Text { text } if text.contains("file:///r.md") && text.contains("readme"))
        );
        assert!(
            matches!(&b[3], ContentBlock::Text { text } if text.contains("mem://a") && text.contains("body"))
        );
        assert!(matches!(&b[4], ContentBlock::Text { text } if text.contains("audio/wav")));
    }

    #[test]
    fn prompt_arguments_come_from_the_command_line() {
        let p: Prompt = serde_json::from_value(json!({"name":"review","arguments":[
            {"name":"file","required":true},{"name":"focus"}]}))
        .unwrap();
        let a = prompt_args(&p, "main.rs speed").unwrap();
        assert_eq!(a.get("file"), Some(&json!("main.rs")));
        assert_eq!(a.get("focus"), Some(&json!("speed")));
        let a = prompt_args(&p, "focus=style file=x.rs").unwrap();
        assert_eq!(a.get("file"), Some(&json!("x.rs")));
        let e = prompt_args(&p, "").unwrap_err();
        assert!(e.contains("file"), "{e}");
        let one: Prompt = serde_json::from_value(
            json!({"name":"ask","arguments":[{"name":"q","required":true}]}),
        )
        .unwrap();
        assert_eq!(
            prompt_args(&one, "what is up").unwrap().get("q"),
            Some(&json!("what is up"))
        );
    }
}

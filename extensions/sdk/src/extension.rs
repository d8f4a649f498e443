//! The builder authors use: register commands, tools, hooks and handlers,
//! then [`Extension::run`].

use std::sync::Arc;

use serde_json::Value;
use zot_ext_protocol::{
    Event, LifecycleEvent, PanelKeyFrame, PanelMouseFrame, PanelResizeFrame, SettingValues,
};

use crate::context::{Context, HostInfo};
use crate::decision::{AssistantMessageDecision, ToolCallDecision, TurnStartDecision};
use crate::response::{Response, ToolResult};

pub(crate) type CommandFn = Arc<dyn Fn(&Context, &str) -> Response + Send + Sync>;
pub(crate) type ToolFn = Arc<dyn Fn(&Context, Value) -> ToolResult + Send + Sync>;
pub(crate) type EventFn = Arc<dyn Fn(&Context, &Event) + Send + Sync>;
pub(crate) type ToolCallFn = Arc<dyn Fn(&Context, &str, &Value) -> ToolCallDecision + Send + Sync>;
pub(crate) type TurnStartFn = Arc<dyn Fn(&Context, u32) -> TurnStartDecision + Send + Sync>;
pub(crate) type AssistantFn = Arc<dyn Fn(&Context, &str) -> AssistantMessageDecision + Send + Sync>;
pub(crate) type PanelKeyFn = Arc<dyn Fn(&Context, &PanelKeyFrame) + Send + Sync>;
pub(crate) type PanelCloseFn = Arc<dyn Fn(&Context, &str) + Send + Sync>;
pub(crate) type PanelMouseFn = Arc<dyn Fn(&Context, &PanelMouseFrame) + Send + Sync>;
pub(crate) type PanelResizeFn = Arc<dyn Fn(&Context, &PanelResizeFrame) + Send + Sync>;
pub(crate) type PanelMessageFn = Arc<dyn Fn(&Context, &str, &Value) + Send + Sync>;
pub(crate) type ShutdownFn = Arc<dyn Fn(&Context) + Send + Sync>;
pub(crate) type ConfigFn = Arc<dyn Fn(&Context, &SettingValues) + Send + Sync>;
pub(crate) type StateFn = Arc<dyn Fn(&Context, &zot_ext_protocol::ExtSessionState) + Send + Sync>;
pub(crate) type HelloFn = Box<dyn FnOnce(&mut Extension, &HostInfo)>;

/// A registered slash command.
pub(crate) struct CommandEntry {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) handler: CommandFn,
}

/// A registered tool.
pub(crate) struct ToolEntry {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) schema: Value,
    pub(crate) deferred: bool,
    pub(crate) handler: ToolFn,
}

/// An extension under construction: everything it will register and every
/// handler it will run.
pub struct Extension {
    pub(crate) name: String,
    pub(crate) version: String,
    /// Declared on top of the ones the SDK infers from registrations.
    pub(crate) capabilities: Vec<String>,
    pub(crate) commands: Vec<CommandEntry>,
    pub(crate) tools: Vec<ToolEntry>,
    pub(crate) events: Vec<(LifecycleEvent, EventFn)>,
    pub(crate) on_tool_call: Option<ToolCallFn>,
    pub(crate) on_turn_start: Option<TurnStartFn>,
    pub(crate) on_assistant_message: Option<AssistantFn>,
    pub(crate) on_panel_key: Option<PanelKeyFn>,
    pub(crate) on_panel_close: Option<PanelCloseFn>,
    pub(crate) on_panel_mouse: Option<PanelMouseFn>,
    pub(crate) on_panel_resize: Option<PanelResizeFn>,
    pub(crate) on_panel_message: Option<PanelMessageFn>,
    pub(crate) on_shutdown: Option<ShutdownFn>,
    pub(crate) on_config_change: Option<ConfigFn>,
    pub(crate) on_state_restored: Option<StateFn>,
    /// Taken out and run once, between `hello_ack` and the registrations.
    pub(crate) on_hello: Option<HelloFn>,
}

impl Extension {
    /// A new extension; `name` must match `extension.json`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Extension {
            name: name.into(),
            version: version.into(),
            capabilities: Vec::new(),
            commands: Vec::new(),
            tools: Vec::new(),
            events: Vec::new(),
            on_tool_call: None,
            on_turn_start: None,
            on_assistant_message: None,
            on_panel_key: None,
            on_panel_close: None,
            on_panel_mouse: None,
            on_panel_resize: None,
            on_panel_message: None,
            on_shutdown: None,
            on_config_change: None,
            on_state_restored: None,
            on_hello: None,
        }
    }

    /// The name sent in `hello`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds a slash command; `handler` gets everything typed after the name.
    pub fn command<F>(&mut self, name: &str, description: &str, handler: F) -> &mut Self
    where
        F: Fn(&Context, &str) -> Response + Send + Sync + 'static,
    {
        self.commands.push(CommandEntry {
            name: name.to_owned(),
            description: description.to_owned(),
            handler: Arc::new(handler),
        });
        self
    }

    /// Adds a tool the model can call; `schema` is a JSON Schema object.
    pub fn tool<F>(&mut self, name: &str, description: &str, schema: Value, handler: F) -> &mut Self
    where
        F: Fn(&Context, Value) -> ToolResult + Send + Sync + 'static,
    {
        self.add_tool(name, description, schema, false, Arc::new(handler))
    }

    /// Adds a tool whose handler also gets its [`crate::ToolCall`]: a
    /// progress reporter (`tool_progress`) and a [`crate::CancelToken`]
    /// that zot's `tool_cancel` sets (docs/protocol.md "Long tool calls").
    pub fn tool_with_call<F>(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        handler: F,
    ) -> &mut Self
    where
        F: Fn(&Context, Value, &crate::ToolCall) -> ToolResult + Send + Sync + 'static,
    {
        self.tool(
            name,
            description,
            schema,
            move |ctx, args| match crate::tool_call::current() {
                Some(call) => handler(ctx, args, &call),
                None => ToolResult::error("internal: a tool ran outside a tool_call"),
            },
        )
    }

    /// Adds a tool whose args are deserialised into `A` first; args that do
    /// not fit become an error result the model can read and correct.
    pub fn typed_tool<A, F>(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        handler: F,
    ) -> &mut Self
    where
        A: serde::de::DeserializeOwned,
        F: Fn(&Context, A) -> ToolResult + Send + Sync + 'static,
    {
        let tool = name.to_owned();
        self.tool(
            name,
            description,
            schema,
            move |ctx, args| match serde_json::from_value::<A>(args) {
                Ok(a) => handler(ctx, a),
                Err(e) => ToolResult::error(format!("invalid arguments for {tool}: {e}")),
            },
        )
    }

    /// Adds a tool that stays hidden from the model until a
    /// [`ToolResult::activate`] names it.
    pub fn deferred_tool<F>(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        handler: F,
    ) -> &mut Self
    where
        F: Fn(&Context, Value) -> ToolResult + Send + Sync + 'static,
    {
        self.add_tool(name, description, schema, true, Arc::new(handler))
    }

    fn add_tool(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        deferred: bool,
        handler: ToolFn,
    ) -> &mut Self {
        self.tools.push(ToolEntry {
            name: name.to_owned(),
            description: description.to_owned(),
            schema,
            deferred,
            handler,
        });
        self
    }

    /// Runs once after `hello_ack`, before registrations are announced, so
    /// it can register more using the host's metadata.
    pub fn on_hello<F>(&mut self, hook: F) -> &mut Self
    where
        F: FnOnce(&mut Extension, &HostInfo) + 'static,
    {
        self.on_hello = Some(Box::new(hook));
        self
    }

    /// Observes a lifecycle event (subscribes to it). Handlers for events
    /// run one at a time, in the order zot sent the events.
    pub fn on_event<F>(&mut self, event: LifecycleEvent, handler: F) -> &mut Self
    where
        F: Fn(&Context, &Event) + Send + Sync + 'static,
    {
        self.events.push((event, Arc::new(handler)));
        self
    }

    /// Intercepts tool calls: allow, block with a reason, or rewrite args.
    pub fn intercept_tool_call<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &str, &Value) -> ToolCallDecision + Send + Sync + 'static,
    {
        self.on_tool_call = Some(Arc::new(handler));
        self
    }

    /// Intercepts the start of each model step: allow or block the turn.
    pub fn intercept_turn_start<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, u32) -> TurnStartDecision + Send + Sync + 'static,
    {
        self.on_turn_start = Some(Arc::new(handler));
        self
    }

    /// Intercepts the assistant's final text: allow, block, or replace it.
    pub fn intercept_assistant_message<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &str) -> AssistantMessageDecision + Send + Sync + 'static,
    {
        self.on_assistant_message = Some(Arc::new(handler));
        self
    }

    /// Receives keys for this extension's focused panels, in order.
    pub fn on_panel_key<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &PanelKeyFrame) + Send + Sync + 'static,
    {
        self.on_panel_key = Some(Arc::new(handler));
        self
    }

    /// Learns that the user closed one of this extension's panels.
    pub fn on_panel_close<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &str) + Send + Sync + 'static,
    {
        self.on_panel_close = Some(Arc::new(handler));
        self
    }

    /// Receives clicks, double clicks (after the click they follow), context
    /// clicks (with `row`/`col`) and the wheel (with `delta` in lines) over
    /// this extension's panels, in order with its keys. Declares
    /// `panel_mouse`, so the wheel no longer scrolls the panel by itself.
    pub fn on_panel_mouse<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &PanelMouseFrame) + Send + Sync + 'static,
    {
        self.on_panel_mouse = Some(Arc::new(handler));
        self
    }

    /// Receives a panel's text area size in monospace cells, once after it
    /// opens and again on every change. Declares `panel_resize`.
    pub fn on_panel_resize<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &PanelResizeFrame) + Send + Sync + 'static,
    {
        self.on_panel_resize = Some(Arc::new(handler));
        self
    }

    /// Receives what the page of one of this extension's HTML panels posted
    /// with `window.parent.postMessage(data, "*")`: the panel id and the
    /// data, in order.
    pub fn on_panel_message<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &str, &Value) + Send + Sync + 'static,
    {
        self.on_panel_message = Some(Arc::new(handler));
        self
    }

    /// Runs on `config_changed`: the user changed the extension's settings
    /// while it runs. The handler gets every value (defaults filled in,
    /// secrets included); [`Context::config`] already returns them.
    pub fn on_config_change<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &SettingValues) + Send + Sync + 'static,
    {
        self.on_config_change = Some(Arc::new(handler));
        self
    }

    /// Runs on `state_restored`: the session changed under the extension
    /// (clear, another session opened, a rewind of the conversation, a
    /// fork). [`Context::state`] already holds the new values; redraw
    /// whatever shows them.
    pub fn on_state_restored<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context, &zot_ext_protocol::ExtSessionState) + Send + Sync + 'static,
    {
        self.on_state_restored = Some(Arc::new(handler));
        self
    }

    /// Runs on `shutdown`, before the SDK acknowledges it; keep it short
    /// (zot waits 2 s in all).
    pub fn on_shutdown<F>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(&Context) + Send + Sync + 'static,
    {
        self.on_shutdown = Some(Arc::new(handler));
        self
    }

    /// Declares a capability beyond those inferred (`commands`, `tools`,
    /// `events`, `panels`).
    pub fn capability(&mut self, name: &str) -> &mut Self {
        self.capabilities.push(name.to_owned());
        self
    }

    /// The capabilities announced in `hello`.
    pub(crate) fn inferred_capabilities(&self) -> Vec<String> {
        let mut caps = Vec::new();
        let mut add = |c: &str| {
            if !caps.iter().any(|x| x == c) {
                caps.push(c.to_owned());
            }
        };
        if !self.commands.is_empty() {
            add("commands");
        }
        if !self.tools.is_empty() {
            add("tools");
        }
        if !self.events.is_empty()
            || self.on_tool_call.is_some()
            || self.on_turn_start.is_some()
            || self.on_assistant_message.is_some()
        {
            add("events");
        }
        if self.on_panel_key.is_some()
            || self.on_panel_close.is_some()
            || self.on_panel_message.is_some()
        {
            add("panels");
        }
        if self.on_panel_mouse.is_some() {
            add("panel_mouse");
        }
        if self.on_panel_resize.is_some() {
            add("panel_resize");
        }
        for c in &self.capabilities {
            add(c);
        }
        caps
    }
}

//! What a handler can do besides return: push notes, prompts and panel
//! frames, and read what zot said about itself in `hello_ack`.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use serde_json::Value;

use zot_ext_protocol::{
    ClearNotes, ExtToHost, HelloAck, NoteLevel, Notify, PanelClose, PanelMessage, PanelRender,
    PanelSpec, SettingValues, Submit, UiRequest,
};

use crate::wire::{self, Writer};

/// The host metadata from `hello_ack`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostInfo {
    /// The protocol version zot speaks.
    pub protocol_version: u32,
    /// zot's own version.
    pub zot_version: String,
    /// The active provider, e.g. `anthropic`.
    pub provider: String,
    /// The active model.
    pub model: String,
    /// The user's project directory (the extension itself runs elsewhere).
    pub cwd: PathBuf,
    /// The extension's own directory.
    pub extension_dir: PathBuf,
    /// Where to keep state such as `todos.json`.
    pub data_dir: PathBuf,
    /// The settings at start (the manifest's `config`, defaults filled
    /// in, secrets included); [`Context::config`] has the current ones.
    pub config: SettingValues,
    /// The extension's session state at start (`hello_ack.state`);
    /// [`Context::state`] has the current values.
    pub state: zot_ext_protocol::ExtSessionState,
}

impl From<HelloAck> for HostInfo {
    fn from(a: HelloAck) -> Self {
        HostInfo {
            protocol_version: a.protocol_version,
            zot_version: a.zot_version,
            provider: a.provider,
            model: a.model,
            cwd: a.cwd.into(),
            extension_dir: a.extension_dir.into(),
            data_dir: a.data_dir.into(),
            config: a.config,
            state: a.state,
        }
    }
}

/// A handle every handler receives; cheap to clone and safe to keep in a
/// background thread.
///
/// One-way frames are fire-and-forget, as the spec makes them: if zot has
/// gone away the failure is logged to stderr and the next read of stdin ends
/// the extension.
#[derive(Clone)]
pub struct Context {
    /// The extension's name, for log lines.
    name: Arc<str>,
    /// What zot said in `hello_ack`.
    host: Arc<HostInfo>,
    /// The frame pipe shared by every thread.
    out: Arc<Writer>,
    /// The current settings: `hello_ack.config`, replaced by each
    /// `config_changed`.
    config: Arc<RwLock<SettingValues>>,
    /// Dialogs waiting for their `ui_response`.
    pub(crate) dialogs: Arc<crate::dialogs::Dialogs>,
    /// The session state: `hello_ack.state`, replaced by each
    /// `state_restored`.
    state: crate::session_state::State,
}

impl Context {
    pub(crate) fn new(name: &str, host: HostInfo, out: Arc<Writer>) -> Self {
        let config = Arc::new(RwLock::new(host.config.clone()));
        let name: Arc<str> = name.into();
        let state = crate::session_state::State::new(name.clone(), host.state.clone(), out.clone());
        Context {
            name,
            host: Arc::new(host),
            out,
            config,
            dialogs: Arc::default(),
            state,
        }
    }

    /// The extension's current settings (defaults filled in, secrets
    /// included): never log or display a sensitive one.
    pub fn config(&self) -> SettingValues {
        self.config
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// One setting's current value, if it has one.
    pub fn setting(&self, key: &str) -> Option<Value> {
        self.config
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    pub(crate) fn set_config(&self, values: SettingValues) {
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = values;
    }

    /// The extension's state in the current session (`state.get` /
    /// `state.set`): it follows the conversation through resume, clear,
    /// fork and rewind.
    pub fn state(&self) -> &crate::session_state::State {
        &self.state
    }

    /// zot's metadata from `hello_ack`.
    pub fn host(&self) -> &HostInfo {
        &self.host
    }

    /// The extension's name as sent in `hello`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Pushes a note under the transcript.
    pub fn notify(&self, level: NoteLevel, message: impl Into<String>) {
        self.send(ExtToHost::Notify(Notify {
            level: level.into(),
            message: message.into(),
        }));
    }

    /// Removes every note this extension pushed.
    pub fn clear_notes(&self) {
        self.send(ExtToHost::ClearNotes(ClearNotes {}));
    }

    /// Submits text as a user prompt (queued if a turn is running).
    pub fn submit(&self, text: impl Into<String>) {
        self.send(ExtToHost::Submit(Submit { text: text.into() }));
    }

    /// Redraws an open panel; `panel.id` names it.
    pub fn render_panel(&self, panel: PanelSpec) {
        self.send(ExtToHost::PanelRender(PanelRender {
            panel_id: panel.id,
            title: panel.title,
            lines: panel.lines,
            footer: panel.footer,
            placement: panel.placement,
        }));
    }

    /// Sends `data` to the page of HTML panel `panel_id`, where it arrives
    /// as a `message` event (`event.data`). At most 256 KiB serialised;
    /// zot drops bigger ones (with a line in this extension's log).
    pub fn post_message(&self, panel_id: impl Into<String>, data: Value) {
        self.send(ExtToHost::PanelMessage(PanelMessage {
            panel_id: panel_id.into(),
            data,
        }));
    }

    /// Closes a panel this extension opened.
    pub fn close_panel(&self, panel_id: impl Into<String>) {
        self.send(ExtToHost::PanelClose(PanelClose {
            panel_id: panel_id.into(),
        }));
    }

    /// Writes a log line to stderr (zot's per-extension log file).
    pub fn log(&self, msg: impl std::fmt::Display) {
        wire::log(&self.name, msg);
    }

    /// Asks yes or no and blocks this handler until the answer; an
    /// `Accepted` is the yes. Needs the `dialogs` permission.
    pub fn confirm(&self, title: &str, message: Option<&str>) -> crate::DialogAnswer {
        self.ask(UiRequest {
            kind: "confirm".into(),
            title: title.into(),
            message: message.map(str::to_owned),
            ..Default::default()
        })
    }

    /// Asks for one of `options` (accepted with the choice as a string).
    pub fn select(
        &self,
        title: &str,
        options: &[&str],
        default: Option<&str>,
    ) -> crate::DialogAnswer {
        self.ask(UiRequest {
            kind: "select".into(),
            title: title.into(),
            options: Some(options.iter().map(|o| (*o).to_owned()).collect()),
            default: default.map(|d| Value::String(d.into())),
            ..Default::default()
        })
    }

    /// Asks for a line of text.
    pub fn input(
        &self,
        title: &str,
        placeholder: Option<&str>,
        default: Option<&str>,
    ) -> crate::DialogAnswer {
        self.ask(UiRequest {
            kind: "input".into(),
            title: title.into(),
            placeholder: placeholder.map(str::to_owned),
            default: default.map(|d| Value::String(d.into())),
            ..Default::default()
        })
    }

    /// Asks for a form: `schema` is a flat object schema in the MCP
    /// elicitation subset; the accepted value is an object zot checked.
    pub fn form(&self, title: &str, schema: Value) -> crate::DialogAnswer {
        self.ask(UiRequest {
            kind: "form".into(),
            title: title.into(),
            schema: Some(schema),
            ..Default::default()
        })
    }

    /// Sends any `ui_request` (its `id` is filled in) and waits for its
    /// one answer: zot always sends one (its timeout included), and the
    /// wait ends with `Cancelled("zot went away")` if zot closes the pipe.
    pub fn ask(&self, mut req: UiRequest) -> crate::DialogAnswer {
        let (id, rx) = self.dialogs.open();
        req.id = id;
        self.send(ExtToHost::UiRequest(req));
        rx.recv()
            .unwrap_or_else(|_| crate::DialogAnswer::Cancelled("zot went away".into()))
    }

    /// Sends any frame; the escape hatch for protocol additions.
    pub fn send(&self, frame: ExtToHost) {
        if let Err(e) = self.out.send(&frame) {
            wire::log(&self.name, format!("could not write a frame to zot: {e}"));
        }
    }
}

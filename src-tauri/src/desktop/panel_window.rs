//! A panel in its own OS window (placement `window`): glue only. The main
//! window's page decides which panels have a window (it holds the panels
//! and the user's choices) and asks for one here; this opens a window
//! labelled `panel-…` on the same page, which renders the same panel
//! component (`ui/src/PanelWindow.svelte`) and follows the same
//! `zot://ui-event` stream. The two pages talk only through the commands
//! below, relayed as targeted events, so neither page needs the right to
//! emit events:
//! - the panel window says it is ready (`panel_window_ready`), and the main
//!   window answers with the panel as it has it (`panel_window_sync`);
//! - the panel window's close and move buttons (`panel_window_action`)
//!   and the user closing the OS window (any way it goes that the main
//!   window did not ask for) go to the main window, which
//!   closes the panel or docks it and closes the window
//!   (`panel_window_close`).
//!
//! Where each window was is remembered per extension and panel id
//! (`crate::panel_windows`), and put back on a screen that exists now.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tauri::{
    AppHandle, Emitter, Manager, State, WebviewUrl, WebviewWindow, WebviewWindowBuilder,
    WindowEvent,
};
use zot_ext_protocol::rpc::RpcCommand;
use zot_ext_protocol::PanelPlacement;

use super::error::{IpcError, IpcResult};
use super::Desktop;
use crate::panel_windows::{self, Geometry, Screen};

/// To the main window: a panel window is ready, asks for an action, or was
/// closed by the user (`PanelWindowNote`).
pub const NOTE_EVENT: &str = "zot://panel-window";
/// To one panel window: its panel as the main window has it.
pub const SYNC_EVENT: &str = "zot://panel-sync";
/// A moved or resized window is saved after this pause.
const SAVE_AFTER: Duration = Duration::from_millis(400);
/// Every panel window's label starts so (`capabilities/panel-window.json`).
pub const LABEL_PREFIX: &str = "panel-";

/// One open panel window.
struct Entry {
    extension: String,
    panel_id: String,
    /// Its last position and size (logical px), saved when it goes.
    geometry: Option<Geometry>,
    /// The main window asked it closed: not a user's close.
    closing: bool,
}

/// The open panel windows, by label; whether a save is pending; whether
/// the main window is gone (the app is ending: no window is a user's close).
#[derive(Default)]
pub struct PanelWindows(Mutex<HashMap<String, Entry>>, AtomicBool, AtomicBool);

impl PanelWindows {
    /// The panel that window `label` shows, if it is a panel window.
    fn panel_of(&self, label: &str) -> Option<(String, String)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.get(label)
            .map(|e| (e.extension.clone(), e.panel_id.clone()))
    }

    /// Every open window's last geometry (the app is exiting).
    fn geometries(&self) -> Vec<(String, String, Geometry)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.values()
            .filter_map(|e| Some((e.extension.clone(), e.panel_id.clone(), e.geometry?)))
            .collect()
    }
}

/// A window label for `extension`'s panel `panel_id`: Tauri allows
/// letters, digits, `-`, `_`, `/` and `:`; anything else becomes `_`, and a
/// name that needed that gets a hash of the original so two panels never
/// share a label.
pub fn label_for(extension: &str, panel_id: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let (e, p) = (clean(extension), clean(panel_id));
    if e == extension && p == panel_id && !extension.contains('-') {
        return format!("{LABEL_PREFIX}{e}-{p}");
    }
    // FNV-1a of the pair, so `a-b`/`c` and `a`/`b-c` differ too.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in extension.bytes().chain([0]).chain(panel_id.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{LABEL_PREFIX}{e}-{p}-{:08x}", h as u32)
}

/// What a panel window may send through `rpc`: input for its own panel,
/// nothing else (no prompts, no settings, no other panel's keys).
pub fn allows(windows: &PanelWindows, label: &str, cmd: &RpcCommand) -> Result<(), String> {
    let Some((_, own)) = windows.panel_of(label) else {
        return Err(format!("window {label:?} shows no panel"));
    };
    let target = match cmd {
        RpcCommand::PanelKey { panel_id, .. }
        | RpcCommand::PanelMouse { panel_id, .. }
        | RpcCommand::PanelResize { panel_id, .. }
        | RpcCommand::PanelMessage { panel_id, .. } => panel_id,
        _ => return Err("a panel window may only send its panel's input".into()),
    };
    if *target == own {
        Ok(())
    } else {
        Err(format!(
            "panel window {label:?} may only send input to panel {own:?}"
        ))
    }
}

/// The screens as the clamp sees them, in logical px, the primary first.
fn screens(app: &AppHandle) -> Vec<Screen> {
    let primary = app.primary_monitor().ok().flatten();
    let mut all = app.available_monitors().unwrap_or_default();
    if let Some(p) = &primary {
        all.sort_by_key(|m| m.position() != p.position());
    }
    all.iter()
        .map(|m| {
            let s = m.scale_factor();
            Screen {
                x: f64::from(m.position().x) / s,
                y: f64::from(m.position().y) / s,
                width: f64::from(m.size().width) / s,
                height: f64::from(m.size().height) / s,
            }
        })
        .collect()
}

/// Where `w` is now, in logical px.
fn geometry_of(w: &WebviewWindow) -> Option<Geometry> {
    let s = w.scale_factor().ok()?;
    let at = w.outer_position().ok()?.to_logical::<f64>(s);
    let size = w.inner_size().ok()?.to_logical::<f64>(s);
    Some(Geometry {
        x: at.x,
        y: at.y,
        width: size.width,
        height: size.height,
    })
}

/// What the main window hears about a panel window.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum PanelWindowNote {
    /// Its page listens: send it the panel.
    Ready { extension: String, panel_id: String },
    /// The user closed the OS window.
    Closed { extension: String, panel_id: String },
    /// Its close button, Esc or Ctrl+C: close the panel.
    Close { extension: String, panel_id: String },
    /// Its place buttons or Ctrl+Shift+M: move the panel.
    Move {
        extension: String,
        panel_id: String,
        placement: PanelPlacement,
    },
}

fn note(app: &AppHandle, n: &PanelWindowNote) {
    if let Err(e) = app.emit_to("main", NOTE_EVENT, n) {
        eprintln!("zot: could not tell the main window about a panel window: {e}");
    }
}

/// Opens (or brings to the front) the window of `extension`'s panel
/// `panel_id`, where it was last, on a screen that exists now.
#[tauri::command]
pub async fn panel_window_open(
    app: AppHandle,
    desktop: State<'_, Desktop>,
    windows: State<'_, PanelWindows>,
    extension: String,
    panel_id: String,
    title: String,
) -> IpcResult<String> {
    let label = label_for(&extension, &panel_id);
    if let Some(w) = app.get_webview_window(&label) {
        let _ = w.unminimize();
        let _ = w.set_focus();
        return Ok(label);
    }
    let remembered = panel_windows::load(&desktop.ctx.zot_home, &extension, &panel_id);
    let (dw, dh) = panel_windows::DEFAULT_SIZE;
    let mut b = WebviewWindowBuilder::new(&app, &label, WebviewUrl::App("index.html".into()))
        .title(format!("{title} — {extension} — zot"))
        .min_inner_size(panel_windows::MIN_SIZE.0, panel_windows::MIN_SIZE.1)
        .inner_size(dw, dh);
    if let Some(g) = remembered {
        let g = panel_windows::clamp_onto(g, &screens(&app));
        b = b.position(g.x, g.y).inner_size(g.width, g.height);
    }
    windows.0.lock().unwrap_or_else(|e| e.into_inner()).insert(
        label.clone(),
        Entry {
            extension: extension.clone(),
            panel_id: panel_id.clone(),
            geometry: remembered,
            closing: false,
        },
    );
    let w = b.build().map_err(|e| {
        windows
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&label);
        IpcError::new(
            "panel_window",
            format!("cannot open a window for {extension}'s panel {panel_id:?}: {e}; it stays in a dock"),
        )
    })?;
    let handle = app.clone();
    let win = w.clone();
    let watched = label.clone();
    w.on_window_event(move |ev| on_event(&handle, &win, &watched, ev));
    Ok(label)
}

fn on_event(app: &AppHandle, w: &WebviewWindow, label: &str, ev: &WindowEvent) {
    let windows = app.state::<PanelWindows>();
    match ev {
        WindowEvent::Moved(_) | WindowEvent::Resized(_) => {
            let g = geometry_of(w);
            let mut all = windows.0.lock().unwrap_or_else(|e| e.into_inner());
            if let (Some(e), Some(g)) = (all.get_mut(label), g) {
                // A minimised window reports nothing worth keeping.
                if g.width >= 1.0 && g.height >= 1.0 {
                    e.geometry = Some(g);
                }
            }
            drop(all);
            // Saved once a move or resize pauses, not only when the window
            // goes: an app that is killed still brings it back there.
            if !windows.1.swap(true, Ordering::AcqRel) {
                let app = app.clone();
                tauri::async_runtime::spawn(async move {
                    tokio::time::sleep(SAVE_AFTER).await;
                    app.state::<PanelWindows>()
                        .1
                        .store(false, Ordering::Release);
                    save_open(&app);
                });
            }
        }
        WindowEvent::Destroyed => {
            let gone = windows
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(label);
            let Some(e) = gone else { return };
            if let Some(g) = e.geometry {
                save(app, &[(e.extension.clone(), e.panel_id.clone(), g)]);
            }
            // Gone without the main window asking: the user closed it (or
            // anything else did); the main window docks the panel. Not
            // while the app ends, which must not undo the user's choice.
            if !e.closing && !windows.2.load(Ordering::Acquire) {
                note(
                    app,
                    &PanelWindowNote::Closed {
                        extension: e.extension,
                        panel_id: e.panel_id,
                    },
                );
            }
        }
        _ => {}
    }
}

fn save(app: &AppHandle, windows: &[(String, String, Geometry)]) {
    let home = &app.state::<Desktop>().ctx.zot_home;
    if let Err(e) = panel_windows::save_all(home, windows) {
        eprintln!("zot: where the panel windows were is not saved: {e:#}");
    }
}

/// The app is exiting: remember every panel window still open.
pub fn save_open(app: &AppHandle) {
    let all = app.state::<PanelWindows>().geometries();
    save(app, &all);
}

/// The main window closed: the app ends, so the panel windows go too
/// (remembered as they are, their panels' choices kept).
pub fn main_closed(app: &AppHandle) {
    app.state::<PanelWindows>().2.store(true, Ordering::Release);
    close_all(app);
}

/// Closes every panel window where it is (the app ends, or the project
/// changes and its panels with it).
pub fn close_all(app: &AppHandle) {
    save_open(app);
    let windows = app.state::<PanelWindows>();
    let labels: Vec<String> = {
        let mut all = windows.0.lock().unwrap_or_else(|e| e.into_inner());
        all.values_mut().for_each(|e| e.closing = true);
        all.keys().cloned().collect()
    };
    for label in labels {
        if let Some(w) = app.get_webview_window(&label) {
            let _ = w.close();
        }
    }
}

/// Closes the window of `extension`'s panel `panel_id` (the panel closed,
/// or moved to a dock); no window is fine.
#[tauri::command]
pub fn panel_window_close(
    app: AppHandle,
    windows: State<'_, PanelWindows>,
    extension: String,
    panel_id: String,
) {
    let label = label_for(&extension, &panel_id);
    if let Some(e) = windows
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_mut(&label)
    {
        e.closing = true;
    }
    if let Some(w) = app.get_webview_window(&label) {
        if let Err(e) = w.close() {
            eprintln!("zot: cannot close the window of panel {panel_id:?}: {e}");
        }
    }
}

/// The main window sends a panel window its panel (any JSON the page
/// understands: `ui/src/lib/panels/windowSync.ts`).
#[tauri::command]
pub fn panel_window_sync(
    app: AppHandle,
    extension: String,
    panel_id: String,
    panel: serde_json::Value,
) -> IpcResult<()> {
    let label = label_for(&extension, &panel_id);
    app.emit_to(label.as_str(), SYNC_EVENT, panel)
        .map_err(|e| IpcError::new("panel_window", e))
}

/// A panel window's page listens; the main window is asked for its panel.
#[tauri::command]
pub fn panel_window_ready(
    app: AppHandle,
    window: WebviewWindow,
    windows: State<'_, PanelWindows>,
) -> IpcResult<()> {
    let (extension, panel_id) = own_panel(&windows, &window)?;
    note(
        &app,
        &PanelWindowNote::Ready {
            extension,
            panel_id,
        },
    );
    Ok(())
}

/// What a panel window's page asks of its panel.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PanelWindowAction {
    /// Close the panel.
    Close,
    /// Move it (to a dock).
    Move { placement: PanelPlacement },
    /// Its panel's title changed: the window's own title follows (the
    /// page cannot set it: no window permission is granted to it).
    Title { title: String },
}

/// The panel window's close or move, carried out by the main window.
#[tauri::command]
pub fn panel_window_action(
    app: AppHandle,
    window: WebviewWindow,
    windows: State<'_, PanelWindows>,
    action: PanelWindowAction,
) -> IpcResult<()> {
    let (extension, panel_id) = own_panel(&windows, &window)?;
    let n = match action {
        PanelWindowAction::Title { title } => {
            let title: String = title.chars().take(200).collect();
            return window
                .set_title(&format!("{title} — {extension} — zot"))
                .map_err(|e| IpcError::new("panel_window", e));
        }
        PanelWindowAction::Close => PanelWindowNote::Close {
            extension,
            panel_id,
        },
        PanelWindowAction::Move { placement } => PanelWindowNote::Move {
            extension,
            panel_id,
            placement,
        },
    };
    note(&app, &n);
    Ok(())
}

fn own_panel(windows: &PanelWindows, window: &WebviewWindow) -> IpcResult<(String, String)> {
    windows.panel_of(window.label()).ok_or_else(|| {
        IpcError::new(
            "panel_window",
            format!("window {:?} shows no panel", window.label()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panel_window_may_send_only_its_own_panels_input() {
        let windows = PanelWindows::default();
        windows.0.lock().unwrap().insert(
            "panel-todo-list".into(),
            Entry {
                extension: "todo".into(),
                panel_id: "list".into(),
                geometry: None,
                closing: false,
            },
        );
        let key = |panel_id: &str| RpcCommand::PanelKey {
            panel_id: panel_id.into(),
            key: zot_ext_protocol::PanelKey::Enter,
            text: None,
        };
        assert!(allows(&windows, "panel-todo-list", &key("list")).is_ok());
        let other = allows(&windows, "panel-todo-list", &key("help")).unwrap_err();
        assert!(
            other.contains("only send input to panel \"list\""),
            "{other}"
        );
        let prompt = RpcCommand::Prompt {
            message: "hi".into(),
            images: vec![],
        };
        assert!(allows(&windows, "panel-todo-list", &prompt).is_err());
        assert!(allows(&windows, "panel-gone-x", &key("list")).is_err());
    }

    #[test]
    fn labels_are_what_tauri_allows_and_never_shared() {
        assert_eq!(label_for("todo", "todo_list"), "panel-todo-todo_list");
        let odd = label_for("my-ext", "list 1");
        assert!(odd.starts_with("panel-my_ext-list_1-"), "{odd}");
        assert!(odd
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)));
        assert_ne!(label_for("a-b", "c"), label_for("a", "b-c"));
        assert_ne!(label_for("a", "b c"), label_for("a", "b_c"));
    }
}

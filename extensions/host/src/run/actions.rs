//! What the user sees of a `command_response`: the `insert`, `display` and
//! `open_panel` actions become UI events.
//!
//! They are posted by the router, on the extension's own frame order, and
//! not by whoever awaited the response: an extension that answers
//! `open_panel` and then at once sends `panel_render` must have its panel
//! open (and owned) before that render is routed, or the render is lost.

use std::sync::Arc;

use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{CommandAction, CommandResponse};

use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::Ext;

/// The UI event `ext`'s response's action asks for, if any.
pub(crate) fn ui_event(ext: &Ext, r: &CommandResponse) -> Option<UiEvent> {
    let extension = ext.name.clone();
    match r.action? {
        CommandAction::Insert => Some(UiEvent::ExtInsert {
            extension,
            text: r.insert.clone().unwrap_or_default(),
        }),
        CommandAction::Display => Some(UiEvent::ExtDisplay {
            extension,
            text: r.display.clone().unwrap_or_default(),
        }),
        CommandAction::OpenPanel => {
            let mut panel = r.open_panel.clone()?;
            let at = crate::run::panels::placement(ext, panel.placement.as_deref());
            panel.placement = Some(at.as_str().to_owned());
            // A page is shown instead of lines: the event carries only it.
            if panel.html.is_some() {
                panel.lines.clear();
            }
            let net = panel.html.is_some()
                && ext
                    .manifest
                    .as_ref()
                    .and_then(|m| m.sandbox.as_ref())
                    .is_some_and(|s| s.net);
            Some(UiEvent::ExtPanelOpen {
                extension,
                panel,
                capabilities: ext.lock().panel_caps.clone(),
                net,
            })
        }
        CommandAction::Prompt | CommandAction::Noop | CommandAction::Unknown => None,
    }
}

/// Posts `ev`; an opened panel is owned by `ext` from this frame on.
pub(crate) fn show(inner: &Arc<Shared>, ext: &Arc<Ext>, ev: UiEvent) {
    if let UiEvent::ExtPanelOpen { panel, .. } = &ev {
        if !crate::run::panels::claim(inner, ext, &panel.id, panel.html.is_some()) {
            return;
        }
    }
    inner.post(HostEvent::Ui(ev), Some(ext));
}

//! Extension-owned panels as frames see them: an extension's `open_panel`,
//! `panel_render` and `panel_close` checked against the [`PanelTable`]
//! (`panel_table.rs`, which holds the rules), logged when refused, and
//! turned into UI events when not.
//!
//! [`PanelTable`]: crate::records::panel_table::PanelTable

use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{
    CommandAction, CommandResponse, PanelPlacement, PanelRender, MAX_PANEL_HTML,
};

use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::Ext;

/// The extension owning open panel `panel_id` when it is not `ext`.
fn foreign_owner(inner: &Shared, ext: &Ext, panel_id: &str) -> Option<String> {
    let st = inner.lock();
    st.panels
        .foreign_owner(ext.id, panel_id)
        .map(|o| st.name_of(o))
}

/// A panel id belongs to the extension that opened it: an `open_panel`
/// answer from another extension with an id in use is refused (logged, and
/// the response becomes a `noop` carrying the error), so it can never take
/// over the owner's keys.
pub(crate) fn refuse_foreign_open(inner: &Shared, ext: &Ext, r: &mut CommandResponse) {
    if r.action != Some(CommandAction::OpenPanel) {
        return;
    }
    let Some(id) = r.open_panel.as_ref().map(|p| p.id.clone()) else {
        return;
    };
    if let Some(owner) = foreign_owner(inner, ext, &id) {
        let msg = format!(
            "open_panel '{id}' refused: that panel id is in use by extension '{owner}'; use an id of your own (e.g. prefixed with '{}')",
            ext.name
        );
        ext.log.line(&msg);
        r.action = Some(CommandAction::Noop);
        r.open_panel = None;
        r.error = Some(msg);
    }
}

/// An `open_panel` whose `html` is over [`MAX_PANEL_HTML`] is refused
/// (logged, and the response becomes a `noop` carrying the error, which
/// the user sees), with the limit in the message.
pub(crate) fn refuse_oversize_html(ext: &Ext, r: &mut CommandResponse) {
    if r.action != Some(CommandAction::OpenPanel) {
        return;
    }
    let Some(p) = r.open_panel.as_ref() else {
        return;
    };
    let Some(n) = p
        .html
        .as_ref()
        .map(String::len)
        .filter(|n| *n > MAX_PANEL_HTML)
    else {
        return;
    };
    let msg = format!(
        "open_panel '{}' refused: its HTML is {n} bytes, over the limit of {MAX_PANEL_HTML} bytes (2 MiB); load bulk data through panel_message instead",
        p.id
    );
    ext.log.line(&msg);
    r.action = Some(CommandAction::Noop);
    r.open_panel = None;
    r.error = Some(msg);
}

/// Makes `ext` the owner of `panel_id` unless another extension owns it
/// (checked again here, under the lock, against a race between two
/// extensions); returns whether it did. `html`: the panel shows a page.
pub(crate) fn claim(inner: &Shared, ext: &Ext, panel_id: &str, html: bool) -> bool {
    let mut st = inner.lock();
    match st.panels.claim(ext.id, panel_id) {
        Ok(()) => {
            st.panels.set_html(panel_id, html);
            true
        }
        Err(o) => {
            let owner = st.name_of(o);
            drop(st);
            ext.log.line(&format!(
                "open_panel '{panel_id}' refused: that panel id is in use by extension '{owner}'"
            ));
            false
        }
    }
}

/// The placement `ext` asked for: a name the host does not know becomes
/// the default, with one line in its log (once per name), never a
/// protocol error: a newer extension on an older zot still shows its panel.
pub(crate) fn placement(ext: &Ext, asked: Option<&str>) -> PanelPlacement {
    PanelPlacement::resolve(asked).unwrap_or_else(|name| {
        let note = format!(
            "panel placement '{name}' is not one zot knows (bottom, side, window); shown at the bottom"
        );
        if crate::records::extension::tolerate(ext, note.clone()) {
            ext.log.line(&note);
        }
        PanelPlacement::default()
    })
}

/// `panel_render` from `ext`: shown only for a panel it owns.
pub(crate) fn render_from(inner: &Shared, ext: &Ext, p: PanelRender) {
    if !inner.lock().panels.owns(ext.id, &p.panel_id) {
        ext.log.line(&format!(
            "panel_render for '{}', which is not an open panel of this extension; ignored",
            p.panel_id
        ));
        return;
    }
    inner.post(
        HostEvent::Ui(UiEvent::ExtPanelRender {
            extension: ext.name.clone(),
            panel_id: p.panel_id,
            title: p.title,
            lines: p.lines,
            footer: p.footer,
            placement: placement(ext, p.placement.as_deref()),
        }),
        Some(ext),
    );
}

/// `panel_close` from `ext`.
pub(crate) fn close_from(inner: &Shared, ext: &Ext, panel_id: &str) {
    let removed = inner.lock().panels.close_by(ext.id, panel_id);
    if !removed {
        ext.log.line(&format!(
            "panel_close for '{panel_id}', which is not an open panel of this extension; ignored"
        ));
        return;
    }
    ext.uses.touch();
    inner.post(
        HostEvent::Ui(UiEvent::ExtPanelClose {
            extension: ext.name.clone(),
            panel_id: panel_id.to_owned(),
            reason: None,
        }),
        Some(ext),
    );
}

/// Tells the UI that `ext`'s panels `ids` closed (it went away), and why.
pub(crate) fn closed_with(inner: &Shared, ext: &Ext, ids: Vec<String>, reason: Option<String>) {
    for panel_id in ids {
        inner.post(
            HostEvent::Ui(UiEvent::ExtPanelClose {
                extension: ext.name.clone(),
                panel_id,
                reason: reason.clone(),
            }),
            None,
        );
    }
}

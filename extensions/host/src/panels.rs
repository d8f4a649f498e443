//! Extension-owned panels: who owns which panel id, so keys and closes go
//! to the owner only, and an owner that dies takes its panels with it.

use std::sync::Arc;

use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{
    CommandAction, CommandResponse, HostToExt, PanelClose, PanelKey, PanelKeyFrame, PanelRender,
};

use crate::codec::encode;
use crate::error::HostError;
use crate::extension::Ext;
use crate::host::{Host, HostEvent, Inner};

/// The extension owning open panel `panel_id` when it is not `ext`.
fn foreign_owner(inner: &Inner, ext: &Arc<Ext>, panel_id: &str) -> Option<String> {
    inner
        .lock()
        .panels
        .get(panel_id)
        .filter(|o| !Arc::ptr_eq(o, ext))
        .map(|o| o.name.clone())
}

/// A panel id belongs to the extension that opened it: an `open_panel`
/// answer from another extension with an id in use is refused (logged, and
/// the response becomes a `noop` carrying the error), so it can never take
/// over the owner's keys.
pub(crate) fn refuse_foreign_open(inner: &Inner, ext: &Arc<Ext>, r: &mut CommandResponse) {
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

/// Makes `ext` the owner of `panel_id` unless another extension owns it
/// (checked again here, under the lock, against a race between two
/// extensions); returns whether it did.
pub(crate) fn claim(inner: &Inner, ext: &Arc<Ext>, panel_id: &str) -> bool {
    let mut st = inner.lock();
    match st.panels.get(panel_id) {
        Some(o) if !Arc::ptr_eq(o, ext) => {
            let owner = o.name.clone();
            drop(st);
            ext.log.line(&format!(
                "open_panel '{panel_id}' refused: that panel id is in use by extension '{owner}'"
            ));
            false
        }
        _ => {
            st.panels.insert(panel_id.to_owned(), ext.clone());
            true
        }
    }
}

/// `panel_render` from `ext`: shown only for a panel it owns.
pub(crate) fn render_from(inner: &Arc<Inner>, ext: &Arc<Ext>, p: PanelRender) {
    if !owns(inner, ext, &p.panel_id) {
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
        }),
        Some(ext),
    );
}

/// `panel_close` from `ext`.
pub(crate) fn close_from(inner: &Arc<Inner>, ext: &Arc<Ext>, panel_id: &str) {
    let removed = {
        let mut st = inner.lock();
        match st.panels.get(panel_id) {
            Some(owner) if Arc::ptr_eq(owner, ext) => st.panels.remove(panel_id).is_some(),
            _ => false,
        }
    };
    if !removed {
        ext.log.line(&format!(
            "panel_close for '{panel_id}', which is not an open panel of this extension; ignored"
        ));
        return;
    }
    inner.post(
        HostEvent::Ui(UiEvent::ExtPanelClose {
            extension: ext.name.clone(),
            panel_id: panel_id.to_owned(),
        }),
        Some(ext),
    );
}

/// Closes every panel `ext` owns (it exited) and tells the UI.
pub(crate) fn close_all_of(inner: &Arc<Inner>, ext: &Arc<Ext>) {
    let ids: Vec<String> = {
        let mut st = inner.lock();
        let ids: Vec<String> = st
            .panels
            .iter()
            .filter(|(_, o)| Arc::ptr_eq(o, ext))
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            st.panels.remove(id);
        }
        ids
    };
    for panel_id in ids {
        inner.post(
            HostEvent::Ui(UiEvent::ExtPanelClose {
                extension: ext.name.clone(),
                panel_id,
            }),
            None,
        );
    }
}

fn owns(inner: &Inner, ext: &Arc<Ext>, panel_id: &str) -> bool {
    inner
        .lock()
        .panels
        .get(panel_id)
        .is_some_and(|o| Arc::ptr_eq(o, ext))
}

impl Host {
    /// Forwards a key to the extension that owns `panel_id`.
    pub fn panel_key(
        &self,
        panel_id: &str,
        key: PanelKey,
        text: Option<String>,
    ) -> Result<(), HostError> {
        let owner = self.inner.lock().panels.get(panel_id).cloned();
        let owner = owner.ok_or_else(|| HostError::UnknownPanel(panel_id.to_owned()))?;
        owner.send_one_way(&encode(&HostToExt::PanelKey(PanelKeyFrame {
            panel_id: panel_id.to_owned(),
            key,
            text,
        })));
        Ok(())
    }

    /// The user closed `panel_id`: forget it and send `panel_close` to its owner.
    pub fn close_panel(&self, panel_id: &str) -> Result<(), HostError> {
        let owner = self.inner.lock().panels.remove(panel_id);
        let owner = owner.ok_or_else(|| HostError::UnknownPanel(panel_id.to_owned()))?;
        owner.send_one_way(&encode(&HostToExt::PanelClose(PanelClose {
            panel_id: panel_id.to_owned(),
        })));
        Ok(())
    }

    /// Ids of the open panels and their owners.
    pub fn open_panels(&self) -> Vec<(String, String)> {
        let st = self.inner.lock();
        let mut v: Vec<(String, String)> = st
            .panels
            .iter()
            .map(|(id, o)| (id.clone(), o.name.clone()))
            .collect();
        v.sort();
        v
    }
}

//! `panel_message` both ways between an HTML panel's page and its
//! extension. Only the owner of an open HTML panel may send to its page,
//! and only its owner hears from it; a payload over [`MAX_PANEL_MESSAGE`]
//! is refused with the limit in the message. Floods are bounded at each
//! hop: the app's event queue drops messages for pages when it is behind
//! (counted in the sender's log, `events.rs`), and the owner's bounded
//! sink drops messages from the page when the extension stops reading.

use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{HostToExt, PanelMessage, MAX_PANEL_MESSAGE};

use crate::codec::encode;
use crate::error::HostError;
use crate::events::HostEvent;
use crate::extension::Ext;
use crate::host::Host;
use crate::state::Shared;

/// ext → zot `panel_message`: handed to the page of `ext`'s open HTML
/// panel; anything else is logged and dropped.
pub(crate) fn to_page(inner: &Shared, ext: &Ext, m: PanelMessage) {
    let (owns, html) = {
        let st = inner.lock();
        (
            st.panels.owns(ext.id, &m.panel_id),
            st.panels.is_html(&m.panel_id),
        )
    };
    let refusal = if !owns {
        Some(format!(
            "panel_message for '{}', which is not an open panel of this extension; dropped",
            m.panel_id
        ))
    } else if !html {
        Some(format!(
            "panel_message for '{}', which shows lines, not an HTML page; open it with \"html\" to exchange messages; dropped",
            m.panel_id
        ))
    } else {
        m.oversize().map(|n| {
            format!(
                "panel_message for '{}' refused: {n} bytes, over the limit of {MAX_PANEL_MESSAGE} bytes (256 KiB); send smaller messages",
                m.panel_id
            )
        })
    };
    if let Some(line) = refusal {
        ext.log.line(&line);
        return;
    }
    inner.post(
        HostEvent::Ui(UiEvent::ExtPanelMessage {
            panel_id: m.panel_id,
            extension: ext.name.clone(),
            data: m.data,
        }),
        Some(ext),
    );
}

impl Host {
    /// zot → ext `panel_message`: what the page of HTML panel `panel_id`
    /// posted, sent to its owner; returns whether it was. A panel closed
    /// by its owner's crash drops it (one status, as for keys); one that
    /// was never open is [`HostError::UnknownPanel`]; a line panel or a
    /// payload over the limit is [`HostError::PanelMessage`].
    pub fn panel_message(&self, m: PanelMessage) -> Result<bool, HostError> {
        if let Some(n) = m.oversize() {
            return Err(HostError::PanelMessage(format!(
                "the message for panel '{}' is {n} bytes, over the limit of {MAX_PANEL_MESSAGE} bytes (256 KiB); send smaller messages",
                m.panel_id
            )));
        }
        let (owner, html) = {
            let st = self.inner.lock();
            let owner = st
                .panels
                .owner(&m.panel_id)
                .and_then(|id| st.ext(id).cloned());
            (owner, st.panels.is_html(&m.panel_id))
        };
        let Some(owner) = owner else {
            return self.key_for_crashed_panel(&m.panel_id).map(|()| false);
        };
        if !html {
            return Err(HostError::PanelMessage(format!(
                "panel '{}' of '{}' shows lines, not an HTML page; only HTML panels exchange messages",
                m.panel_id, owner.name
            )));
        }
        owner.send_one_way(&encode(&HostToExt::PanelMessage(m)));
        Ok(true)
    }
}

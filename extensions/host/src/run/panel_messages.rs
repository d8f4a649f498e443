//! `panel_message` from an extension to its HTML panel's page: only the
//! owner of an open HTML panel may send to its page, and a payload over
//! [`MAX_PANEL_MESSAGE`] is refused with the limit in its log. A flood is
//! bounded by the app's event queue, which drops messages for pages when
//! it is behind (counted in the sender's log, `events.rs`). The other way,
//! page → extension, is `Host::panel_message` (`panel_input.rs`).

use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{PanelMessage, MAX_PANEL_MESSAGE};

use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::Ext;

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

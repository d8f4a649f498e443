//! Input for open panels from the window: pointer and size (`panel_mouse`,
//! `panel_resize`), sent only to an owner that declared the matching
//! capability, so an extension written before them gets exactly the frames
//! it always got; and what an HTML panel's page posted (`panel_message`),
//! to its owner only and at most [`MAX_PANEL_MESSAGE`] bytes. All are
//! one-way and go through the owner's bounded sink: an owner that stops
//! reading loses frames (counted in its log), it never grows a queue.

use zot_ext_protocol::{
    HostToExt, PanelCapability, PanelMessage, PanelMouseFrame, PanelResizeFrame, MAX_PANEL_MESSAGE,
};

use crate::api::host::Host;
use crate::error::HostError;
use crate::io::codec::encode;

impl Host {
    /// Sends `frame` to the owner of its panel when the owner declared
    /// `panel_mouse`; returns whether it did. A panel closed by its owner's
    /// crash drops the frame (one status, as for keys); a panel that was
    /// never open is [`HostError::UnknownPanel`].
    pub fn panel_mouse(&self, frame: PanelMouseFrame) -> Result<bool, HostError> {
        let panel_id = frame.panel_id.clone();
        self.send_panel_input(
            &panel_id,
            PanelCapability::PanelMouse,
            HostToExt::PanelMouse(frame),
        )
    }

    /// Sends the panel's text area size in cells to its owner when the
    /// owner declared `panel_resize`; returns whether it did. The window
    /// debounces and drops unchanged sizes; this sends what it is given.
    pub fn panel_resize(&self, panel_id: &str, cols: u32, rows: u32) -> Result<bool, HostError> {
        self.send_panel_input(
            panel_id,
            PanelCapability::PanelResize,
            HostToExt::PanelResize(PanelResizeFrame {
                panel_id: panel_id.to_owned(),
                cols,
                rows,
            }),
        )
    }

    fn send_panel_input(
        &self,
        panel_id: &str,
        cap: PanelCapability,
        frame: HostToExt,
    ) -> Result<bool, HostError> {
        let owner = {
            let st = self.inner.lock();
            st.panels.owner(panel_id).and_then(|id| st.ext(id).cloned())
        };
        let Some(owner) = owner else {
            return self.key_for_crashed_panel(panel_id).map(|()| false);
        };
        if !owner.lock().panel_caps.contains(&cap) {
            return Ok(false);
        }
        owner.send_one_way(&encode(&frame));
        Ok(true)
    }
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

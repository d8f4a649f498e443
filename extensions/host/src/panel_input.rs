//! Pointer and size input for open panels (`panel_mouse`, `panel_resize`):
//! sent only to an owner that declared the matching capability, so an
//! extension written before them gets exactly the frames it always got.
//! Both are one-way and go through the owner's bounded sink: an owner that
//! stops reading loses frames (counted in its log), it never grows a queue.

use zot_ext_protocol::{HostToExt, PanelCapability, PanelMouseFrame, PanelResizeFrame};

use crate::codec::encode;
use crate::error::HostError;
use crate::host::Host;

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

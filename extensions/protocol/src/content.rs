//! Message blocks carried by `tool_result` (and by the agent's transcript).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One block of tool output: text, or a base64 image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text itself.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// For example `image/png`.
        mime_type: String,
        /// Base64 of the image bytes.
        data: String,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into() }
    }
}

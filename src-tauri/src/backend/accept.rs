//! A prompt from a front end, checked in one place. Every reason to
//! refuse a prompt is judged here, before anything runs, whether it came
//! through `Backend::handle` (the window, print mode) or RPC mode, which
//! must answer `started` before the prompt's first event and so takes the
//! two steps apart: [`Backend::accept_prompt`] checks, the answer goes out,
//! [`AcceptedPrompt::run`] queues.

use base64::Engine;
use zot_ext_protocol::rpc::ImageInput;
use zot_ext_protocol::rpc_results::StartedResult;
use zot_ext_protocol::RpcError;

use super::Backend;
use crate::providers::transcript::Block;

/// A prompt that passed every check, not queued yet.
#[must_use = "an accepted prompt does nothing until it is run"]
pub struct AcceptedPrompt {
    /// Where it runs.
    backend: Backend,
    /// Its text and images, as the transcript holds them.
    content: Vec<Block>,
}

impl Backend {
    /// Checks a prompt (`docs/rpc.md` `prompt`): refused with `invalid` for
    /// images that are too many, not base64, of a type the providers do not
    /// take, or too big; else accepted, to be [run](AcceptedPrompt::run).
    pub fn accept_prompt(
        &self,
        message: String,
        images: Vec<ImageInput>,
    ) -> Result<AcceptedPrompt, RpcError> {
        check_images(&images).map_err(RpcError::invalid)?;
        let mut content = vec![Block::text(message)];
        content.extend(images.into_iter().map(|i| Block::Image {
            mime_type: i.mime_type,
            data: i.data,
        }));
        Ok(AcceptedPrompt {
            backend: self.clone(),
            content,
        })
    }
}

impl AcceptedPrompt {
    /// The answer that says it was accepted.
    pub fn answer(&self) -> StartedResult {
        StartedResult { started: true }
    }

    /// Queues it behind any running prompt; its events follow on the
    /// backend's stream.
    pub fn run(self) {
        self.backend.enqueue(self.content, None);
    }
}

/// Refuses a prompt's images before anything runs: too many, not base64,
/// of a type the providers do not take, or over the size limit
/// (`zot_ext_protocol::prompt_images`, the same rules the UI applies).
fn check_images(images: &[ImageInput]) -> Result<(), String> {
    use zot_ext_protocol::prompt_images::{prompt_image_problem, PROMPT_IMAGES_MAX};
    if images.len() > PROMPT_IMAGES_MAX {
        return Err(format!(
            "prompt: {} images, over the limit of {PROMPT_IMAGES_MAX}; send fewer",
            images.len()
        ));
    }
    for (n, i) in images.iter().enumerate() {
        let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(&i.data) else {
            return Err(format!(
                "prompt: image data for {} is not valid base64",
                i.mime_type
            ));
        };
        if let Some(why) = prompt_image_problem(&i.mime_type, bytes.len() as u64) {
            return Err(format!("prompt: image {}: {why}", n + 1));
        }
    }
    Ok(())
}

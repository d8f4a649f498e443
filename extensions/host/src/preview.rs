//! What an extension registers, learned before the user enables it.
//!
//! The installer leaves a fresh install disabled so the user sees what it
//! is first; commands and tools are only known once it runs. A preview
//! starts the one extension alone in a throwaway host (the real startup
//! path, as the doctor does: nothing discovered beside it), reads what it
//! registered, and shuts it down again.

use std::path::Path;

use zot_ext_protocol::rpc::ExtensionSummary;

use crate::doctor::{started, Wait};
use crate::HostConfig;

/// Starts the extension in `dir` alone, waits until it is ready, failed or
/// out of time, and returns how it looked: state, commands, tools, themes
/// and any error (with its log path). `None` when `dir` holds no extension.
pub async fn preview(zot_home: &Path, cwd: &Path, dir: &Path) -> Option<ExtensionSummary> {
    let mut cfg = HostConfig::new(zot_home, cwd);
    cfg.explicit = vec![dir.to_path_buf()];
    cfg.discover = false;
    started(cfg, Wait::Settled, |host| host.list())
        .await
        .into_iter()
        .next()
}

//! The app's RPC tests of one extension: a [`Setup`] with a copy of
//! `agent_ext.py` running a plan, loaded with `-e`.

use std::path::PathBuf;

use serde_json::Value;
use zot_test_support::fixtures;
use zot_test_support::rpc::{Rpc, Setup};

/// The set-up and the extension's folder.
pub struct Env {
    /// The fake model, `$ZOT_HOME` and the project.
    pub zot: Setup,
    /// The extension `fx`.
    pub ext: PathBuf,
}

/// A fresh set-up with the extension `fx` (in `$ZOT_HOME/fx-src`) running
/// `plan`.
pub async fn env(plan: Value) -> Env {
    let zot = Setup::new().await;
    let ext = fixtures::agent_ext(zot.home.path(), "fx-src", plan);
    Env { zot, ext }
}

/// `zot --mode rpc` with the extension, no others and no session.
pub async fn start(e: &Env) -> Rpc {
    e.zot.rpc(&["-e", e.ext.to_str().unwrap()]).await
}

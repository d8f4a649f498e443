//! The Backend run in process, as the desktop runs it: options with only the
//! fake model server set (no session, no discovered extensions), and waiting
//! for the events a test expects.

use std::path::Path;
use std::time::Duration;

use tokio::sync::mpsc::Receiver;
use zot_ext_protocol::rpc::UiEvent;
use zot_lib::backend::{BackendOptions, SessionChoice};
use zot_lib::providers::ProviderKind;

/// Anthropic at `url` with key `k`, interactive; change fields with
/// `BackendOptions { .., ..options(..) }`.
pub fn options(home: &Path, cwd: &Path, url: &str) -> BackendOptions {
    BackendOptions {
        provider: ProviderKind::Anthropic,
        model: None,
        api_key: Some("k".into()),
        base_url: Some(url.into()),
        cwd: cwd.to_path_buf(),
        zot_home: home.to_path_buf(),
        explicit: Vec::new(),
        no_ext: true,
        watch: false,
        trust_project: false,
        tools: None,
        no_tools: false,
        max_steps: 50,
        system_prompt: None,
        append_system_prompt: Vec::new(),
        session: SessionChoice::Disabled,
        interactive: true,
        // The window's default is `ask`; tests that are not about
        // approvals run tools unasked.
        approvals: zot_ext_protocol::approvals::ApprovalMode::Auto,
        approvals_can_ask: true,
    }
}

/// Events up to and including the first that matches `pred` (30 s at most).
pub async fn until(rx: &mut Receiver<UiEvent>, pred: impl Fn(&UiEvent) -> bool) -> Vec<UiEvent> {
    let mut seen = Vec::new();
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(30), rx.recv())
            .await
            .unwrap_or_else(|_| panic!("timed out; saw {seen:#?}"))
            .expect("event stream closed");
        let hit = pred(&ev);
        seen.push(ev);
        if hit {
            return seen;
        }
    }
}

//! The command line resolved into what a backend starts with. It lives
//! with the parser so the backend never depends on the command line: the
//! window, print, JSON and RPC modes all start one from [`BackendOptions`].

use crate::backend::options::{approval_mode, resolve_cwd, zot_home, SessionChoice};
use crate::backend::BackendOptions;
use crate::cli::args::Cli;

impl BackendOptions {
    /// Resolves the command line.
    pub fn from_cli(cli: &Cli, interactive: bool) -> anyhow::Result<Self> {
        let session = if cli.no_session {
            SessionChoice::Disabled
        } else if let Some(f) = &cli.session {
            SessionChoice::File(f.clone())
        } else if cli.continue_ {
            SessionChoice::Continue
        } else {
            SessionChoice::New
        };
        let home = zot_home()?;
        Ok(BackendOptions {
            provider: cli.provider,
            model: cli.model.clone(),
            api_key: cli.api_key.clone(),
            base_url: cli.base_url.clone(),
            cwd: resolve_cwd(cli.cwd.as_ref())?,
            zot_home: home.clone(),
            explicit: cli.ext.clone(),
            no_ext: cli.no_ext,
            watch: cli.watch,
            trust_project: cli.trust_project,
            tools: cli.tools.clone(),
            no_tools: cli.no_tools,
            max_steps: cli.max_steps,
            system_prompt: cli.system_prompt.clone(),
            append_system_prompt: cli.append_system_prompt.clone(),
            session,
            interactive,
            approvals: approval_mode(cli.approvals, interactive, &home),
            approvals_can_ask: true,
        })
    }
}

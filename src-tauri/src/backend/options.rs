//! What a backend is started with: `$ZOT_HOME`, the project directory,
//! the session choice, the provider. `cli::backend_options` fills it from
//! the command line; the desktop's project switch copies it.

use std::path::PathBuf;

use anyhow::Context;
use zot_ext_host::HostConfig;
use zot_ext_protocol::approvals::ApprovalMode;

pub use crate::agent::session::SessionChoice;
use crate::agent::ProviderSlot;
use crate::config::Config;
use crate::providers::{self, ProviderKind};
use crate::secrets::auth;

/// Everything [`super::Backend::start`] needs.
#[derive(Debug, Clone)]
pub struct BackendOptions {
    /// Which provider.
    pub provider: ProviderKind,
    /// `--model`, else the provider's default.
    pub model: Option<String>,
    /// `--api-key`.
    pub api_key: Option<String>,
    /// `--base-url`.
    pub base_url: Option<String>,
    /// The project directory (absolute).
    pub cwd: PathBuf,
    /// `$ZOT_HOME`.
    pub zot_home: PathBuf,
    /// `--ext` paths, in argv order.
    pub explicit: Vec<PathBuf>,
    /// `--no-ext`.
    pub no_ext: bool,
    /// `--watch`: reload when an `--ext` folder's sources change.
    pub watch: bool,
    /// `--trust-project`: run the project's extensions this once.
    pub trust_project: bool,
    /// `--tools CSV`.
    pub tools: Option<String>,
    /// `--no-tools`.
    pub no_tools: bool,
    /// `--max-steps`.
    pub max_steps: u32,
    /// `--system-prompt`.
    pub system_prompt: Option<String>,
    /// `--append-system-prompt`, in order.
    pub append_system_prompt: Vec<String>,
    /// `--continue` / `--session` / `--no-session`.
    pub session: SessionChoice,
    /// The GUI: `submit` frames queue prompts. Headless modes ignore them.
    pub interactive: bool,
    /// `--approvals`, resolved: the flag, else `approvals.desktop` from
    /// `config.json` (window only), else `ask` in the window and `auto`
    /// headless.
    pub approvals: ApprovalMode,
    /// Whether a client can answer `tool_approval` (false in print and
    /// JSON modes, where what would be asked is denied).
    pub approvals_can_ask: bool,
}

/// `$ZOT_HOME`, or an error saying how to set it.
pub fn zot_home() -> anyhow::Result<PathBuf> {
    zot_ext_host::home::zot_home()
        .context("cannot find a home directory for zot's state; set ZOT_HOME")
}

/// The project directory: `--cwd`, else the current one, made absolute.
pub fn resolve_cwd(flag: Option<&PathBuf>) -> anyhow::Result<PathBuf> {
    let here = std::env::current_dir().context("cannot read the current directory")?;
    let cwd = match flag {
        Some(p) if p.is_absolute() => p.clone(),
        Some(p) => here.join(p),
        None => here,
    };
    std::fs::canonicalize(&cwd)
        .with_context(|| format!("--cwd {} is not a directory zot can open", cwd.display()))
}

impl BackendOptions {
    /// The model this run uses: `--model`, or the provider's default.
    pub fn model_or_default(&self) -> String {
        self.model
            .clone()
            .unwrap_or_else(|| self.provider.default_model().to_owned())
    }

    /// The extension host's configuration for this run; the desktop doctor
    /// checks exactly what the app started.
    pub fn host_config(&self) -> HostConfig {
        let mut cfg = HostConfig::new(&self.zot_home, &self.cwd);
        cfg.secret_env_values.extend(self.api_key.clone());
        cfg.explicit = self.explicit.clone();
        cfg.discover = !self.no_ext;
        if self.trust_project {
            cfg.run_trust.grant();
        }
        cfg.provider = self.provider.as_str().into();
        cfg.model = self.model_or_default();
        if let Some(secs) = Config::read(&self.zot_home).ext_start_timeout() {
            cfg.hello_timeout = secs;
        }
        if let Some(idle) = tool_idle_timeout() {
            cfg.tool_timeout = idle;
        }
        // Whoever can answer an approval can answer a dialog: print and
        // JSON modes have nobody, so dialogs are answered "no user".
        cfg.dialogs_have_user = self.approvals_can_ask;
        cfg
    }

    /// A client for `kind`: its key from `--api-key` (for the provider it was
    /// given with), the environment or `auth.json`; `--base-url` likewise only
    /// for the provider named at start, since it points at that one's server.
    pub fn connect(&self, kind: ProviderKind) -> ProviderSlot {
        let from_start = kind == self.provider;
        let flag = self.api_key.as_deref().filter(|_| from_start);
        let key = auth::resolve(kind, flag, &self.zot_home);
        // Whatever key zot holds never reaches a child (extension or bash),
        // whichever variable might also carry it.
        if let Some((k, _)) = &key {
            zot_ext_host::child_env::add_secret_value(k);
        }
        let problem = (key.is_none() && kind.needs_key())
            .then(|| auth::missing_key_message(kind, &self.zot_home));
        let provider = providers::build(providers::ProviderConfig {
            kind,
            base_url: self
                .base_url
                .clone()
                .filter(|_| from_start)
                .unwrap_or_else(|| kind.default_base_url().to_owned()),
            api_key: key.map(|(k, _)| k),
        });
        ProviderSlot {
            kind,
            provider,
            problem,
        }
    }
}

/// The shared secret an RPC client must send in `hello`, when one is set:
/// `ZOT_RPC_TOKEN`, or `ZOTCORE_RPC_TOKEN`, the name the reference zot and
/// its example clients use (an empty value counts as unset).
pub fn rpc_token() -> Option<String> {
    ["ZOT_RPC_TOKEN", "ZOTCORE_RPC_TOKEN"]
        .iter()
        .filter_map(|k| crate::secrets::startup::var(k))
        .find(|v| !v.is_empty())
}

/// The approval mode of a run: `--approvals`, else (in the window) the
/// Settings choice `approvals.desktop`, else `ask` in the window and
/// `auto` headless (docs/rpc.md "Tool approvals"). A broken section leaves
/// the window at `ask`.
pub fn approval_mode(
    flag: Option<ApprovalMode>,
    interactive: bool,
    home: &std::path::Path,
) -> ApprovalMode {
    if let Some(m) = flag {
        return m;
    }
    if !interactive {
        return ApprovalMode::Auto;
    }
    crate::agent::approval::rules::load(home)
        .ok()
        .and_then(|r| r.desktop)
        .unwrap_or(ApprovalMode::Ask)
}

/// `ZOT_TOOL_IDLE_TIMEOUT_MS`: the extension tool idle timeout (60 s),
/// shorter for tests of long tool calls (docs/protocol.md "Long tool
/// calls"); anything but a whole number above 0 is ignored.
fn tool_idle_timeout() -> Option<std::time::Duration> {
    std::env::var("ZOT_TOOL_IDLE_TIMEOUT_MS")
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|ms| *ms > 0)
        .map(std::time::Duration::from_millis)
}

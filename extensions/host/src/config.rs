//! What the host needs to know before it starts: where to look, what to
//! announce in `hello_ack`, which names are built in, and how long to wait.

use std::path::PathBuf;
use std::time::Duration;

/// Longest line an extension may write: 16 MiB, without the newline.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Idle time after the last registration frame that counts as `ready`.
pub const AUTO_READY_IDLE: Duration = Duration::from_millis(250);
/// Longest registration window after `hello_ack` before auto-ready.
pub const READY_GRACE: Duration = Duration::from_secs(3);
/// How long an extension may take to send `hello` after it was spawned
/// while its process is alive. Generous because the reference zot waits
/// without limit and real extensions build on first start (`go run .`
/// takes 13–15 s on a cold cache); set `ext_start_timeout_secs` in
/// `config.json` to change it.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(120);
/// How long startup (`Host::wait_ready`) waits for an extension that has
/// not said `hello` yet before it lets the app go on without it.
pub const STARTUP_WAIT: Duration = Duration::from_secs(5);
/// A start slower than this (spawn → ready) is pointed out by the doctor:
/// it was the old hello limit, and users feel it.
pub const SLOW_START: Duration = Duration::from_secs(10);
/// Shutdown: time to send `shutdown_ack` and exit before SIGTERM.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
/// Shutdown: time after SIGTERM before SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(1);

/// Everything [`crate::Host::start`] needs.
#[derive(Debug, Clone)]
pub struct HostConfig {
    /// `$ZOT_HOME`: global extensions and logs live under it.
    pub zot_home: PathBuf,
    /// The project directory: project-local extensions live under
    /// `cwd/.zot/extensions`, and it is sent as `hello_ack.cwd`.
    pub cwd: PathBuf,
    /// `--ext` paths in argv order (directories holding `extension.json`).
    pub explicit: Vec<PathBuf>,
    /// `false` with `--no-ext`: only the explicit paths load.
    pub discover: bool,
    /// Sent in `hello_ack`.
    pub provider: String,
    /// Sent in `hello_ack`.
    pub model: String,
    /// Sent in `hello_ack`.
    pub zot_version: String,
    /// Built-in slash commands; they always win over extensions.
    pub builtin_commands: Vec<String>,
    /// Built-in tool names; reserved.
    pub builtin_tools: Vec<String>,
    /// How long a `tool_call` may take (60 s by default).
    pub tool_timeout: Duration,
    /// How long an `event_intercept` may take before it counts as allow.
    pub intercept_timeout: Duration,
    /// How long a `command_invoked` may take (30 s by default).
    pub command_timeout: Duration,
    /// How long a spawned extension may take to send `hello` (120 s).
    pub hello_timeout: Duration,
    /// How long startup waits for an extension that has not said `hello`
    /// before going on without it ([`STARTUP_WAIT`]).
    pub startup_wait: Duration,
    /// Variable names dropped from every extension's environment besides
    /// [`crate::io::child_env::CREDENTIAL_VARS`].
    pub secret_env_names: Vec<String>,
    /// Secret values (e.g. what `--api-key` gave): any variable holding one
    /// is dropped from every extension's environment.
    pub secret_env_values: Vec<String>,
    /// Trust of the project for this run (`--trust-project` grants it
    /// before start; `Host::trust_project` may grant it later). Remembered
    /// trust lives in `$ZOT_HOME/trust.json` ([`crate::policy::trust`]).
    pub run_trust: crate::policy::run_trust::RunTrust,
    /// The bubblewrap binary sandboxed extensions run under: a path, or a
    /// name looked up on `PATH`. From `$ZOT_BWRAP`, else `bwrap`
    /// ([`crate::io::sandbox::default_bwrap`]).
    pub bwrap: PathBuf,
    /// The slirp4netns that gives a `net: true` sandbox its own network: a
    /// path, or a name looked up on `PATH`. From `$ZOT_SLIRP4NETNS`, else
    /// `slirp4netns` ([`crate::io::sandbox::net::default_slirp4netns`]).
    pub slirp4netns: PathBuf,
    /// Whether someone can answer an extension's dialogs (`ui_request`):
    /// false in print and JSON modes, where every request is answered
    /// `cancel` with reason "no user" at once.
    pub dialogs_have_user: bool,
}

impl HostConfig {
    /// The defaults for one project: discovery on, the spec's built-in
    /// names and timeouts, no explicit extensions.
    pub fn new(zot_home: impl Into<PathBuf>, cwd: impl Into<PathBuf>) -> Self {
        HostConfig {
            zot_home: zot_home.into(),
            cwd: cwd.into(),
            explicit: Vec::new(),
            discover: true,
            provider: String::new(),
            model: String::new(),
            zot_version: env!("CARGO_PKG_VERSION").to_owned(),
            builtin_commands: zot_ext_protocol::BUILTIN_COMMANDS
                .iter()
                .map(|c| c.name.to_owned())
                .collect(),
            builtin_tools: ["read", "write", "edit", "bash", "skill"]
                .map(String::from)
                .to_vec(),
            tool_timeout: Duration::from_secs(60),
            intercept_timeout: Duration::from_secs(5),
            command_timeout: Duration::from_secs(30),
            hello_timeout: HELLO_TIMEOUT,
            startup_wait: STARTUP_WAIT,
            secret_env_names: Vec::new(),
            secret_env_values: Vec::new(),
            run_trust: crate::policy::run_trust::RunTrust::default(),
            bwrap: crate::io::sandbox::default_bwrap(),
            slirp4netns: crate::io::sandbox::net::default_slirp4netns(),
            dialogs_have_user: true,
        }
    }
}

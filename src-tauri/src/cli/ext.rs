//! `zot ext …`: manage extensions from the shell. Each subcommand is a thin
//! front end over the management operations in `zot_ext_host`, which the
//! desktop manager calls too; this module only parses, asks, and prints.
//! Data goes to stdout, progress and errors to stderr.

mod bundle;
mod catalog;
mod config;
mod doctor;
mod list;
mod logs;
mod manage;
mod mcp;
mod new;
mod output;
mod test;
mod trust;
mod update;

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `zot ext` and its subcommand.
#[derive(Args, Debug)]
pub struct ExtArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ExtCommand,
}

/// The `zot ext` subcommands (spec: "Managing extensions from the CLI").
#[derive(Subcommand, Debug)]
pub enum ExtCommand {
    /// List installed extensions and their state.
    List {
        /// Print JSON (an array of extension summaries) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Start every extension as zot would and report load, registration
    /// and conflict problems; exits non-zero when anything is broken.
    Doctor {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the extensions zot ships (install one with `zot ext install <name>`).
    Catalog {
        /// Print JSON (an array of catalog entries) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Sign every entry of a catalog index with a key file (for whoever
    /// keeps a catalog: `make sign-catalog KEY=FILE` signs zot's own).
    #[command(name = "catalog-sign", hide = true)]
    CatalogSign {
        /// A private key made by `zot ext keygen` (zot's catalog key for
        /// examples/catalog.json).
        #[arg(long, value_name = "KEYFILE")]
        key: PathBuf,
        /// The index to sign in place.
        #[arg(value_name = "INDEX.json")]
        index: PathBuf,
    },
    /// Copy a directory, shallow-clone a git URL, or install a catalog entry
    /// into $ZOT_HOME/extensions/.
    Install {
        /// A directory holding extension.json, a git URL, or a name from
        /// `zot ext catalog`.
        #[arg(value_name = "PATH|GIT-URL|CATALOG-NAME", allow_hyphen_values = true)]
        source: String,
        /// Replace an installed extension of the same name.
        #[arg(long)]
        force: bool,
        /// Accept the new version's extra permissions without asking (an
        /// update that asks for more asks on a terminal, and is refused
        /// without one unless this is given).
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Update extensions from where they were installed (git: the remote's
    /// default branch; catalog: the version zot ships; folder: the folder
    /// again; bundle: its file or URL again). The replaced copy is kept for
    /// `zot ext rollback`.
    Update {
        /// The extensions to update.
        #[arg(allow_hyphen_values = false)]
        names: Vec<String>,
        /// Every installed extension with a recorded source.
        #[arg(long)]
        all: bool,
        /// Only list `NAME OLD → NEW` for each update available.
        #[arg(long)]
        check: bool,
        /// Accept what an update asks for beyond what you accepted (without
        /// it, and without a terminal to ask on, such an update is installed
        /// but does not start until `zot ext accept NAME`).
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Put back the copy the last update replaced, with the permissions
    /// accepted for it.
    Rollback {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
    },
    /// Write an extension folder as a .zotx bundle (one zip, its manifest
    /// first), signed with --sign.
    Pack {
        /// The folder holding extension.json.
        dir: PathBuf,
        /// The bundle to write (default: NAME-VERSION.zotx here).
        #[arg(short = 'o', long = "output", value_name = "FILE.zotx")]
        output: Option<PathBuf>,
        /// A private key made by `zot ext keygen`.
        #[arg(long, value_name = "KEYFILE")]
        sign: Option<PathBuf>,
    },
    /// Make an ed25519 key pair for signing bundles: the private key in FILE
    /// (mode 0600), the public key in FILE.pub and on stdout.
    Keygen {
        /// The private key's file.
        file: PathBuf,
    },
    /// Accept what an extension declares now (after an update or an edit
    /// of its manifest reached further, or a project's new extension, it
    /// does not start until you do); says what changed, and remembers it in
    /// $ZOT_HOME/permissions.json.
    Accept {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
    },
    /// Show the token a WebSocket extension's endpoint must prove it holds
    /// (made the first time; kept in the OS keychain).
    Token {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
        /// Replace it with a new one (the endpoint must be configured again).
        #[arg(long)]
        new: bool,
    },
    /// Scaffold a working extension (manifest, a command, a tool, a test, a
    /// README; a panel with --panel) in ./NAME.
    New {
        /// The extension's name (also its first command and its folder).
        name: String,
        /// python, typescript or rust.
        #[arg(long, default_value = "python")]
        lang: String,
        /// Add a panel with keys.
        #[arg(long)]
        panel: bool,
        /// Where to create the NAME folder (default: the current directory).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Run the conformance kit against an extension folder: handshake,
    /// readiness, registrations, commands, tools, panels, shutdown.
    Test {
        /// The folder holding extension.json.
        dir: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Seconds a command or tool may take (default: the spec's 30 s / 60 s).
        #[arg(long)]
        timeout: Option<f64>,
    },
    /// Delete an installed extension's directory.
    Remove {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
        /// Do not ask for confirmation.
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Show or change an extension's settings (its manifest's `config`):
    /// all of them, one, or set KEY to VALUE. A secret is typed at a prompt
    /// without echo (or piped on stdin), never given on the command line.
    Config {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
        /// One setting.
        key: Option<String>,
        /// Its new value (`true`/`false` for a boolean, a number for a number).
        #[arg(allow_hyphen_values = true)]
        value: Option<String>,
    },
    /// Re-enable a disabled extension.
    Enable {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
    },
    /// Disable an extension without removing it.
    Disable {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
    },
    /// Print an extension's stderr log.
    Logs {
        /// The extension's name.
        #[arg(allow_hyphen_values = true)]
        name: String,
        /// Keep printing as the log grows (survives truncation and re-creation).
        #[arg(long, short = 'f')]
        follow: bool,
    },
    /// Trust a project folder so its own extensions (.zot/extensions) run;
    /// remembered in $ZOT_HOME/trust.json.
    Trust {
        /// The project folder; the current one (or --cwd) when absent.
        dir: Option<PathBuf>,
    },
    /// Forget the trust of a project folder; its extensions no longer run.
    Untrust {
        /// The project folder; the current one (or --cwd) when absent.
        dir: Option<PathBuf>,
    },
    /// Add an MCP server as an extension: `add-mcp NAME -- COMMAND ARGS…`
    /// (stdio) or `add-mcp NAME --url URL [--header K:V]…` (streamable HTTP).
    #[command(name = "add-mcp")]
    AddMcp {
        /// The entry's name (its prompts become /NAME:prompt).
        name: String,
        /// A streamable-HTTP server's endpoint.
        #[arg(long)]
        url: Option<String>,
        /// A header for every request to --url, as `Name: value`.
        #[arg(long = "header", value_name = "K:V")]
        headers: Vec<String>,
        /// An environment variable for a stdio server, as `KEY=value`.
        #[arg(long = "env", value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// Replace an installed extension of the same name.
        #[arg(long)]
        force: bool,
        /// The stdio server's command and its arguments, after `--`.
        #[arg(last = true, value_name = "COMMAND ARGS")]
        command: Vec<String>,
    },
    /// Import the servers of an `mcpServers` JSON file (Claude Desktop,
    /// Cursor, VS Code, …); entries zot cannot use are listed with why.
    #[command(name = "import-mcp")]
    ImportMcp {
        /// The JSON file.
        file: PathBuf,
        /// Replace installed extensions of the same names.
        #[arg(long)]
        force: bool,
    },
    /// List the trusted project folders.
    Trusted {
        /// Print JSON (an array of folders) instead of lines.
        #[arg(long)]
        json: bool,
    },
}

/// What `zot ext` needs from the global command line and environment.
#[derive(Debug, Clone)]
pub struct ExtGlobals {
    /// `$ZOT_HOME`.
    pub zot_home: PathBuf,
    /// The project directory (project-local extensions live under it).
    pub cwd: PathBuf,
    /// `--ext/-e PATH`, in argv order.
    pub explicit: Vec<PathBuf>,
    /// `--no-ext`: skip project-local and global discovery.
    pub no_ext: bool,
    /// `--trust-project`: run the project's extensions this once.
    pub trust_project: bool,
}

impl ExtGlobals {
    /// The host configuration a normal zot start would use: the same
    /// directories, `--ext` paths and `--no-ext`.
    pub fn host_config(&self) -> zot_ext_host::HostConfig {
        let mut cfg = zot_ext_host::HostConfig::new(&self.zot_home, &self.cwd);
        cfg.explicit = self.explicit.clone();
        cfg.discover = !self.no_ext;
        if self.trust_project {
            cfg.run_trust.grant();
        }
        cfg
    }
}

/// Runs `future` on a fresh runtime (the CLI is otherwise synchronous).
fn block_on<F: std::future::Future>(future: F) -> anyhow::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the async runtime: {e}"))?;
    Ok(runtime.block_on(future))
}

/// Runs one `zot ext` subcommand and returns the process exit code.
pub fn run(args: ExtArgs, global: &ExtGlobals) -> i32 {
    let result = match args.command {
        ExtCommand::List { json } => list::run(global, json),
        ExtCommand::Doctor { json } => doctor::run(global, json),
        ExtCommand::Catalog { json } => catalog::run(global, json),
        ExtCommand::CatalogSign { key, index } => catalog::sign(&key, &index),
        ExtCommand::Install { source, force, yes } => manage::install(global, &source, force, yes),
        ExtCommand::Accept { name } => manage::accept(global, &name),
        ExtCommand::Update {
            names,
            all,
            check,
            yes,
        } => update::update(global, &names, all, check, yes),
        ExtCommand::Rollback { name } => update::rollback(global, &name),
        ExtCommand::Pack { dir, output, sign } => {
            bundle::pack(global, &dir, output.as_deref(), sign.as_deref())
        }
        ExtCommand::Keygen { file } => bundle::keygen(&file),
        ExtCommand::Token { name, new } => manage::token(global, &name, new),
        ExtCommand::New {
            name,
            lang,
            panel,
            dir,
        } => new::run(global, &name, &lang, panel, dir),
        ExtCommand::Test { dir, json, timeout } => test::run(global, &dir, json, timeout),
        ExtCommand::Remove { name, yes } => manage::remove(global, &name, yes),
        ExtCommand::Config { name, key, value } => {
            config::run(global, &name, key.as_deref(), value.as_deref())
        }
        ExtCommand::Enable { name } => manage::set_enabled(global, &name, true),
        ExtCommand::Disable { name } => manage::set_enabled(global, &name, false),
        ExtCommand::Logs { name, follow } => logs::run(global, &name, follow),
        ExtCommand::Trust { dir } => trust::trust(global, dir.as_deref()),
        ExtCommand::Untrust { dir } => trust::untrust(global, dir.as_deref()),
        ExtCommand::Trusted { json } => trust::list(global, json),
        ExtCommand::AddMcp {
            name,
            url,
            headers,
            env,
            force,
            command,
        } => mcp::add(global, &name, url, &headers, &env, &command, force),
        ExtCommand::ImportMcp { file, force } => mcp::import(global, &file, force),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("zot ext: {e:#}");
            1
        }
    }
}

//! zot: one binary that is the desktop app, the headless agent
//! (`--mode rpc|json`, `-p`) and the `zot ext` CLI. `run` parses argv and
//! hands over to the chosen front end.

pub mod agent;
pub mod backend;
pub mod checkpoints;
pub mod cli;
pub mod config;
#[cfg(feature = "desktop")]
pub mod desktop;
pub mod dock_sizes;
pub mod dropped;
pub mod modes;
pub mod notifications;
pub mod panel_page;
pub mod panel_placements;
pub mod panel_windows;
pub mod projects;
pub mod providers;
pub mod secrets;
pub mod settings;
pub mod signals;
pub mod state_dir;
pub mod tools;

use clap::Parser;

use backend::BackendOptions;
use cli::args::{Cli, Command, Mode};

/// Parses argv and runs the chosen mode; returns the process exit code.
pub fn run() -> i32 {
    // First, before zot starts a thread: the keys leave the environment
    // block and the argument area (where clap then finds an empty value).
    secrets::startup::start();
    let mut cli = Cli::parse();
    if let Some(key) = secrets::startup::api_key() {
        cli.api_key = Some(key);
    }
    match run_cli(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("zot: {e:#}");
            1
        }
    }
}

fn run_cli(mut cli: Cli) -> anyhow::Result<i32> {
    if matches!(cli.command, Some(Command::Ext(_))) {
        let Some(Command::Ext(args)) = cli.command.take() else {
            unreachable!()
        };
        let zot_home = backend::options::zot_home()?;
        state_dir::prepare(&zot_home)?;
        let globals = cli::ext::ExtGlobals {
            zot_home,
            cwd: backend::options::resolve_cwd(cli.cwd.as_ref())?,
            explicit: cli.ext.clone(),
            no_ext: cli.no_ext,
            trust_project: cli.trust_project,
        };
        return Ok(cli::ext::run(args, &globals));
    }
    if let Some(Command::Checkpoints(args)) = &cli.command {
        let zot_home = backend::options::zot_home()?;
        state_dir::prepare(&zot_home)?;
        return Ok(cli::checkpoints::run(args, &zot_home));
    }
    if cli.list_models {
        let text = if cli.json {
            serde_json::to_string_pretty(providers::catalog::CATALOG)? + "\n"
        } else {
            providers::catalog::table()
        };
        print!("{text}");
        return Ok(0);
    }
    if cli
        .reasoning
        .is_some_and(|r| r != cli::args::Reasoning::Off)
    {
        eprintln!("zot: --reasoning is accepted but not applied yet: the model runs with its default reasoning");
    }
    let Some(mode) = cli.mode() else {
        #[cfg(feature = "desktop")]
        return Ok(desktop::run(BackendOptions::from_cli(&cli, true)?));
        #[cfg(not(feature = "desktop"))]
        anyhow::bail!(
            "this zot was built without the desktop window; run a prompt with `zot -p \"…\"`, or use --mode json|rpc"
        );
    };
    let mut opts = BackendOptions::from_cli(&cli, false)?;
    // Print and JSON modes read no commands, so nobody could answer.
    opts.approvals_can_ask = mode == Mode::Rpc;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let code = rt.block_on(async move {
        match mode {
            Mode::Rpc => modes::rpc::run(opts).await,
            Mode::Print | Mode::Json => {
                let prompt = modes::prompt_text(&cli.prompt)?;
                modes::print::run(opts, prompt, mode == Mode::Json).await
            }
        }
    });
    // The extensions are already shut down. A read of stdin blocked in the
    // runtime's blocking pool (RPC mode ended by a signal, stdin still
    // open) never returns on its own, and dropping the runtime would wait
    // for it forever.
    rt.shutdown_background();
    code
}

//! The command line: every flag of `docs/rpc.md` plus the print/JSON modes,
//! the `rpc` alias and the `ext` subcommand, parsed with clap.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use zot_ext_protocol::approvals::ApprovalMode;

use super::ext::ExtArgs;
use crate::providers::ProviderKind;

/// How zot runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Print the final text of one prompt.
    Print,
    /// Print every event of one prompt as NDJSON.
    Json,
    /// Serve `docs/rpc.md` on stdin/stdout.
    Rpc,
}

/// `--reasoning` levels, as the reference zot spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Reasoning {
    /// No thinking.
    Off,
    /// The least.
    #[value(alias = "minimum")]
    Minimal,
    /// Low.
    Low,
    /// Medium.
    Medium,
    /// High.
    High,
    /// Extra high.
    Xhigh,
    /// As much as the model allows.
    Max,
}

/// zot: an extensible AI coding agent.
#[derive(Debug, Parser)]
#[command(name = "zot", version, about)]
pub struct Cli {
    /// `rpc` (same as `--mode rpc`) or `ext …`.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The prompt, for print and JSON modes (read from stdin when absent).
    #[arg(value_name = "PROMPT")]
    pub prompt: Vec<String>,

    /// Print mode: run the prompt and print the final text.
    #[arg(short = 'p', long = "print")]
    pub print: bool,

    /// print, json or rpc; without it (and without -p) the window opens.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,

    /// The provider.
    #[arg(long, value_enum, default_value = "anthropic", global = true)]
    pub provider: ProviderKind,

    /// The model id (default: the provider's default).
    #[arg(long, global = true)]
    pub model: Option<String>,

    /// The API key (else the provider's env var, else $ZOT_HOME/auth.json).
    #[arg(long, global = true)]
    pub api_key: Option<String>,

    /// Talk to another server that speaks the provider's wire format.
    #[arg(long, global = true)]
    pub base_url: Option<String>,

    /// The project directory (default: the current directory).
    #[arg(long, global = true)]
    pub cwd: Option<PathBuf>,

    /// Model steps per prompt before the loop stops.
    #[arg(long, default_value_t = 50, global = true)]
    pub max_steps: u32,

    /// Offer no tools to the model.
    #[arg(long, global = true)]
    pub no_tools: bool,

    /// The built-in tools to offer, comma-separated (read,write,edit,bash).
    #[arg(long, value_name = "CSV", global = true)]
    pub tools: Option<String>,

    /// Load an extension from this directory for this run (repeatable).
    #[arg(short = 'e', long = "ext", value_name = "PATH", global = true)]
    pub ext: Vec<PathBuf>,

    /// Skip project-local and global extensions.
    #[arg(long, global = true)]
    pub no_ext: bool,

    /// Reload the extensions when a `--ext` folder's sources change (debounced).
    #[arg(long, global = true)]
    pub watch: bool,

    /// Run this project's own extensions (<cwd>/.zot/extensions) for this
    /// run without remembering the trust (`zot ext trust` remembers it).
    #[arg(long, global = true)]
    pub trust_project: bool,

    /// Replace the system prompt.
    #[arg(long, value_name = "TEXT", global = true)]
    pub system_prompt: Option<String>,

    /// Add to the system prompt (repeatable).
    #[arg(long, value_name = "TEXT", global = true)]
    pub append_system_prompt: Vec<String>,

    /// Do not save the conversation.
    #[arg(long, global = true)]
    pub no_session: bool,

    /// Resume (and append to) this session file.
    #[arg(long, value_name = "FILE", global = true)]
    pub session: Option<PathBuf>,

    /// Resume the newest session of this project.
    #[arg(short = 'c', long = "continue", global = true)]
    pub continue_: bool,

    /// Tool approvals: `auto` runs every tool unless a rule in
    /// $ZOT_HOME/config.json denies it; `ask` waits for the user on calls
    /// that need approval (docs/security.md). Default: `auto` headless,
    /// `ask` (or the Settings choice) in the window.
    #[arg(long, value_name = "auto|ask", value_parser = parse_approvals, global = true)]
    pub approvals: Option<ApprovalMode>,

    /// Reasoning effort (off, minimal, low, medium, high, xhigh, max).
    /// Accepted for the reference zot's clients, which pass it; zot does
    /// not send a thinking setting to providers yet (docs/rpc.md).
    #[arg(long, value_enum, value_name = "LEVEL", global = true)]
    pub reasoning: Option<Reasoning>,

    /// Print the models zot knows (context window, max output, reasoning,
    /// source) and exit.
    #[arg(long)]
    pub list_models: bool,

    /// With --list-models: a JSON array instead of the table.
    #[arg(long, requires = "list_models")]
    pub json: bool,
}

/// Parses `--approvals`.
fn parse_approvals(s: &str) -> Result<ApprovalMode, String> {
    match s {
        "auto" => Ok(ApprovalMode::Auto),
        "ask" => Ok(ApprovalMode::Ask),
        _ => Err(format!("{s:?} is not a mode; use auto or ask")),
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Same as `--mode rpc`.
    Rpc,
    /// Manage extensions.
    Ext(ExtArgs),
    /// Manage the checkpoints taken before each prompt (`prune`).
    Checkpoints(super::checkpoints::CheckpointsArgs),
}

impl Cli {
    /// The mode asked for, if any (`None` opens the window).
    pub fn mode(&self) -> Option<Mode> {
        if matches!(self.command, Some(Command::Rpc)) {
            return Some(Mode::Rpc);
        }
        if self.mode.is_some() {
            return self.mode;
        }
        if self.print {
            return Some(Mode::Print);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("zot").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn print_flag_takes_the_positional_prompt() {
        let c = parse(&["-p", "hello there", "--provider", "openai"]);
        assert_eq!(c.mode(), Some(Mode::Print));
        assert_eq!(c.prompt, vec!["hello there"]);
        assert_eq!(c.provider, ProviderKind::Openai);
        assert_eq!(c.max_steps, 50);
    }

    #[test]
    fn rpc_alias_and_repeatable_flags() {
        let c = parse(&[
            "rpc",
            "-e",
            "a",
            "--ext",
            "b",
            "--append-system-prompt",
            "x",
            "--append-system-prompt",
            "y",
        ]);
        assert_eq!(c.mode(), Some(Mode::Rpc));
        assert_eq!(c.ext, vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(c.append_system_prompt, vec!["x", "y"]);
    }

    #[test]
    fn ext_subcommand_sees_global_flags_on_either_side() {
        let c = parse(&["--ext", "a", "ext", "list", "--no-ext"]);
        assert!(matches!(c.command, Some(Command::Ext(_))));
        assert_eq!(c.ext, vec![PathBuf::from("a")]);
        assert!(c.no_ext);
    }

    #[test]
    fn approvals_take_auto_or_ask() {
        assert_eq!(
            parse(&["--approvals", "ask"]).approvals,
            Some(ApprovalMode::Ask)
        );
        assert_eq!(parse(&["rpc"]).approvals, None);
        assert!(Cli::try_parse_from(["zot", "--approvals", "sometimes"]).is_err());
    }

    #[test]
    fn an_unknown_provider_is_refused() {
        assert!(Cli::try_parse_from(["zot", "--provider", "nope"]).is_err());
    }
}

//! `zot checkpoints prune`: applies the pruning policy
//! (`checkpoints::prune`, docs/desktop.md "Checkpoints") to every project
//! now and says what it removed.

use clap::{Args, Subcommand};

/// `zot checkpoints …`.
#[derive(Debug, Args)]
pub struct CheckpointsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: CheckpointsAction,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum CheckpointsAction {
    /// Remove the checkpoints of sessions not written for 30 days (and of
    /// deleted sessions), keeping any younger than a day.
    Prune,
}

/// Runs it; returns the exit code.
pub fn run(args: &CheckpointsArgs, zot_home: &std::path::Path) -> i32 {
    match args.action {
        CheckpointsAction::Prune => {
            match crate::checkpoints::prune::prune(zot_home, std::time::SystemTime::now()) {
                Ok(p) => {
                    println!(
                        "pruned {} checkpoint{} in {} project{}; kept {}; {} → {}",
                        p.removed,
                        if p.removed == 1 { "" } else { "s" },
                        p.projects,
                        if p.projects == 1 { "" } else { "s" },
                        p.kept,
                        size(p.bytes_before),
                        size(p.bytes_after),
                    );
                    0
                }
                Err(e) => {
                    eprintln!("zot checkpoints prune: {e:#}");
                    1
                }
            }
        }
    }
}

fn size(n: u64) -> String {
    if n < 1 << 20 {
        format!("{} KiB", n.div_ceil(1024))
    } else {
        format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20))
    }
}

//! `install`, `remove`, `enable` and `disable`: ask when needed, call the
//! host crate's operation, and say what changed and what happens next.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Context, Result};
use zot_ext_host::ext_ops::{locate, OpsError};
use zot_ext_host::install::{Cancel, Source};
use zot_ext_host::{install as ops_install, remove as ops_remove, toggle};

use super::output::{interrupted_code, on_interrupt, ProgressPrinter};
use super::ExtGlobals;

/// `zot ext install <path|git-url> [--force]`.
pub(super) fn install(global: &ExtGlobals, source: &str, force: bool) -> Result<i32> {
    let source = match Source::parse(source) {
        Ok(s) => s,
        // Not a folder or git URL: a name from zot's catalog.
        Err(OpsError::UnknownSource(name)) => {
            Source::Dir(zot_ext_host::catalog::source_of(&global.zot_home, &name)?)
        }
        Err(e) => return Err(e.into()),
    };
    let cancel = Cancel::new();
    // Ctrl-C or SIGTERM stops a long clone and removes what it made.
    let _signals = on_interrupt(cancel.clone()).context("cannot install the Ctrl-C handler")?;
    let mut printer = ProgressPrinter::new();
    let result = ops_install::install(&global.zot_home, &source, force, &cancel, &mut |p| {
        printer.show(&p)
    });
    printer.finish();
    let installed = match result {
        Ok(installed) => installed,
        Err(OpsError::Cancelled) => {
            eprintln!("zot ext install: interrupted; nothing was installed");
            return Ok(interrupted_code());
        }
        Err(e) => return Err(e.into()),
    };
    let version = installed
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let verb = if installed.replaced {
        "replaced"
    } else {
        "installed"
    };
    println!(
        "{verb} {}{version} in {}",
        installed.name,
        installed.dir.display()
    );
    for note in zot_ext_host::install_notes::install_notes(&installed.dir) {
        eprintln!("note: {note}");
    }
    eprintln!(
        "it loads the next time zot starts (or after /reload-ext); check it with `zot ext doctor`"
    );
    Ok(0)
}

/// `zot ext remove <name> [--yes]`: asks on a terminal; without one,
/// refuses unless `--yes`.
pub(super) fn remove(global: &ExtGlobals, name: &str, yes: bool) -> Result<i32> {
    let dir = ops_remove::removal_target(&global.zot_home, &global.cwd, name)?;
    if !yes {
        if !std::io::stdin().is_terminal() {
            bail!(
                "not removing `{name}` ({}): confirmation is needed and stdin is not a terminal; pass --yes to remove without asking",
                dir.display()
            );
        }
        if !confirm(&format!("remove extension `{name}` ({})?", dir.display()))? {
            eprintln!("kept `{name}`");
            return Ok(1);
        }
    }
    let dir = ops_remove::remove(&global.zot_home, &global.cwd, name)?;
    println!("removed {name} ({})", dir.display());
    Ok(0)
}

fn confirm(question: &str) -> Result<bool> {
    let mut err = std::io::stderr();
    write!(err, "{question} [y/N] ")?;
    err.flush()?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// `zot ext enable|disable <name>`.
pub(super) fn set_enabled(global: &ExtGlobals, name: &str, enabled: bool) -> Result<i32> {
    let found = locate(&global.zot_home, &global.cwd, name)?;
    let changed = toggle::set_enabled(&found.manifest_path(), enabled)?;
    let state = if enabled { "enabled" } else { "disabled" };
    if changed {
        println!("{state} {found}");
        eprintln!("takes effect the next time zot starts (or after /reload-ext)");
    } else {
        println!("{found} is already {state}");
    }
    Ok(0)
}

//! `install`, `remove`, `enable` and `disable`: ask when needed, call the
//! host crate's operation, and say what changed and what happens next.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Context, Result};
use zot_ext_host::ext_ops::{locate, OpsError};
use zot_ext_host::install::{
    install_and_describe, Cancel, Consent, Hooks, InstallOptions, MoreAsked,
};
use zot_ext_host::{remove as ops_remove, toggle};

use super::output::{interrupted_code, on_interrupt, ProgressPrinter};
use super::ExtGlobals;

/// `zot ext install <path|git-url|catalog-name> [--force] [--yes]`: the
/// host's one install policy; an update that asks for more permissions
/// asks on a terminal, and is refused without one unless `--yes`.
pub(super) fn install(global: &ExtGlobals, source: &str, force: bool, yes: bool) -> Result<i32> {
    let cancel = Cancel::new();
    // Ctrl-C or SIGTERM stops a long clone and removes what it made.
    let _signals = on_interrupt(cancel.clone()).context("cannot install the Ctrl-C handler")?;
    let mut printer = ProgressPrinter::new();
    let options = InstallOptions {
        force,
        consent: Consent::AtCommand,
        update: false,
    };
    let mut approve = |asked: &MoreAsked| approve_more(asked, yes);
    let hooks = Hooks {
        progress: &mut |p| printer.show(&p),
        approve_more: &mut approve,
    };
    let result = install_and_describe(&global.zot_home, source, options, &cancel, hooks);
    printer.finish();
    let done = match result {
        Ok(done) => done,
        Err(OpsError::Cancelled) => {
            eprintln!("zot ext install: interrupted; nothing was installed");
            return Ok(interrupted_code());
        }
        Err(e) => return Err(e.into()),
    };
    let version = done
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let verb = if done.replaced {
        "replaced"
    } else {
        "installed"
    };
    println!("{verb} {}{version} in {}", done.name, done.dir.display());
    match (&done.signature, done.source.kind) {
        // A catalog entry's recorded revision is the update check's folder
        // digest, not the one its signature covers: only who signed it.
        (Some(signature), zot_ext_protocol::SourceKind::Catalog) => {
            println!("catalog entry: {signature}")
        }
        (Some(signature), _) => println!(
            "bundle: {signature} (digest {})",
            done.source.revision.as_deref().unwrap_or("-")
        ),
        (None, _) => {}
    }
    if let Some(declared) = &done.registers.declared {
        let tools: Vec<&str> = declared.tools.iter().map(|t| t.name.as_str()).collect();
        if !tools.is_empty() {
            println!("tools: {}", tools.join(", "));
        }
    }
    println!("what it may do:");
    for line in &done.words {
        println!("  - {line}");
    }
    for note in &done.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "it loads the next time zot starts (or after /reload-ext); check it with `zot ext doctor`"
    );
    Ok(0)
}

/// Asks whether to accept what an update newly asks for: `--yes` accepts,
/// a terminal is asked, anything else refuses.
pub(super) fn approve_more(asked: &MoreAsked, yes: bool) -> bool {
    if yes {
        eprintln!(
            "accepting what the new version of `{}` asks for beyond what you accepted (--yes): {}",
            asked.name,
            asked.words.join("; ")
        );
        return true;
    }
    if !std::io::stdin().is_terminal() {
        return false;
    }
    eprintln!(
        "the new version of `{}` asks for more than you accepted:",
        asked.name
    );
    for line in &asked.words {
        eprintln!("  + {line}");
    }
    confirm("accept and install it?").unwrap_or(false)
}

/// `zot ext accept <name>`: accepts what the extension declares now
/// (after an update or an edit of its manifest reached further, or a
/// project's new extension), says what changed, and it starts on the next
/// load.
pub(super) fn accept(global: &ExtGlobals, name: &str) -> Result<i32> {
    let done = zot_ext_host::consent::accept(&global.zot_home, &global.cwd, name)?;
    if !done.widened.is_empty() {
        println!("what changed since you last accepted {}:", done.name);
        for w in &done.widened {
            println!("  + {} ({})", w.words, w.field);
        }
    }
    println!(
        "accepted the permissions of {} ({}):",
        done.name,
        done.dir.display()
    );
    for line in &done.words {
        println!("  - {line}");
    }
    eprintln!("it starts the next time zot starts (or after /reload-ext)");
    Ok(0)
}

/// `zot ext token <name> [--new]`: prints the token the extension's
/// WebSocket endpoint must prove it holds (docs/mcp.md "Native extensions
/// over a WebSocket"), on stdout alone so it can be piped into the
/// endpoint's configuration.
pub(super) fn token(global: &ExtGlobals, name: &str, new: bool) -> Result<i32> {
    use zot_ext_host::{secret_store::SecretStore, settings_store::Owner, ws_auth};
    let found = locate(&global.zot_home, &global.cwd, name)?;
    let store = SecretStore::open(&global.zot_home);
    let owner = Owner::of(name, &found.dir);
    let token = if new {
        ws_auth::renew(&store, &owner)?
    } else {
        ws_auth::token(&store, &owner)?
    };
    println!("{token}");
    if let Some(note) = store.fallback_note() {
        eprintln!("note: {note}");
    }
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

pub(super) fn confirm(question: &str) -> Result<bool> {
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

//! `zot ext update` and `zot ext rollback`: thin front ends over the
//! host's `update` and `rollback` (docs/extensions.md "Updates").

use anyhow::{bail, Context, Result};
use zot_ext_host::ext_ops::OpsError;
use zot_ext_host::install::{Cancel, Hooks, MoreAsked};
use zot_ext_host::{rollback as ops_rollback, update as ops};
use zot_ext_protocol::UpdateInfo;

use super::manage::approve_more;
use super::output::{interrupted_code, on_interrupt, ProgressPrinter};
use super::ExtGlobals;

/// `zot ext update NAME…|--all [--check] [--yes]`. Exit 1 when any
/// extension could not be checked or updated (the others still are).
pub(super) fn update(
    global: &ExtGlobals,
    names: &[String],
    all: bool,
    check: bool,
    yes: bool,
) -> Result<i32> {
    let names: Vec<String> = match (all, names.is_empty()) {
        (true, true) => ops::updatable(&global.zot_home),
        (false, false) => names.to_vec(),
        (true, false) => bail!("give extension names or --all, not both"),
        (false, true) => bail!(
            "name the extensions to update, or pass --all (`zot ext list` shows what is installed)"
        ),
    };
    let cancel = Cancel::new();
    let _signals = on_interrupt(cancel.clone()).context("cannot install the Ctrl-C handler")?;
    let mut failed = false;
    let mut found = 0;
    for name in &names {
        if check {
            match ops::check(&global.zot_home, name) {
                Ok(Some(info)) => {
                    found += 1;
                    show(&info);
                }
                Ok(None) => {}
                Err(e) => {
                    failed = true;
                    eprintln!("zot ext update: {e}");
                }
            }
            continue;
        }
        let mut printer = ProgressPrinter::new();
        let mut approve = |asked: &MoreAsked| approve_more(asked, yes);
        let hooks = Hooks {
            progress: &mut |p| printer.show(&p),
            approve_more: &mut approve,
        };
        let result = ops::update(&global.zot_home, name, &cancel, hooks);
        printer.finish();
        match result {
            Ok(Some((info, done))) => {
                found += 1;
                show(&info);
                println!("updated {name} in {}", done.dir.display());
                if !done.pending.is_empty() {
                    println!(
                        "{name} asks for more than you accepted, so it does not start until you run `zot ext accept {name}`:"
                    );
                    for line in &done.pending {
                        println!("  + {line}");
                    }
                }
            }
            Ok(None) => {}
            Err(OpsError::Cancelled) => {
                eprintln!("zot ext update: interrupted; {name} is unchanged");
                return Ok(interrupted_code());
            }
            Err(e) => {
                failed = true;
                eprintln!("zot ext update: {e}");
            }
        }
    }
    if found == 0 && !failed {
        eprintln!("everything is up to date");
    } else if !check && found > 0 {
        eprintln!("it loads the next time zot starts (or after /reload-ext); `zot ext rollback NAME` puts the previous copy back");
    }
    Ok(i32::from(failed))
}

/// `NAME OLD → NEW`, then what changed and what it newly asks for.
fn show(info: &UpdateInfo) {
    println!("{} {} → {}", info.name, info.from, info.to);
    for line in &info.changes {
        println!("    {line}");
    }
    for line in &info.widened {
        println!("  + {line}");
    }
}

/// `zot ext rollback NAME`.
pub(super) fn rollback(global: &ExtGlobals, name: &str) -> Result<i32> {
    let done = ops_rollback::rollback(&global.zot_home, name)?;
    let v = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    println!(
        "rolled back {} {} → {} in {}",
        done.name,
        v(&done.from),
        v(&done.to),
        done.dir.display()
    );
    eprintln!("it loads the next time zot starts (or after /reload-ext); `zot ext rollback {name}` again undoes this");
    Ok(0)
}

//! `zot ext new NAME --lang python|typescript|rust [--panel] [--dir DIR]`:
//! scaffolds a working extension (the host crate's `scaffold`) and says how
//! to run and test it.

use std::path::PathBuf;

use anyhow::{bail, Result};
use zot_ext_host::scaffold::{scaffold, Lang, NewExtension};

use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(
    global: &ExtGlobals,
    name: &str,
    lang: &str,
    panel: bool,
    dir: Option<PathBuf>,
) -> Result<i32> {
    let Some(lang) = Lang::parse(lang) else {
        bail!("unknown language `{lang}`: use python, typescript or rust");
    };
    let parent = match dir {
        Some(d) if d.is_absolute() => d,
        Some(d) => global.cwd.join(d),
        None => global.cwd.clone(),
    };
    // The TypeScript template takes zot-ext's types from zot's own copy.
    let sdk_dir = zot_ext_host::sdk::ensure(&global.zot_home).ok();
    let rust_sdk = std::env::var_os("ZOT_RUST_SDK").map(PathBuf::from);
    let spec = NewExtension {
        name: name.to_owned(),
        lang,
        panel,
        rust_sdk,
        sdk_dir,
    };
    let made = scaffold(&parent, &spec)?;
    println!("created {}", made.display());
    let shown = made.display();
    match lang {
        Lang::Rust => eprintln!(
            "next: (cd {shown} && cargo build --release), then zot --ext {shown} and type /{name}; Cargo.toml points zot-ext at ../zot/extensions/sdk unless ZOT_RUST_SDK was set"
        ),
        _ => eprintln!("next: zot --ext {shown} and type /{name}"),
    }
    Ok(0)
}

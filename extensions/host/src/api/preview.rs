//! What an extension registers, learned before the user enables it,
//! without running any of it.
//!
//! The manager's install leaves a fresh install disabled so the user
//! decides on a summary first; consent comes before code, so nothing of the
//! extension may run before they press Enable (docs/security.md
//! "Permissions"). Its commands and tools are read from its manifest's
//! `contributes`, the declaration `on_use` extensions already make, and its
//! themes from its theme files. An extension that declares no
//! `contributes` shows "registers: unknown until enabled": zot does not
//! start it, not even in a sandbox, to find out.

use std::path::Path;

use zot_ext_protocol::{Contributes, Manifest};

use crate::manage::theme;

/// What an installed extension will register, as far as its files say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registers {
    /// Its manifest's `contributes`; `None` when it declares none (what it
    /// registers is known only once it runs).
    pub declared: Option<Contributes>,
    /// The names of the themes it ships (theme files that parse).
    pub themes: Vec<String>,
}

/// Reads what the extension in `dir` (with manifest `m`) registers.
pub fn registers(dir: &Path, m: &Manifest) -> Registers {
    Registers {
        declared: m.contributes.clone(),
        themes: theme::theme_files(dir)
            .iter()
            .filter_map(|f| theme::load_file(f, &m.name).ok())
            .map(|t| t.theme.name)
            .collect(),
    }
}

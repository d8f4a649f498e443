//! The one install policy, for `zot ext install` and the desktop
//! manager alike (docs/cli.md "install"):
//!
//! 1. the source is a folder, a git URL, or a name from zot's catalog;
//! 2. it is copied into a hidden staging directory and its manifest checked;
//! 3. an update that asks for more permissions than the user accepted for
//!    the installed copy is put to the user (`approve_more`); refused, the
//!    installed copy stays as it was;
//! 4. the copy replaces the old one, and what it declares is recorded as
//!    accepted (`$ZOT_HOME/permissions.json`);
//! 5. the summary says what it may do in plain words, what it registers
//!    (from its manifest's `contributes` and theme files: nothing of it
//!    runs before the user enables it, `preview.rs`), and what it still
//!    needs (a build) as notes.
//!
//! The one thing the front ends choose is when the user says yes to a
//! fresh install ([`Consent`]): the CLI's user did by typing the command,
//! and reads the summary as it prints (the extension stays enabled); the
//! manager's user decides on the summary card, so the extension is left
//! disabled until they press Enable.

use std::path::{Path, PathBuf};

use zot_ext_protocol::desktop::InstallSummary;
use zot_ext_protocol::{Manifest, Permission, PermissionGrant, Widening};

use super::{install_reviewed, read_manifest, Cancel, Progress, Source};
use crate::ext_ops::{OpsError, OpsResult, MANIFEST_FILE};
use crate::permission_words::manifest_words;
use crate::preview::{registers, Registers};
use crate::{catalog, consent, install_notes, toggle};

/// When the user says yes to a fresh install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    /// By asking for it (the CLI): it stays enabled.
    AtCommand,
    /// On the summary (the manager): it is left disabled until enabled.
    OnSummary,
}

/// How to install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallOptions {
    /// Replace an installed extension of the same name.
    pub force: bool,
    /// When the user says yes to a fresh install.
    pub consent: Consent,
}

/// What an update asks for beyond what the user accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoreAsked {
    /// The extension.
    pub name: String,
    /// The new permissions.
    pub more: Vec<Permission>,
    /// Everything it reaches beyond what was accepted (permissions,
    /// sandbox, program, arguments, environment, kind, URL).
    pub widened: Vec<Widening>,
    /// `widened` in plain words, one line each.
    pub words: Vec<String>,
}

/// What an install did and what the extension may do: everything either
/// front end shows.
#[derive(Debug, Clone, PartialEq)]
pub struct InstallOutcome {
    /// The manifest's name.
    pub name: String,
    /// The manifest's version.
    pub version: Option<String>,
    /// The manifest's description.
    pub description: Option<String>,
    /// `$ZOT_HOME/extensions/<name>`.
    pub dir: PathBuf,
    /// Whether an installed copy was replaced.
    pub replaced: bool,
    /// Whether it is enabled now.
    pub enabled: bool,
    /// What its manifest grants.
    pub grant: PermissionGrant,
    /// What it may do, in plain words (`permission_words::manifest_words`).
    pub words: Vec<String>,
    /// What an update added beyond what was accepted before (the user
    /// accepted these on the way).
    pub added: Vec<Permission>,
    /// What it still needs before it can start.
    pub notes: Vec<String>,
    /// What it registers, read without running it (`preview.rs`).
    pub registers: Registers,
    /// Required settings with no value yet (a default counts): the summary
    /// asks for them before the first start.
    pub settings_required: Vec<String>,
}

impl InstallOutcome {
    /// The manager's summary.
    pub fn summary(&self) -> InstallSummary {
        let declared = self.registers.declared.as_ref();
        InstallSummary {
            name: self.name.clone(),
            version: self.version.clone(),
            dir: self.dir.display().to_string(),
            description: self.description.clone(),
            commands: declared
                .map(|c| c.commands.iter().map(|c| c.name.clone()).collect())
                .unwrap_or_default(),
            tools: declared
                .map(|c| c.tools.iter().map(|t| t.name.clone()).collect())
                .unwrap_or_default(),
            themes: self.registers.themes.clone(),
            registers_known: declared.is_some(),
            settings_required: self.settings_required.clone(),
            permissions: self.grant.clone(),
            permission_words: self.words.clone(),
            notes: self.notes.clone(),
            replaced: self.replaced,
            enabled: self.enabled,
        }
    }
}

/// Reads a source argument: a bare name is a name from zot's catalog
/// (even when a folder of that name is in the cwd: that one is `./name`);
/// a path is a folder; anything else must be a git URL.
pub fn resolve_source(zot_home: &Path, arg: &str) -> OpsResult<Source> {
    match Source::parse(arg) {
        Ok(s) => Ok(s),
        Err(OpsError::UnknownSource(name)) if super::is_bare_name(&name) => {
            Ok(Source::Dir(catalog::source_of(zot_home, &name)?))
        }
        Err(e) => Err(e),
    }
}

/// What a front end plugs into the policy.
pub struct Hooks<'a> {
    /// Progress lines of the copy or clone.
    pub progress: &'a mut dyn FnMut(Progress),
    /// Asked only for an update that reaches further than the user
    /// accepted; `false` refuses it with [`OpsError::PermissionsNotAccepted`]
    /// and changes nothing.
    pub approve_more: &'a mut dyn FnMut(&MoreAsked) -> bool,
}

/// Installs `arg` by the one policy (see the module's comment). Blocking
/// (copies and clones run on this thread); runs nothing of the extension.
pub fn install_and_describe(
    zot_home: &Path,
    arg: &str,
    options: InstallOptions,
    cancel: &Cancel,
    hooks: Hooks<'_>,
) -> OpsResult<InstallOutcome> {
    let Hooks {
        progress,
        approve_more,
    } = hooks;
    let source = resolve_source(zot_home, arg)?;
    let mut added = Vec::new();
    let installed = install_reviewed(
        zot_home,
        &source,
        options.force,
        cancel,
        progress,
        &mut |manifest, dest| {
            let Some(had) = accepted_for(zot_home, manifest, dest) else {
                return Ok(());
            };
            let widened = had.widenings(manifest);
            if widened.is_empty() {
                return Ok(());
            }
            added = manifest.grant().beyond(&had.permissions);
            let asked = MoreAsked {
                name: manifest.name.clone(),
                words: widened.iter().map(|w| w.words.clone()).collect(),
                more: added.clone(),
                widened,
            };
            if approve_more(&asked) {
                Ok(())
            } else {
                Err(OpsError::PermissionsNotAccepted {
                    name: asked.name,
                    asks: asked.words,
                })
            }
        },
    )?;
    let manifest = read_manifest(&installed.dir)?;
    let grant = manifest.grant();
    consent::record(zot_home, &installed.dir, &manifest.name, &manifest)?;
    let enabled = match options.consent {
        Consent::AtCommand => manifest.enabled,
        Consent::OnSummary => {
            toggle::set_enabled(&installed.dir.join(MANIFEST_FILE), false)?;
            false
        }
    };
    let settings_required = crate::settings_store::resolve(
        zot_home,
        &crate::settings_store::Owner::of(&installed.name, &installed.dir),
        &manifest.config,
    )
    .map(|r| r.missing)
    .unwrap_or_default();
    let registers = registers(&installed.dir, &manifest);
    Ok(InstallOutcome {
        settings_required,
        words: manifest_words(&manifest, &installed.dir),
        notes: install_notes::install_notes(&installed.dir),
        name: installed.name,
        version: installed.version,
        description: manifest.description,
        dir: installed.dir,
        replaced: installed.replaced,
        enabled,
        grant,
        added,
        registers,
    })
}

/// What was accepted for the copy at `dest` that `manifest` replaces: the
/// recorded consent, or, for a copy installed before consent was recorded,
/// what its own manifest declared. `None` for a fresh install (the user is
/// installing it now).
fn accepted_for(zot_home: &Path, manifest: &Manifest, dest: &Path) -> Option<consent::Accepted> {
    consent::accepted(zot_home, dest).or_else(|| {
        crate::manifest::load(&dest.join(MANIFEST_FILE))
            .ok()
            .map(|old| consent::Accepted::of(&manifest.name, &old))
    })
}

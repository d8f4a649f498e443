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

use zot_ext_protocol::{ExtSource, SourceKind};

use super::{install_staged, read_manifest, Cancel, Progress, Source};
use crate::api::preview::{registers, Registers};
use crate::manage::ext_ops::{OpsError, OpsResult, MANIFEST_FILE};
use crate::policy::permission_words::manifest_words;
use crate::{
    manage::catalog, manage::install_notes, manage::sources, manage::toggle, policy::consent,
};

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
    /// An update (`zot ext update`, `ext_update`): the replaced copy is
    /// kept for a rollback, the extension stays enabled or disabled as it
    /// was, and a widening the user does not approve now is installed
    /// without being accepted, so it stays `failed` until they accept it
    /// (`zot ext accept`, the manager's review card).
    pub update: bool,
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
    /// Where it came from, as recorded in `sources.json`.
    pub source: ExtSource,
    /// For a bundle or a catalog entry: "signed by NAME" ("signed by zot"
    /// for zot's catalog), "signed by an unknown key" or "unsigned".
    pub signature: Option<String>,
    /// What it reaches beyond what was accepted and the user has not
    /// accepted yet (an update whose widening was deferred): it stays
    /// `failed` until accepted.
    pub pending: Vec<String>,
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
            signature: self.signature.clone(),
        }
    }
}

/// Reads a source argument: a bare name is a name from zot's catalog
/// (even when a folder of that name is in the cwd: that one is `./name`);
/// a path is a folder; anything else must be a git URL.
pub fn resolve_source(zot_home: &Path, arg: &str) -> OpsResult<Source> {
    resolve(zot_home, arg).map(|(s, _)| s)
}

/// Where a source will be recorded as coming from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A folder (absolute).
    Folder(PathBuf),
    /// A catalog entry, by name, and who signed it (the summary's words).
    Catalog {
        /// The entry's name.
        name: String,
        /// "signed by zot", …, "unsigned".
        signer: String,
    },
    /// A git URL.
    Git(String),
    /// A bundle's file or URL.
    Bundle(String),
}

/// [`resolve_source`], with the origin to record. A bundle is read and
/// checked here, before anything is written.
pub(crate) fn resolve(zot_home: &Path, arg: &str) -> OpsResult<(Source, Origin)> {
    let lower = arg.to_ascii_lowercase();
    if lower.starts_with("http://")
        && (lower.ends_with(".zotx") || crate::manage::bundle::is_mcpb(arg))
    {
        return Err(crate::manage::bundle::BundleError::Download {
            url: arg.to_owned(),
            reason: "bundles are downloaded over https only (an http:// download could be changed on the way); use its https:// URL".into(),
        }
        .into());
    }
    if !arg.starts_with('-') && crate::manage::bundle::is_bundle(arg) {
        let opened = crate::manage::bundle::fetch(zot_home, arg)?;
        let origin = Origin::Bundle(opened.origin.clone());
        return Ok((Source::Bundle(Box::new(opened)), origin));
    }
    match Source::parse(arg) {
        Ok(Source::Dir(d)) => {
            let abs = std::fs::canonicalize(&d).unwrap_or_else(|_| d.clone());
            Ok((Source::Dir(d), Origin::Folder(abs)))
        }
        Ok(Source::Git(url)) => Ok((Source::Git(url.clone()), Origin::Git(url))),
        Ok(s @ Source::Bundle(_)) => Ok((s, Origin::Bundle(arg.to_owned()))),
        Err(OpsError::UnknownSource(name)) if super::is_bare_name(&name) => {
            let found = catalog::source_of(zot_home, &name)?;
            Ok((
                Source::Dir(found.dir),
                Origin::Catalog {
                    name,
                    signer: found.signer,
                },
            ))
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
    let (source, origin) = resolve(zot_home, arg)?;
    install_resolved(zot_home, source, origin, options, cancel, hooks)
}

/// [`install_and_describe`] for a source already resolved (an update
/// resolves the recorded one).
pub(crate) fn install_resolved(
    zot_home: &Path,
    source: Source,
    origin: Origin,
    options: InstallOptions,
    cancel: &Cancel,
    hooks: Hooks<'_>,
) -> OpsResult<InstallOutcome> {
    let Hooks {
        progress,
        approve_more,
    } = hooks;
    let mut added = Vec::new();
    let mut pending = Vec::new();
    // What the copy being replaced had, for a rollback to put back.
    let mut before: Option<crate::manage::rollback::Kept> = None;
    let keep_in = options
        .update
        .then(|| crate::manage::rollback::kept_base(zot_home));
    let installed = install_staged(
        zot_home,
        &source,
        options.force,
        keep_in.as_deref(),
        cancel,
        progress,
        &mut |manifest, dest| {
            if options.update {
                before = crate::manage::rollback::Kept::of(zot_home, dest);
            }
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
            } else if options.update {
                added.clear();
                pending = asked.words;
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
    if pending.is_empty() {
        consent::record(zot_home, &installed.dir, &manifest.name, &manifest)?;
    }
    let enabled = match (options.consent, &before) {
        // An update leaves it on or off as the user had it.
        (_, Some(kept)) if options.update => {
            if !kept.enabled && manifest.enabled {
                toggle::set_enabled(&installed.dir.join(MANIFEST_FILE), false)?;
            }
            kept.enabled && manifest.enabled
        }
        (Consent::AtCommand, _) => manifest.enabled,
        (Consent::OnSummary, _) => {
            toggle::set_enabled(&installed.dir.join(MANIFEST_FILE), false)?;
            false
        }
    };
    if let Some(kept) = &before {
        kept.save(zot_home, &manifest.name)?;
    }
    let (record, signature) = record_of(&origin, &source, &installed.dir, &manifest);
    drop(source);
    sources::set(zot_home, &installed.dir, Some(record.clone()))?;
    let settings_required = crate::settings::settings_store::resolve(
        zot_home,
        &crate::settings::settings_store::Owner::of(&installed.name, &installed.dir),
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
        source: record,
        signature,
        pending,
    })
}

/// What `sources.json` records for this install, and a bundle's or
/// catalog entry's signature words.
fn record_of(
    origin: &Origin,
    source: &Source,
    dir: &Path,
    manifest: &Manifest,
) -> (ExtSource, Option<String>) {
    let version = manifest.version.clone();
    // The source folder's digest, not the install's: the manager's
    // install flips `enabled` in the copy.
    let digest = || match source {
        Source::Dir(from) => sources::tree_digest(from).ok(),
        _ => sources::tree_digest(dir).ok(),
    };
    match (origin, source) {
        (Origin::Bundle(at), Source::Bundle(b)) => (
            ExtSource {
                kind: if crate::manage::bundle::is_mcpb(at) {
                    SourceKind::Mcpb
                } else {
                    SourceKind::Bundle
                },
                location: at.clone(),
                revision: Some(b.digest.clone()),
                version,
            },
            Some(b.signer.words()),
        ),
        (Origin::Git(url), _) => (
            ExtSource {
                kind: SourceKind::Git,
                location: url.clone(),
                revision: sources::git_head(dir),
                version,
            },
            None,
        ),
        (Origin::Catalog { name, signer }, _) => (
            ExtSource {
                kind: SourceKind::Catalog,
                location: name.clone(),
                revision: digest(),
                version,
            },
            Some(signer.clone()),
        ),
        (Origin::Folder(path), _) => (
            ExtSource {
                kind: SourceKind::Folder,
                location: path.display().to_string(),
                revision: digest(),
                version,
            },
            None,
        ),
        (Origin::Bundle(at), _) => (
            ExtSource {
                kind: SourceKind::Bundle,
                location: at.clone(),
                revision: None,
                version,
            },
            None,
        ),
    }
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

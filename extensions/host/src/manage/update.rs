//! `zot ext update` and `ext_update` (docs/extensions.md "Updates"):
//! each installed extension whose source was recorded (`sources.rs`) is
//! compared with that source now. Git sources are cloned afresh and move
//! to the remote's default-branch commit, only forward: a remote that is
//! gone or whose history no longer holds the installed commit (a
//! force-push) is reported and nothing changes. Catalog sources take the
//! version zot ships when it is newer; folder sources and bundles are
//! compared by content digest. A check never runs code of the extension;
//! an update is an ordinary install through the one policy, with the
//! replaced copy kept for a rollback.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use zot_ext_protocol::{ExtSource, Manifest, SourceKind, UpdateInfo};

use crate::manage::ext_ops::{OpsError, OpsResult, MANIFEST_FILE};
use crate::manage::install::staging::Staging;
use crate::manage::install::{
    install_resolved, read_manifest, Cancel, Consent, Hooks, InstallOptions, InstallOutcome,
    Origin, Source,
};
use crate::manage::sources::git_head;
use crate::{home, manage::sources, policy::consent};

/// How many lines of commits or changelog an update shows at most.
const MAX_CHANGES: usize = 50;

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "protocol.ext.allow=never"])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// Every extension installed under `$ZOT_HOME/extensions` with a
/// recorded source, by name.
pub fn updatable(zot_home: &Path) -> Vec<String> {
    let base = home::extensions_dir(zot_home);
    let all = sources::read(zot_home);
    let mut names: Vec<String> = std::fs::read_dir(&base)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| sources::lookup(&all, &e.path()).is_some())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// An update found: what it is and how to install it.
struct Plan {
    info: UpdateInfo,
    source: Source,
    origin: Origin,
    /// A fresh git clone, deleted when the plan is dropped.
    _fetched: Option<Staging>,
}

/// The installed copy of `name` and its recorded source.
fn installed(zot_home: &Path, name: &str) -> OpsResult<(PathBuf, Manifest, ExtSource)> {
    crate::manifest::validate_name(name).map_err(|e| OpsError::BadName {
        name: name.to_owned(),
        reason: e.to_string(),
    })?;
    let dir = home::extensions_dir(zot_home).join(name);
    if !dir.join(MANIFEST_FILE).is_file() {
        return Err(OpsError::NotFound {
            name: name.to_owned(),
            installed: updatable(zot_home),
        });
    }
    let manifest = read_manifest(&dir)?;
    let source = sources::get(zot_home, &dir).ok_or_else(|| {
        OpsError::Nothing(format!(
            "`{name}` has no recorded source (it was installed before zot recorded where extensions come from); install it again once with `zot ext install --force SOURCE` to make it updatable"
        ))
    })?;
    Ok((dir, manifest, source))
}

/// What `name` would update to; `None` when it is current. Changes nothing.
pub fn check(zot_home: &Path, name: &str) -> OpsResult<Option<UpdateInfo>> {
    Ok(plan(zot_home, name)?.map(|p| p.info))
}

/// Installs the update of `name`, if there is one. A widening that
/// `approve_more` does not approve is installed but not accepted: the
/// extension stays `failed` until the user accepts it.
pub fn update(
    zot_home: &Path,
    name: &str,
    cancel: &Cancel,
    hooks: Hooks<'_>,
) -> OpsResult<Option<(UpdateInfo, InstallOutcome)>> {
    let Some(plan) = plan(zot_home, name)? else {
        return Ok(None);
    };
    let options = InstallOptions {
        force: true,
        consent: Consent::AtCommand,
        update: true,
    };
    let Plan {
        mut info,
        source,
        origin,
        _fetched,
    } = plan;
    let done = install_resolved(zot_home, source, origin, options, cancel, hooks)?;
    info.installed = true;
    Ok(Some((info, done)))
}

fn plan(zot_home: &Path, name: &str) -> OpsResult<Option<Plan>> {
    let (dir, old, record) = installed(zot_home, name)?;
    let fail = |reason: String| OpsError::UpdateFailed {
        name: name.to_owned(),
        reason,
    };
    let (source, origin, fetched, new_manifest, new_rev, changes) = match record.kind {
        SourceKind::Folder | SourceKind::Catalog => {
            let (folder, origin) = if record.kind == SourceKind::Catalog {
                let found = crate::manage::catalog::source_of(zot_home, &record.location)
                    .map_err(|e| fail(e.to_string()))?;
                (
                    found.dir,
                    Origin::Catalog {
                        name: record.location.clone(),
                        signer: found.signer,
                    },
                )
            } else {
                let d = PathBuf::from(&record.location);
                if !d.is_dir() {
                    return Err(fail(format!(
                        "its folder {} is gone; install it again from where it is now",
                        d.display()
                    )));
                }
                (d.clone(), Origin::Folder(d))
            };
            let digest = sources::tree_digest(&folder)
                .map_err(|e| fail(format!("cannot read {}: {e}", folder.display())))?;
            if Some(&digest) == record.revision.as_ref() {
                return Ok(None);
            }
            let m = read_manifest(&folder).map_err(|e| fail(e.to_string()))?;
            if record.kind == SourceKind::Catalog && older(&m, &old) {
                return Ok(None);
            }
            let changes = changelog(
                std::fs::read_to_string(folder.join("CHANGELOG.md")).ok(),
                old.version.as_deref(),
            );
            (Source::Dir(folder), origin, None, m, digest, changes)
        }
        SourceKind::Git => {
            let url = record.location.clone();
            let base = home::extensions_dir(zot_home);
            let tmp = Staging::new(&base)?;
            let clone = tmp.path().join("repo");
            let out = Command::new("git")
                .args(["-c", "protocol.ext.allow=never", "clone", "--quiet", "--"])
                .arg(&url)
                .arg(&clone)
                .env("GIT_TERMINAL_PROMPT", "0")
                .stdin(Stdio::null())
                .output()
                .map_err(|e| fail(format!("cannot run git: {e}")))?;
            if !out.status.success() {
                return Err(fail(format!(
                    "its git remote {url} cannot be fetched (gone, moved or unreachable): {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
            let head = git_head(&clone).ok_or_else(|| {
                fail(format!(
                    "the remote {url} has no commit on its default branch"
                ))
            })?;
            let Some(had) = record.revision.clone() else {
                return Err(fail("no commit was recorded for it; install it again with `zot ext install --force URL`".into()));
            };
            if head == had {
                return Ok(None);
            }
            let known = git(&clone, &["cat-file", "-e", &format!("{had}^{{commit}}")]).is_ok();
            if !known || git(&clone, &["merge-base", "--is-ancestor", &had, &head]).is_err() {
                return Err(fail(format!(
                    "the history of {url} was rewritten (a force-push?): the installed commit {} is no longer on its default branch, now at {}. To take it anyway, install it again with `zot ext install --force {url}`",
                    sources::short(&had),
                    sources::short(&head)
                )));
            }
            let log = git(
                &clone,
                &[
                    "log",
                    "--oneline",
                    "--no-decorate",
                    &format!("{had}..{head}"),
                ],
            )
            .unwrap_or_default();
            let changes: Vec<String> = log.lines().take(MAX_CHANGES).map(str::to_owned).collect();
            let m = read_manifest(&clone).map_err(|e| fail(e.to_string()))?;
            (
                Source::Dir(clone),
                Origin::Git(url),
                Some(tmp),
                m,
                head,
                changes,
            )
        }
        SourceKind::Bundle | SourceKind::Mcpb => {
            let opened = crate::manage::bundle::fetch(zot_home, &record.location)?;
            if Some(&opened.digest) == record.revision.as_ref() {
                return Ok(None);
            }
            let changes = changelog(
                opened
                    .file("CHANGELOG.md")
                    .map(|b| String::from_utf8_lossy(b).into_owned()),
                old.version.as_deref(),
            );
            let m = opened.manifest.clone();
            let digest = opened.digest.clone();
            let origin = Origin::Bundle(opened.origin.clone());
            (
                Source::Bundle(Box::new(opened)),
                origin,
                None,
                m,
                digest,
                changes,
            )
        }
    };
    let (from, to) = if new_manifest.version != old.version {
        (
            old.version.clone().unwrap_or_else(|| "-".into()),
            new_manifest.version.clone().unwrap_or_else(|| "-".into()),
        )
    } else {
        (
            sources::short(record.revision.as_deref().unwrap_or("-")),
            sources::short(&new_rev),
        )
    };
    let widened = consent::accepted(zot_home, &dir)
        .unwrap_or_else(|| consent::Accepted::of(name, &old))
        .widenings(&new_manifest)
        .into_iter()
        .map(|w| w.words)
        .collect();
    Ok(Some(Plan {
        info: UpdateInfo {
            name: name.to_owned(),
            from,
            to,
            changes,
            widened,
            installed: false,
        },
        source,
        origin,
        _fetched: fetched,
    }))
}

/// Whether `new` declares a lower version than `old` (both semver).
fn older(new: &Manifest, old: &Manifest) -> bool {
    let parse = |v: &Option<String>| v.as_deref().and_then(|v| semver::Version::parse(v).ok());
    matches!((parse(&new.version), parse(&old.version)), (Some(n), Some(o)) if n < o)
}

/// The part of a CHANGELOG.md above the installed version's heading (the
/// whole file, capped, when that heading is not found).
fn changelog(text: Option<String>, installed: Option<&str>) -> Vec<String> {
    let Some(text) = text else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mut kept = 0;
    for line in text.lines() {
        let heading = line.starts_with('#');
        if heading && installed.is_some_and(|v| line.contains(v)) {
            break;
        }
        // Blank lines are kept between the others (the manager renders
        // the section as markdown, where they end paragraphs), never
        // counted, never first or last.
        if line.trim().is_empty() {
            if out.last().is_some_and(|l| !l.trim().is_empty()) {
                out.push(String::new());
            }
            continue;
        }
        out.push(line.to_owned());
        kept += 1;
        if kept >= MAX_CHANGES {
            break;
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changelog_stops_at_the_installed_version() {
        let text = "# Changelog\n## 1.2.0\n- b\n## 1.1.0\n- a\n".to_owned();
        assert_eq!(
            changelog(Some(text), Some("1.1.0")),
            ["# Changelog", "## 1.2.0", "- b"]
        );
        assert!(changelog(None, Some("1")).is_empty());
        let text = "# Changes\n\n## 1.2.0\n\nFaster.\n\n- b\n\n## 1.1.0\n- a\n".to_owned();
        assert_eq!(
            changelog(Some(text), Some("1.1.0")),
            ["# Changes", "", "## 1.2.0", "", "Faster.", "", "- b"]
        );
    }
}

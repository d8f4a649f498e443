//! Whose settings and secrets: an extension is its canonical folder, not
//! its name. A copy of the same name elsewhere (a project's
//! `.zot/extensions/x`, an `--ext` working copy, a folder planted by a
//! model) is another extension and must not receive the installed one's
//! API keys in its `hello_ack.config` (docs/security.md "Secrets").
//!
//! The key is `<name>-<16 hex digits of SHA-256 of the canonical folder>`:
//! the file `config/<key>.json` and the keychain accounts `ext/<key>/<setting>`.
//! Settings stored by a zot that keyed them by name alone
//! (`config/<name>.json`, `ext/<name>/<setting>`) belong to the installed
//! copy (`$ZOT_HOME/extensions/…` whose manifest has that name): they move
//! to its key the first time it reads them, and no other copy ever gets
//! them.

use std::path::{Path, PathBuf};

use crate::home;

/// An extension as far as its settings are concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// Its manifest name, for messages.
    name: String,
    /// Its folder, canonical when it resolves.
    dir: PathBuf,
    /// `<name>-<hash of dir>`: the file's stem and the accounts' middle.
    key: String,
}

impl Owner {
    /// The extension `name` in `dir`.
    pub fn of(name: &str, dir: &Path) -> Owner {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let digest =
            ring::digest::digest(&ring::digest::SHA256, dir.as_os_str().as_encoded_bytes());
        let hash: String = digest
            .as_ref()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        Owner {
            key: format!("{}-{hash}", safe(name)),
            name: name.to_owned(),
            dir,
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its canonical folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stem of its settings file and the middle of its accounts.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The stem its settings had when they were keyed by name: only the
    /// installed copy may take them over.
    pub(crate) fn legacy_key(&self, zot_home: &Path) -> Option<String> {
        let installed = std::fs::canonicalize(home::extensions_dir(zot_home)).ok()?;
        (self.dir.parent() == Some(installed.as_path())).then(|| safe(&self.name))
    }
}

/// A name as a file stem: anything but letters, digits, `-`, `_` and `.`
/// becomes `_` (manifest names are plain already; this keeps a strange one
/// from naming a path).
fn safe(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_folders_of_one_name_are_two_owners_and_a_link_is_its_target() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a/x"), tmp.path().join("b/x"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        assert_ne!(Owner::of("x", &a).key(), Owner::of("x", &b).key());
        assert_eq!(Owner::of("x", &a).key(), Owner::of("x", &link).key());
        assert!(Owner::of("x", &a).key().starts_with("x-"));
        assert!(!Owner::of("../x", &a).key().contains('/'));
    }

    #[test]
    fn only_the_installed_copy_inherits_the_name_keyed_settings() {
        let home = tempfile::tempdir().unwrap();
        let installed = home::extensions_dir(home.path()).join("x");
        std::fs::create_dir_all(&installed).unwrap();
        let project = home.path().join("p/.zot/extensions/x");
        std::fs::create_dir_all(&project).unwrap();
        assert_eq!(
            Owner::of("x", &installed)
                .legacy_key(home.path())
                .as_deref(),
            Some("x")
        );
        assert_eq!(Owner::of("x", &project).legacy_key(home.path()), None);
    }
}

//! The environment an extension starts with, so it finds zot's SDK.
//!
//! Every extension gets it, whatever its manifest's `language` says (that
//! field stays informational, and a `run.sh` launcher of a Python program
//! needs the same): `ZOT_SDK_DIR`, zot's Python SDK appended to
//! `PYTHONPATH`, and for Node `NODE_PATH` (CommonJS `require`) plus an
//! `--import` loader hook in `NODE_OPTIONS` (ES modules, which ignore
//! `NODE_PATH`). Entries are appended after the user's own values. An
//! extension that ships its own SDK gets nothing added for that language,
//! so its copy wins; a warning says when that copy's version or protocol
//! differs from zot's.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use super::shipped::{shipped_node, shipped_python, ShippedSdk};

/// What to add to one extension's environment, and what to tell its author.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SpawnEnv {
    /// Variables to set on the child (already merged with the inherited
    /// values where they are lists).
    pub vars: Vec<(OsString, OsString)>,
    /// Warnings for its log and `zot ext doctor`.
    pub warnings: Vec<String>,
}

/// The environment for the extension in `ext_dir`, given zot's unpacked SDK
/// (`Err` with the unpack error when there is none).
pub fn spawn_env(sdk: Result<&Path, &str>, ext_dir: &Path) -> SpawnEnv {
    let mut out = SpawnEnv::default();
    let py = shipped_python(ext_dir);
    let node = shipped_node(ext_dir);
    if let Some(own) = &py {
        if let Some(w) = compare("Python", "zot_ext", own, super::bundled_python_version()) {
            out.warnings.push(w);
        }
    }
    if let Some(own) = &node {
        if let Some(w) = compare("Node", "zot-ext", own, super::bundled_node_version()) {
            out.warnings.push(w);
        }
    }
    let root = match sdk {
        Ok(root) if root.is_dir() => root,
        Ok(root) => {
            if py.is_none() || node.is_none() {
                out.warnings.push(format!(
                    "zot's SDK directory {} is gone; restart zot to unpack it again",
                    root.display()
                ));
            }
            return out;
        }
        Err(error) => {
            if py.is_none() || node.is_none() {
                out.warnings.push(error.to_owned());
            }
            return out;
        }
    };
    out.vars
        .push(("ZOT_SDK_DIR".into(), root.as_os_str().to_owned()));
    if py.is_none() {
        if let Some(v) = append_path("PYTHONPATH", &root.join("python")) {
            out.vars.push(("PYTHONPATH".into(), v));
        }
    }
    if node.is_none() && super::has_node_sdk() {
        let node_root = root.join("node");
        if let Some(v) = append_path("NODE_PATH", &node_root.join("node_modules")) {
            out.vars.push(("NODE_PATH".into(), v));
        }
        let mut opts = std::env::var_os("NODE_OPTIONS").unwrap_or_default();
        if !opts.is_empty() {
            opts.push(" ");
        }
        opts.push("--import=");
        opts.push(file_url(&node_root.join("register.mjs")));
        out.vars.push(("NODE_OPTIONS".into(), opts));
    }
    out
}

/// A warning when the extension's own copy differs from zot's.
fn compare(lang: &str, pkg: &str, own: &ShippedSdk, bundled: Option<String>) -> Option<String> {
    let theirs = own.version.as_deref().unwrap_or("an unversioned copy");
    let ours = bundled.as_deref().unwrap_or("none");
    if own.protocol != super::PROTOCOL_VERSION {
        return Some(format!(
            "ships its own {lang} SDK ({pkg} {theirs} at {}) speaking protocol {}, but zot speaks protocol {}; it may fail: update the copy it ships, or delete it to use zot's ({ours})",
            own.path.display(),
            own.protocol,
            super::PROTOCOL_VERSION
        ));
    }
    if own.version.as_deref() == bundled.as_deref() {
        return None;
    }
    Some(format!(
        "ships its own {lang} SDK ({pkg} {theirs} at {}), zot bundles {ours}; it runs because both speak protocol {}; update the copy it ships, or delete it to use zot's",
        own.path.display(),
        own.protocol
    ))
}

/// `$VAR` with `dir` appended, or `None` when the result cannot be a path
/// list (a directory containing the separator).
fn append_path(var: &str, dir: &Path) -> Option<OsString> {
    let mut parts: Vec<std::path::PathBuf> = std::env::var_os(var)
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    parts.retain(|p| !p.as_os_str().is_empty());
    parts.push(dir.to_path_buf());
    std::env::join_paths(parts).ok()
}

/// `file:///…` with everything but unreserved characters and `/`
/// percent-encoded, so a path with spaces survives `NODE_OPTIONS`
/// (which splits on spaces).
fn file_url(path: &Path) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    let mut url = String::from("file://");
    for &b in OsStr::as_bytes(path.as_os_str()) {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_spaces_and_percent() {
        let url = file_url(Path::new("/a b/%c/ü"));
        assert_eq!(url, OsString::from("file:///a%20b/%25c/%C3%BC"));
    }
}

//! What an extension still needs after it was copied into place, said in
//! the install summary rather than discovered as a failed start: a Rust
//! extension shipped as source has no binary yet, and building one needs
//! `cargo`, which may be missing. Shared by the CLI and the manager.

use std::path::{Path, PathBuf};

/// One sentence per thing the extension in `dir` still needs before it can
/// start; empty when it is ready to run.
pub fn install_notes(dir: &Path) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(krate) = rust_package(dir) {
        let built = [
            dir.join(&krate),
            dir.join("target/release").join(&krate),
            dir.join("target/debug").join(&krate),
        ]
        .iter()
        .any(|p| p.is_file());
        if !built {
            notes.push(match on_path("cargo") {
                Some(cargo) => format!(
                    "it is a Rust extension shipped as source, without its binary `{krate}`: build it with cargo ({}), e.g. `cargo build --release` in its source, and copy target/release/{krate} next to {}",
                    cargo.display(),
                    dir.join("extension.json").display()
                ),
                None => format!(
                    "it is a Rust extension shipped as source, without its binary `{krate}`, and cargo is not installed (not on PATH): install Rust from https://rustup.rs and build it (`cargo build --release`), or install a copy that ships the built `{krate}` next to extension.json"
                ),
            });
        }
    }
    notes
}

/// `[package] name` of `dir/Cargo.toml`, read line by line (enough for a
/// manifest's first table; no TOML parser needed for one string).
fn rust_package(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    let mut in_package = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if !in_package {
            continue;
        }
        if let Some(rest) = line.strip_prefix("name") {
            let value = rest.trim_start().strip_prefix('=')?.trim();
            let name = value.trim_matches('"');
            if !name.is_empty() && !name.contains(['/', '\\']) {
                return Some(name.to_owned());
            }
        }
    }
    None
}

/// The first executable `name` on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_name_comes_from_the_package_table() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[workspace]\nname = \"no\"\n[package]\nname = \"zot-example-hello\"\nversion = \"1\"\n",
        )
        .unwrap();
        assert_eq!(
            rust_package(dir.path()).as_deref(),
            Some("zot-example-hello")
        );
    }
}

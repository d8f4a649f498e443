//! Which binary a Rust extension shipped as source runs, and whether it is
//! there. Its `exec` is a launcher (`launch.sh`) that looks for a binary
//! named after its `[package]` beside `extension.json`, in its own
//! `target/`, in `$CARGO_TARGET_DIR` or in the enclosing cargo workspace's
//! `target/` (the examples are workspace members). zot looks in the same
//! places, so that one without any is shown as "needs setup" before it is
//! started ([`setup_needed`]), and a sandboxed one can be shown the
//! binary it will run, which lives outside its directory (`sandbox.rs`).

use std::path::{Path, PathBuf};

/// What zot found of a Rust extension's binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustProgram {
    /// Its `[package] name`, which is the binary's name.
    pub krate: String,
    /// The binary its launcher will run: beside `extension.json` first,
    /// else the newest build; `None` when there is none.
    pub found: Option<PathBuf>,
    /// The cargo workspace it is a member of (a folder above it whose
    /// `Cargo.toml` has `[workspace]`), when there is one.
    pub workspace: Option<PathBuf>,
}

/// The Rust program of the extension in `dir`, when it is a Rust extension
/// shipped as source (a `Cargo.toml` with a `[package] name`). Reads zot's
/// own `CARGO_TARGET_DIR`, as the launcher does.
pub fn rust_program(dir: &Path) -> Option<RustProgram> {
    let target_env = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    rust_program_with(dir, target_env.as_deref())
}

/// [`rust_program`] with `CARGO_TARGET_DIR` given (tests).
pub fn rust_program_with(dir: &Path, target_env: Option<&Path>) -> Option<RustProgram> {
    let krate = rust_package(dir)?;
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let workspace = dir
        .ancestors()
        .skip(1)
        .find(|a| declares_workspace(&a.join("Cargo.toml")))
        .map(Path::to_path_buf);
    let beside = dir.join(&krate);
    let found = if is_program(&beside) {
        Some(beside)
    } else {
        // `CARGO_TARGET_DIR` is where `cargo build` in a workspace puts
        // its output; a copy outside any (an installed one) is not built
        // by it, and its sandbox would not show it that directory.
        let built_here = declares_workspace(&dir.join("Cargo.toml"));
        let in_workspace = built_here || workspace.is_some();
        let targets = [
            Some(dir.join("target")),
            target_env.filter(|_| in_workspace).map(Path::to_path_buf),
            workspace.as_ref().map(|w| w.join("target")),
        ];
        targets
            .into_iter()
            .flatten()
            .flat_map(|t| [t.join("debug").join(&krate), t.join("release").join(&krate)])
            .filter(|p| is_program(p))
            .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
    };
    Some(RustProgram {
        krate,
        found,
        workspace,
    })
}

/// What the extension in `dir` needs before it can run at all, as the one
/// step that fixes it; `None` when nothing is missing. Today that is a
/// Rust extension shipped as source without its binary (`program.rs`).
/// The one check behind the manager's "needs setup" (`ext_list`'s
/// `setup`, filled at load), the doctor's verdict and the install
/// summary's note, so the three agree.
pub fn setup_needed(dir: &Path) -> Option<String> {
    let p = rust_program(dir)?;
    if p.found.is_some() {
        return None;
    }
    let krate = &p.krate;
    let manifest = dir.join(crate::manifest::MANIFEST_FILE);
    let inherits = std::fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|t| t.contains("workspace = true"));
    let step = match &p.workspace {
        Some(ws) => format!("run `cargo build -p {krate}` in {}", ws.display()),
        // A workspace member copied out of its workspace (an installed
        // example) cannot be built where it is.
        None if inherits => format!(
            "copy a build of it next to {} (`cargo build -p {krate}` in the workspace it came from makes one)",
            manifest.display()
        ),
        None => format!("run `cargo build --release` in {}", dir.display()),
    };
    Some(match on_path("cargo") {
        Some(_) => format!("its binary `{krate}` is not built: {step}"),
        None => format!(
            "its binary `{krate}` is not built and cargo is not installed: install Rust from https://rustup.rs, then {step}"
        ),
    })
}

/// Whether `path` is an executable file.
fn is_program(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The first executable `name` on `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_program(p))
}

/// Whether `file` is a `Cargo.toml` with a `[workspace]` table.
fn declares_workspace(file: &Path) -> bool {
    std::fs::read_to_string(file).is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
}

/// `[package] name` of `dir/Cargo.toml`, read line by line (enough for a
/// manifest's first table; no TOML parser needed for one string).
pub fn rust_package(dir: &Path) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn program(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn member(ws: &Path) -> PathBuf {
        std::fs::write(ws.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        let dir = ws.join("examples/extensions/x");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"zot-example-x\"\nversion = \"1.0.0\"\n",
        )
        .unwrap();
        dir
    }

    #[test]
    fn a_workspace_member_finds_its_build_in_the_workspace_target() {
        let ws = tempfile::tempdir().unwrap();
        let ws = ws.path().canonicalize().unwrap();
        let dir = member(&ws);
        let p = rust_program_with(&dir, None).unwrap();
        assert_eq!(p.krate, "zot-example-x");
        assert_eq!(p.workspace.as_deref(), Some(ws.as_path()));
        assert_eq!(p.found, None);
        program(&ws.join("target/debug/zot-example-x"));
        assert_eq!(
            rust_program_with(&dir, None).unwrap().found,
            Some(ws.join("target/debug/zot-example-x"))
        );
    }

    #[test]
    fn a_binary_beside_the_manifest_wins_and_cargo_target_dir_is_read() {
        let ws = tempfile::tempdir().unwrap();
        let ws = ws.path().canonicalize().unwrap();
        let dir = member(&ws);
        let elsewhere = tempfile::tempdir().unwrap();
        let built = elsewhere.path().canonicalize().unwrap();
        program(&built.join("release/zot-example-x"));
        assert_eq!(
            rust_program_with(&dir, Some(&built)).unwrap().found,
            Some(built.join("release/zot-example-x"))
        );
        program(&dir.join("zot-example-x"));
        assert_eq!(
            rust_program_with(&dir, Some(&built)).unwrap().found,
            Some(dir.join("zot-example-x"))
        );
    }

    #[test]
    fn a_folder_without_a_package_is_not_a_rust_extension() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(rust_program_with(dir.path(), None), None);
        std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\n").unwrap();
        assert_eq!(rust_program_with(dir.path(), None), None);
    }
}

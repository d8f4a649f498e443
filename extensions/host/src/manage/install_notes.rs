//! What an extension still needs after it was copied into place, said in
//! the install summary rather than discovered as a failed start: a Rust
//! extension shipped as source has no binary yet, and building one needs
//! `cargo`, which may be missing. Shared by the CLI and the manager; the
//! step is the doctor's and the manager's "needs setup"
//! ([`crate::io::program::setup_needed`]), so all of them say the same.

use std::path::Path;

/// One sentence per thing the extension in `dir` still needs before it can
/// start; empty when it is ready to run.
pub fn install_notes(dir: &Path) -> Vec<String> {
    crate::io::program::setup_needed(dir)
        .map(|step| format!("it is a Rust extension shipped as source: {step}"))
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rust_source_without_its_binary_gets_one_note_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[workspace]\nname = \"no\"\n[package]\nname = \"zot-test-never-built\"\nversion = \"1\"\n",
        )
        .unwrap();
        let notes = install_notes(dir.path());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("`zot-test-never-built`"), "{notes:?}");
        assert!(install_notes(tempfile::tempdir().unwrap().path()).is_empty());
    }
}

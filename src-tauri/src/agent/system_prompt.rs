//! The system prompt: a built-in default, replaced by `$ZOT_HOME/SYSTEM.md`
//! when it exists, replaced in turn by `--system-prompt`; every
//! `--append-system-prompt` is added after, in order.

use std::path::Path;

/// The prompt zot uses when nobody overrides it.
pub fn default_prompt(cwd: &Path) -> String {
    format!(
        "You are zot, an AI coding agent working in the project directory {}.\n\
         Use the tools to read, write and edit files and to run commands. \
         Read before you edit; keep edits small and exact. \
         Answer concisely and say what you changed.",
        cwd.display()
    )
}

/// Builds the system prompt from its sources.
pub fn build(zot_home: &Path, cwd: &Path, replace: Option<&str>, append: &[String]) -> String {
    let mut s = match replace {
        Some(r) => r.to_owned(),
        None => std::fs::read_to_string(zot_home.join("SYSTEM.md"))
            .unwrap_or_else(|_| default_prompt(cwd)),
    };
    for a in append {
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        s.push_str(a);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_md_replaces_the_default_and_the_flag_replaces_both() {
        let home = tempfile::tempdir().unwrap();
        let cwd = Path::new("/p");
        assert!(build(home.path(), cwd, None, &[]).contains("You are zot"));
        std::fs::write(home.path().join("SYSTEM.md"), "from file").unwrap();
        assert_eq!(build(home.path(), cwd, None, &[]), "from file");
        assert_eq!(
            build(home.path(), cwd, Some("flag"), &["a".into(), "b".into()]),
            "flag\n\na\n\nb"
        );
    }
}

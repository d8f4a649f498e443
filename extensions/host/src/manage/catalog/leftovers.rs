//! What a developer's run leaves in an example's folder that zot never
//! ships: caches, dependencies installed in place, build folders, and the
//! examples' own state files. One rule for two readers: `build.rs`
//! includes this file to leave them out of the embedded catalog, and
//! `zot ext catalog-sign` refuses to sign a folder holding any (the
//! signature would cover a file the build leaves out, and zot's own
//! catalog would then fail to verify).

/// Whether a file or folder named `name` is such a leftover.
pub fn is_leftover(name: &str) -> bool {
    name == "__pycache__"
        || name == "node_modules"
        || name == "target"
        || name.ends_with(".pyc")
        || name.starts_with("todos.json")
        || name.starts_with("scratchpad.md")
}

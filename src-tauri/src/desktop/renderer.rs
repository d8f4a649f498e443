//! How WebKitGTK draws the window, chosen before the window exists.
//!
//! With no GPU (no DRM render node: virtual machines, containers, remote X,
//! Xvfb), WebKitGTK still composites and rasterises through OpenGL, which
//! Mesa then runs on the CPU (llvmpipe). Measured on the 2-core test
//! machine, that path cost zot 40–70 ms for every scrolled frame, about
//! 25 MB of shader-compiler memory in the web process, and tens of ms
//! before the first paint, against WebKit's own non-composited CPU path
//! drawing the same page (docs/performance.md, "Desktop"). So without a
//! render node zot turns compositing off. With a GPU nothing changes:
//! compositing is what you want there.
//!
//! The user has the last word: if `WEBKIT_DISABLE_COMPOSITING_MODE` is
//! already set, to anything, it is left as it is (set it to `0` to keep
//! compositing on a machine without a GPU).

use std::path::Path;

/// The WebKitGTK variable this module may set.
pub(crate) const COMPOSITING_VAR: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// What to do about compositing, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Leave WebKit's default (a GPU is there, or the user decided).
    Keep,
    /// Turn compositing off: every GL call would run on the CPU anyway.
    Disable(&'static str),
}

/// Decides from the environment (`var`) and whether a GPU render node
/// exists; the caller applies it.
pub(crate) fn choose(var: impl Fn(&str) -> Option<String>, has_render_node: bool) -> Choice {
    if var(COMPOSITING_VAR).is_some() {
        return Choice::Keep;
    }
    if var("LIBGL_ALWAYS_SOFTWARE").is_some_and(|v| !matches!(v.trim(), "" | "0" | "false")) {
        return Choice::Disable("LIBGL_ALWAYS_SOFTWARE is set");
    }
    if !has_render_node {
        return Choice::Disable("no GPU render node in /dev/dri");
    }
    Choice::Keep
}

/// Whether `dir` (normally `/dev/dri`) holds a `renderD*` node.
pub(crate) fn has_render_node(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Applies [`choose`] to this process. Call before the first thread that
/// might read the environment starts, and before WebKit initialises.
pub(crate) fn apply() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let choice = choose(
        |k| std::env::var(k).ok(),
        has_render_node(Path::new("/dev/dri")),
    );
    if let Choice::Disable(why) = choice {
        std::env::set_var(COMPOSITING_VAR, "1");
        eprintln!(
            "zot: {why}, so WebKit compositing is off (set {COMPOSITING_VAR}=0 to keep it on)"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn a_gpu_keeps_compositing() {
        assert_eq!(choose(env(&[]), true), Choice::Keep);
    }

    #[test]
    fn no_render_node_turns_compositing_off() {
        assert!(matches!(choose(env(&[]), false), Choice::Disable(_)));
    }

    #[test]
    fn forced_software_gl_turns_it_off_even_with_a_gpu() {
        let c = choose(env(&[("LIBGL_ALWAYS_SOFTWARE", "1")]), true);
        assert!(matches!(c, Choice::Disable(_)));
        let c = choose(env(&[("LIBGL_ALWAYS_SOFTWARE", "0")]), true);
        assert_eq!(c, Choice::Keep);
    }

    #[test]
    fn the_users_own_setting_wins_either_way() {
        assert_eq!(choose(env(&[(COMPOSITING_VAR, "0")]), false), Choice::Keep);
        assert_eq!(
            choose(
                env(&[(COMPOSITING_VAR, "1"), ("LIBGL_ALWAYS_SOFTWARE", "1")]),
                false
            ),
            Choice::Keep
        );
    }

    #[test]
    fn render_nodes_are_found_by_name() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
        assert!(!has_render_node(&dir.path().join("missing")));
    }
}

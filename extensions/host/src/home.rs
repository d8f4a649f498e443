//! Where zot keeps its state (`$ZOT_HOME`), resolved exactly as the spec
//! says so the app, the CLI and the manager agree on one directory.

use std::path::{Path, PathBuf};

/// Resolves `$ZOT_HOME` from the real environment.
///
/// Order: `ZOT_HOME`; then `$XDG_STATE_HOME/zot` on any platform; then the
/// platform default (`~/.local/state/zot` on Linux,
/// `~/Library/Application Support/zot` on macOS, `%LOCALAPPDATA%\zot` on
/// Windows). Returns `None` only when no home directory can be found.
pub fn zot_home() -> Option<PathBuf> {
    resolve(
        std::env::var_os("ZOT_HOME").map(PathBuf::from),
        std::env::var_os("XDG_STATE_HOME").map(PathBuf::from),
    )
}

/// The pure part of [`zot_home`], with the two variables passed in.
pub fn resolve(zot_home: Option<PathBuf>, xdg_state_home: Option<PathBuf>) -> Option<PathBuf> {
    if let Some(home) = zot_home.filter(|p| !p.as_os_str().is_empty()) {
        return Some(home);
    }
    if let Some(state) = xdg_state_home.filter(|p| p.is_absolute()) {
        return Some(state.join("zot"));
    }
    platform_default()
}

fn platform_default() -> Option<PathBuf> {
    let base = directories::BaseDirs::new()?;
    let dir: &Path = if cfg!(target_os = "macos") {
        base.data_dir()
    } else if cfg!(windows) {
        base.data_local_dir()
    } else {
        // `state_dir` is Linux-only in `directories`; other Unixes get the
        // same XDG default by hand.
        return Some(
            base.state_dir()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| base.home_dir().join(".local/state"))
                .join("zot"),
        );
    };
    Some(dir.join("zot"))
}

/// `$ZOT_HOME/extensions`: globally installed extensions.
pub fn extensions_dir(zot_home: &Path) -> PathBuf {
    zot_home.join("extensions")
}

/// `$ZOT_HOME/logs/ext-<name>.log`: an extension's stderr.
pub fn log_path(zot_home: &Path, name: &str) -> PathBuf {
    zot_home.join("logs").join(format!("ext-{name}.log"))
}

/// `./.zot/extensions` under the project directory.
pub fn project_extensions_dir(cwd: &Path) -> PathBuf {
    cwd.join(".zot").join("extensions")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zot_home_variable_wins_over_xdg() {
        let got = resolve(Some("/a/zh".into()), Some("/x/state".into()));
        assert_eq!(got, Some(PathBuf::from("/a/zh")));
    }

    #[test]
    fn xdg_state_home_gets_a_zot_subdirectory() {
        let got = resolve(None, Some("/x/state".into()));
        assert_eq!(got, Some(PathBuf::from("/x/state/zot")));
    }

    #[test]
    fn empty_or_relative_variables_fall_through_to_the_platform_default() {
        let got = resolve(Some("".into()), Some("relative".into())).unwrap();
        assert!(got.ends_with("zot"), "{got:?}");
        assert!(got.is_absolute(), "{got:?}");
    }
}

//! Theme files shipped by extensions (`docs/protocol.md` "Themes"). Colours are checked
//! here so that nothing but CSS hex ever reaches the page; anything else is
//! dropped with a warning that `zot ext doctor` shows.

use std::path::{Path, PathBuf};

use zot_ext_protocol::theme::COLOR_NAMES;
use zot_ext_protocol::ThemeFile;

/// Built-in theme names; extension themes with these names are shadowed.
pub const BUILTIN_THEMES: [&str; 2] = ["dark", "light"];

/// A theme an extension ships, after validation.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedTheme {
    /// The theme with only valid, known colours left in it.
    pub theme: ThemeFile,
    /// The extension that ships it.
    pub extension: String,
    /// The file it came from.
    pub path: PathBuf,
    /// Colours that were dropped, and why.
    pub warnings: Vec<String>,
}

/// The theme files in an extension directory: `theme.json`,
/// `themes/theme.json` and every `themes/*.json`, in that order, sorted.
pub fn theme_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let top = dir.join("theme.json");
    if top.is_file() {
        files.push(top);
    }
    if let Ok(entries) = std::fs::read_dir(dir.join("themes")) {
        let mut more: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
            .collect();
        more.sort();
        files.extend(more);
    }
    files
}

/// Reads and validates one theme file. `Err` means the file is unusable
/// (unreadable, not JSON, no name); bad colours only produce warnings.
pub fn load_file(path: &Path, extension: &str) -> Result<LoadedTheme, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut theme: ThemeFile = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a valid theme: {e}", path.display()))?;
    if theme.name.trim().is_empty() {
        return Err(format!("{}: field 'name' is empty", path.display()));
    }
    let mut warnings = Vec::new();
    theme.colors.retain(|key, value| {
        if !COLOR_NAMES.contains(&key.as_str()) {
            warnings.push(format!("theme '{}': unknown colour '{key}' ignored", theme.name));
            false
        } else if !is_hex_color(value) {
            warnings.push(format!(
                "theme '{}': colour '{key}' is '{value}', not CSS hex (#rgb, #rrggbb, #rrggbbaa); ignored",
                theme.name
            ));
            false
        } else {
            true
        }
    });
    Ok(LoadedTheme {
        theme,
        extension: extension.to_owned(),
        path: path.to_path_buf(),
        warnings,
    })
}

/// `#rgb`, `#rrggbb` or `#rrggbbaa`, and nothing else.
pub fn is_hex_color(s: &str) -> bool {
    let Some(hex) = s.strip_prefix('#') else {
        return false;
    };
    matches!(hex.len(), 3 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_css_hex_is_a_colour() {
        for ok in ["#abc", "#A0b1C2", "#00000080"] {
            assert!(is_hex_color(ok), "{ok}");
        }
        for bad in ["abc", "#ab", "#abcd", "red", "#12345g", "url(x)", "#fff;}"] {
            assert!(!is_hex_color(bad), "{bad}");
        }
    }

    #[test]
    fn bad_and_unknown_colours_become_warnings() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("theme.json");
        std::fs::write(
            &f,
            r##"{"name":"t","colors":{"fg":"#fff","accent":"red","nope":"#000"}}"##,
        )
        .unwrap();
        let t = load_file(&f, "ext").unwrap();
        assert_eq!(t.theme.colors.len(), 1);
        assert_eq!(t.warnings.len(), 2, "{:?}", t.warnings);
    }
}

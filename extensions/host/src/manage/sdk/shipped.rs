//! Finding an SDK an extension ships itself, and reading its version and
//! protocol without running it. Such a copy wins over zot's; the host only
//! compares versions to warn when they differ.

use std::path::{Path, PathBuf};

/// An SDK copy inside an extension's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedSdk {
    /// Where it is (the package directory).
    pub path: PathBuf,
    /// Its version, when it declares one.
    pub version: Option<String>,
    /// The protocol it speaks; copies from before the field speak 1.
    pub protocol: u32,
}

/// A `zot_ext` package the extension ships: vendored beside its code
/// (`<dir>/zot_ext/`) or installed in its virtualenv
/// (`<dir>/.venv` or `<dir>/venv`, `lib/python*/site-packages/zot_ext/`).
pub fn shipped_python(ext_dir: &Path) -> Option<ShippedSdk> {
    let mut candidates = vec![ext_dir.join("zot_ext")];
    for venv in [".venv", "venv"] {
        let lib = ext_dir.join(venv).join("lib");
        let Ok(entries) = std::fs::read_dir(&lib) else {
            continue;
        };
        let mut pythons: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
            .map(|e| e.path().join("site-packages").join("zot_ext"))
            .collect();
        pythons.sort();
        candidates.extend(pythons);
    }
    candidates.into_iter().find_map(|pkg| {
        let init = std::fs::read_to_string(pkg.join("__init__.py")).ok()?;
        Some(ShippedSdk {
            version: python_field(&init, "__version__"),
            protocol: python_field(&init, "PROTOCOL_VERSION")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1),
            path: pkg,
        })
    })
}

/// A `zot-ext` package in the extension's own `node_modules`.
pub fn shipped_node(ext_dir: &Path) -> Option<ShippedSdk> {
    let pkg = ext_dir.join("node_modules").join("zot-ext");
    let text = std::fs::read_to_string(pkg.join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    Some(ShippedSdk {
        version: json
            .get("version")
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        protocol: json
            .pointer("/zot/protocol")
            .and_then(serde_json::Value::as_u64)
            .and_then(|p| u32::try_from(p).ok())
            .unwrap_or(1),
        path: pkg,
    })
}

/// The value of a top-level `NAME = "x"` or `NAME = 1` line in Python
/// source, quotes stripped.
pub(crate) fn python_field(source: &str, name: &str) -> Option<String> {
    source.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?.trim_start();
        let value = rest.strip_prefix('=')?.trim();
        let value = value.split('#').next()?.trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_fields_are_read_from_plain_assignments() {
        let src = "x = 1\n__version__ = \"0.2.0\"  # note\nPROTOCOL_VERSION = 2\n";
        assert_eq!(python_field(src, "__version__").as_deref(), Some("0.2.0"));
        assert_eq!(python_field(src, "PROTOCOL_VERSION").as_deref(), Some("2"));
        assert_eq!(python_field(src, "missing"), None);
    }
}

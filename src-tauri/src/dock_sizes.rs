//! How big the user made the window's docks (the side dock's width, the
//! bottom dock's height, in CSS px), remembered across restarts in
//! `$ZOT_HOME/docks.json`. The page clamps them to the window it has
//! (`ui/src/lib/panels/placement.ts`); this only keeps them. A file that
//! does not parse costs only the sizes (the docks start at their
//! defaults), never the settings. UI-agnostic: the desktop commands wrap it.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// The docks' sizes; `None` is "never sized by the user".
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct DockSizes {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom_height: Option<u32>,
}

fn file(zot_home: &Path) -> PathBuf {
    zot_home.join("docks.json")
}

/// The remembered sizes; none for a missing file, and for one that does
/// not parse (one line on stderr).
pub fn load(zot_home: &Path) -> DockSizes {
    let path = file(zot_home);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return DockSizes::default();
    };
    serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!(
            "zot: {} is not {{\"side_width\": px, \"bottom_height\": px}} ({e}); the docks start at their default sizes until it is fixed or deleted",
            path.display()
        );
        DockSizes::default()
    })
}

/// Remembers the sizes given, keeping the other one (temp file and rename).
pub fn save(zot_home: &Path, update: DockSizes) -> anyhow::Result<DockSizes> {
    let old = load(zot_home);
    let new = DockSizes {
        side_width: update.side_width.or(old.side_width),
        bottom_height: update.bottom_height.or(old.bottom_height),
    };
    std::fs::create_dir_all(zot_home)
        .with_context(|| format!("cannot create {}", zot_home.display()))?;
    let path = file(zot_home);
    let mut text = serde_json::to_string_pretty(&new).context("cannot encode the dock sizes")?;
    text.push('\n');
    zot_ext_host::toggle::write_atomically(&path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dock_keeps_its_size_and_a_broken_file_starts_over() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(load(home.path()), DockSizes::default());
        save(
            home.path(),
            DockSizes {
                side_width: Some(420),
                bottom_height: None,
            },
        )
        .unwrap();
        let both = save(
            home.path(),
            DockSizes {
                side_width: None,
                bottom_height: Some(200),
            },
        )
        .unwrap();
        let want = DockSizes {
            side_width: Some(420),
            bottom_height: Some(200),
        };
        assert_eq!(both, want);
        assert_eq!(load(home.path()), want);
        std::fs::write(file(home.path()), "{\"side_width\": \"wide\"}").unwrap();
        assert_eq!(load(home.path()), DockSizes::default());
    }
}

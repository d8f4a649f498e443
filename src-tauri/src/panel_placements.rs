//! Where the user moved each extension panel, remembered across restarts
//! in `$ZOT_HOME/panel_placements.json` (`{"<extension>": {"<panel id>":
//! "side"}}`). The user's choice wins over the extension's hint, so it is
//! kept apart from `config.json`: it changes with a click, and a file the
//! app cannot read (hand-edited, or from a later version) only costs the
//! remembered places, never the settings. UI-agnostic: the desktop command
//! is a wrapper.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use zot_ext_protocol::desktop::PanelPlacementChoice;
use zot_ext_protocol::PanelPlacement;

type Choices = BTreeMap<String, BTreeMap<String, PanelPlacement>>;

fn file(zot_home: &Path) -> PathBuf {
    zot_home.join("panel_placements.json")
}

/// Reads the file; a missing one is empty, and so is one that does not
/// parse (with one line on stderr saying which file and that it is ignored).
fn read(zot_home: &Path) -> Choices {
    let path = file(zot_home);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Choices::new();
    };
    match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "zot: {} is not a map of extension → panel id → bottom|side|window ({e}); the panels' remembered places are ignored until it is fixed or deleted",
                path.display()
            );
            Choices::new()
        }
    }
}

/// Every remembered choice, by extension then panel id.
pub fn load(zot_home: &Path) -> Vec<PanelPlacementChoice> {
    read(zot_home)
        .into_iter()
        .flat_map(|(extension, panels)| {
            panels
                .into_iter()
                .map(move |(panel_id, placement)| PanelPlacementChoice {
                    extension: extension.clone(),
                    panel_id,
                    placement,
                })
        })
        .collect()
}

/// Remembers one choice (replacing the one before for that panel), written
/// to a temp file and renamed so a crash never leaves half a file.
pub fn save(zot_home: &Path, choice: &PanelPlacementChoice) -> anyhow::Result<()> {
    let mut all = read(zot_home);
    all.entry(choice.extension.clone())
        .or_default()
        .insert(choice.panel_id.clone(), choice.placement);
    let path = file(zot_home);
    std::fs::create_dir_all(zot_home)
        .with_context(|| format!("cannot create {}", zot_home.display()))?;
    let mut text =
        serde_json::to_string_pretty(&all).context("cannot encode the panels' places")?;
    text.push('\n');
    zot_ext_host::toggle::write_atomically(&path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(extension: &str, panel_id: &str, placement: PanelPlacement) -> PanelPlacementChoice {
        PanelPlacementChoice {
            extension: extension.into(),
            panel_id: panel_id.into(),
            placement,
        }
    }

    #[test]
    fn a_choice_is_remembered_per_extension_and_panel_and_replaced_by_the_next() {
        let home = tempfile::tempdir().unwrap();
        assert!(load(home.path()).is_empty());
        save(home.path(), &choice("todo", "list", PanelPlacement::Side)).unwrap();
        save(home.path(), &choice("todo", "help", PanelPlacement::Window)).unwrap();
        save(home.path(), &choice("other", "list", PanelPlacement::Side)).unwrap();
        save(home.path(), &choice("todo", "list", PanelPlacement::Bottom)).unwrap();
        assert_eq!(
            load(home.path()),
            vec![
                choice("other", "list", PanelPlacement::Side),
                choice("todo", "help", PanelPlacement::Window),
                choice("todo", "list", PanelPlacement::Bottom),
            ]
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_ignored_and_replaced_on_the_next_save() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(file(home.path()), r#"{"todo": {"list": "floating"}}"#).unwrap();
        assert!(load(home.path()).is_empty());
        save(home.path(), &choice("todo", "list", PanelPlacement::Side)).unwrap();
        assert_eq!(
            load(home.path()),
            vec![choice("todo", "list", PanelPlacement::Side)]
        );
    }
}

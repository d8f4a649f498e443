//! Where each panel's own OS window was and how big, remembered across
//! restarts in `$ZOT_HOME/panel_windows.json` (`{"<extension>": {"<panel
//! id>": {"x":…, "y":…, "width":…, "height":…}}}`, logical pixels), and
//! the rule that puts a remembered window back on a screen that exists
//! now. Kept apart from `panel_placements.json` (which says *whether* a
//! panel has its own window): a window moves far more often than a panel
//! changes place, and either file can be lost without the other.
//! UI-agnostic: the desktop glue (`desktop/panel_window.rs`) reads the
//! monitors and calls this.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// A window's outer position and inner size, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A screen's usable area, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Screen {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A new panel window's size when none is remembered.
pub const DEFAULT_SIZE: (f64, f64) = (560.0, 420.0);
/// The smallest panel window: a title bar and three lines.
pub const MIN_SIZE: (f64, f64) = (240.0, 140.0);
/// How much of a window must lie on a screen for it to count as
/// reachable: enough of its top to grab and drag it.
const GRAB: (f64, f64) = (80.0, 40.0);

type Stored = BTreeMap<String, BTreeMap<String, Geometry>>;

fn file(zot_home: &Path) -> PathBuf {
    zot_home.join("panel_windows.json")
}

/// Reads the file; a missing or unreadable one is empty (one line on
/// stderr for one that does not parse: the windows then open at the
/// default place, and the next move rewrites it).
fn read(zot_home: &Path) -> Stored {
    let path = file(zot_home);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Stored::new();
    };
    serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!(
            "zot: {} is not a map of extension → panel id → {{x, y, width, height}} ({e}); panel windows open at their default place until it is fixed or deleted",
            path.display()
        );
        Stored::new()
    })
}

/// The remembered geometry of `extension`'s panel `panel_id`.
pub fn load(zot_home: &Path, extension: &str, panel_id: &str) -> Option<Geometry> {
    read(zot_home).get(extension)?.get(panel_id).copied()
}

/// Remembers several windows' geometry at once (temp file and rename).
pub fn save_all(zot_home: &Path, windows: &[(String, String, Geometry)]) -> anyhow::Result<()> {
    if windows.is_empty() {
        return Ok(());
    }
    let mut all = read(zot_home);
    for (extension, panel_id, g) in windows {
        all.entry(extension.clone())
            .or_default()
            .insert(panel_id.clone(), *g);
    }
    std::fs::create_dir_all(zot_home)
        .with_context(|| format!("cannot create {}", zot_home.display()))?;
    let path = file(zot_home);
    let mut text = serde_json::to_string_pretty(&all).context("cannot encode panel windows")?;
    text.push('\n');
    zot_ext_host::toggle::write_atomically(&path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Where to open a window remembered at `g`, given today's screens (the
/// first is the primary). A window whose top strip is reachable on some
/// screen stays where it was; one that is off every screen now (a
/// monitor was unplugged, the resolution shrank) is moved onto the
/// primary screen, keeping its size when it fits, else shrunk to it.
/// With no screen known, it is left as it was.
pub fn clamp_onto(g: Geometry, screens: &[Screen]) -> Geometry {
    let width = g.width.max(MIN_SIZE.0);
    let height = g.height.max(MIN_SIZE.1);
    let g = Geometry { width, height, ..g };
    let reachable = |s: &Screen| {
        let grab_w = GRAB.0.min(g.width);
        // The top strip (title bar) must overlap the screen by a grab's worth.
        let left = g.x.max(s.x);
        let right = (g.x + g.width).min(s.x + s.width);
        let top = g.y.max(s.y);
        let bottom = (g.y + GRAB.1).min(s.y + s.height);
        right - left >= grab_w && bottom - top >= GRAB.1.min(s.height)
    };
    if screens.is_empty() || screens.iter().any(reachable) {
        return g;
    }
    let s = screens[0];
    let width = g.width.min(s.width);
    let height = g.height.min(s.height);
    Geometry {
        x: g.x.clamp(s.x, s.x + s.width - width),
        y: g.y.clamp(s.y, s.y + s.height - height),
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRIMARY: Screen = Screen {
        x: 0.0,
        y: 0.0,
        width: 1280.0,
        height: 800.0,
    };
    const RIGHT: Screen = Screen {
        x: 1280.0,
        y: 0.0,
        width: 1920.0,
        height: 1080.0,
    };

    fn g(x: f64, y: f64, width: f64, height: f64) -> Geometry {
        Geometry {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn a_window_on_a_screen_stays_where_it_was() {
        assert_eq!(
            clamp_onto(g(100.0, 50.0, 500.0, 400.0), &[PRIMARY]),
            g(100.0, 50.0, 500.0, 400.0)
        );
        assert_eq!(
            clamp_onto(g(1500.0, 300.0, 500.0, 400.0), &[PRIMARY, RIGHT]),
            g(1500.0, 300.0, 500.0, 400.0),
            "on the second screen"
        );
        assert_eq!(
            clamp_onto(g(1100.0, 700.0, 500.0, 400.0), &[PRIMARY]),
            g(1100.0, 700.0, 500.0, 400.0),
            "partly off the screen, its title bar still reachable"
        );
    }

    #[test]
    fn a_window_off_every_screen_comes_back_onto_the_primary_one() {
        // Was on the right-hand monitor, which is gone.
        assert_eq!(
            clamp_onto(g(1500.0, 300.0, 500.0, 400.0), &[PRIMARY]),
            g(780.0, 300.0, 500.0, 400.0)
        );
        // Far up and left.
        assert_eq!(
            clamp_onto(g(-5000.0, -3000.0, 500.0, 400.0), &[PRIMARY]),
            g(0.0, 0.0, 500.0, 400.0)
        );
        // Its title bar above the screen's top: not reachable.
        assert_eq!(
            clamp_onto(g(100.0, -390.0, 500.0, 400.0), &[PRIMARY]),
            g(100.0, 0.0, 500.0, 400.0)
        );
        // Bigger than the screen: shrunk to it.
        assert_eq!(
            clamp_onto(g(4000.0, 10.0, 3000.0, 2000.0), &[PRIMARY]),
            g(0.0, 0.0, 1280.0, 800.0)
        );
    }

    #[test]
    fn a_tiny_window_grows_to_the_minimum_and_no_screen_means_no_change() {
        assert_eq!(
            clamp_onto(g(10.0, 10.0, 5.0, 5.0), &[PRIMARY]),
            g(10.0, 10.0, 240.0, 140.0)
        );
        assert_eq!(
            clamp_onto(g(-9000.0, 0.0, 500.0, 400.0), &[]),
            g(-9000.0, 0.0, 500.0, 400.0)
        );
    }

    #[test]
    fn geometry_is_remembered_per_extension_and_panel_and_a_broken_file_is_ignored() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(load(home.path(), "todo", "list"), None);
        save_all(
            home.path(),
            &[
                ("todo".into(), "list".into(), g(1.0, 2.0, 300.0, 200.0)),
                ("other".into(), "list".into(), g(5.0, 6.0, 400.0, 300.0)),
            ],
        )
        .unwrap();
        save_all(
            home.path(),
            &[("todo".into(), "list".into(), g(7.0, 8.0, 310.0, 210.0))],
        )
        .unwrap();
        assert_eq!(
            load(home.path(), "todo", "list"),
            Some(g(7.0, 8.0, 310.0, 210.0))
        );
        assert_eq!(
            load(home.path(), "other", "list"),
            Some(g(5.0, 6.0, 400.0, 300.0))
        );
        std::fs::write(file(home.path()), "{ not json").unwrap();
        assert_eq!(load(home.path(), "todo", "list"), None);
    }
}

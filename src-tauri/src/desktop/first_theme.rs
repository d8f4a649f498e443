//! The theme the user chose, handed to the page before any of its scripts
//! run, so its prerendered first screen (ui/src/firstScreen.ts) is painted
//! in that theme rather than in the default dark one until the settings
//! arrive. The page's guard (ui/src/firstScreenGuard.ts) applies it when it
//! is a built-in theme or "system"; the app starts from the same name.
//! Read once at start: after a change in Settings the app applies the new
//! theme itself, and only a reload (a project switch) paints its first
//! frame in the theme the window started with.

use tauri::plugin::{Builder, TauriPlugin};
use tauri::Runtime;

/// A plugin whose only part is the page's initialisation script.
pub fn init<R: Runtime>(theme: &str) -> TauriPlugin<R> {
    Builder::new("zot-first-theme")
        .js_init_script(script(theme))
        .build()
}

/// `window.__ZOT_THEME__ = "<name>";`, the name as a JSON string, so no
/// theme name can break out of it.
fn script(theme: &str) -> String {
    format!("window.__ZOT_THEME__ = {};", serde_json::Value::from(theme))
}

#[cfg(test)]
mod tests {
    use super::script;

    #[test]
    fn the_name_is_a_json_string_whatever_it_holds() {
        assert_eq!(script("light"), r#"window.__ZOT_THEME__ = "light";"#);
        assert_eq!(
            script("a\";alert(1);//</script>"),
            r#"window.__ZOT_THEME__ = "a\";alert(1);//</script>";"#
        );
    }
}

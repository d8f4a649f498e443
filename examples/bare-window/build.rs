//! Build script: tauri-build checks tauri.conf.json and embeds the window's
//! config (the page and the icon are embedded by `generate_context!`).

fn main() {
    tauri_build::build();
}

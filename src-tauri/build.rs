//! Build script: with the `desktop` feature, runs tauri-build so the window's
//! config, capabilities and the permissions of zot's own commands are checked
//! and embedded at compile time. Headless builds skip it entirely.

/// zot's IPC commands. Each gets an `allow-<name>` permission that the main
/// window's capability grants; nothing else is reachable from the page.
#[cfg(feature = "desktop")]
const COMMANDS: &[&str] = &[
    "rpc",
    "ext_install",
    "ext_catalog",
    "ext_new",
    "ext_set_enabled",
    "ext_remove",
    "ext_doctor",
    "ext_log_read",
    "ext_log_open",
    "pick_folder",
    "settings_get",
    "settings_save",
    "themes_list",
    "ui_ready",
];

fn main() {
    #[cfg(feature = "desktop")]
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("tauri-build failed: check src-tauri/tauri.conf.json and capabilities/");
}

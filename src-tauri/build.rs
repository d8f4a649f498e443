//! Build script: with the `desktop` feature, runs tauri-build so the window's
//! config, capabilities and the permissions of zot's own commands are checked
//! and embedded at compile time. Headless builds skip it entirely.
//!
//! It also keeps the dev server opt-in. Tauri loads `devUrl` unless tauri's
//! `custom-protocol` feature is on, so a window build must say which it is:
//! `custom-protocol` (the default: the page embedded from `ui/dist`) or
//! `dev-server` (`make dev`). When `ui/dist` was never built (a fresh
//! checkout running `cargo test`), a one-page placeholder is written there
//! so the embedded build still compiles and the window says how to build
//! the real UI instead of "Could not connect to localhost".

/// zot's IPC commands. Each gets an `allow-<name>` permission that the main
/// window's capability grants; nothing else is reachable from the page.
#[cfg(feature = "desktop")]
const COMMANDS: &[&str] = &[
    "rpc",
    "ext_install",
    "ext_catalog",
    "ext_new",
    "ext_develop",
    "ext_dev_folders",
    "ext_set_enabled",
    "ext_remove",
    "ext_accept_permissions",
    "ext_add_mcp",
    "ext_doctor",
    "ext_log_read",
    "ext_log_open",
    "pick_folder",
    "project_open",
    "project_current",
    "projects_recent",
    "project_forget",
    "dropped_paths",
    "settings_get",
    "settings_save",
    "themes_list",
    "panel_placements",
    "panel_placement_set",
    "dock_sizes",
    "dock_sizes_set",
    "panel_frame_open",
    "panel_frame_close",
    "panel_window_open",
    "panel_window_close",
    "panel_window_sync",
    "panel_window_ready",
    "panel_window_action",
    "ui_ready",
    "dialog_open_url",
    "app_open_link",
];

/// `frontendDist` in tauri.conf.json, relative to this crate.
#[cfg(feature = "desktop")]
const DIST: &str = "../ui/dist";

/// Shown when the binary was built before the UI. Static: the CSP allows no
/// inline script, and none is needed.
#[cfg(feature = "desktop")]
const PLACEHOLDER: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>zot: the UI was not built</title></head>
<body style="font-family: sans-serif; margin: 3em; max-width: 40em; line-height: 1.5">
<h1>The UI was not built</h1>
<p>This zot binary was compiled before <code>ui/dist</code> existed, so it
embeds this page instead of the app.</p>
<p>Run <code>make build</code> (a release binary) or <code>make run</code>
(build and open), which build the UI first. For hot reload while working on
the UI, use <code>make dev</code>.</p>
<!-- zot-placeholder: written by src-tauri/build.rs -->
</body>
</html>
"#;

fn main() {
    #[cfg(feature = "desktop")]
    {
        let embedded = std::env::var_os("CARGO_FEATURE_CUSTOM_PROTOCOL").is_some();
        let dev = std::env::var_os("CARGO_FEATURE_DEV_SERVER").is_some();
        if embedded && dev {
            panic!("zot: the features custom-protocol (embedded UI, the default) and dev-server (make dev) exclude each other; build dev-server with --no-default-features");
        }
        if !embedded && !dev {
            panic!("zot: the desktop feature alone would load the page from the dev server; enable custom-protocol (embedded UI, the default) or, for `make dev`, dev-server");
        }
        if embedded {
            ensure_dist();
        }
        tauri_build::try_build(
            tauri_build::Attributes::new()
                .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
        )
        .expect("tauri-build failed: check src-tauri/tauri.conf.json and capabilities/");
    }
}

/// Writes the placeholder page when `ui/dist` has no index.html, and makes
/// cargo rebuild zot whenever `ui/dist` changes: `generate_context!` embeds
/// the files at compile time, and a rebuilt UI must not leave a stale page
/// (or the placeholder) inside the binary.
#[cfg(feature = "desktop")]
fn ensure_dist() {
    let dist = std::path::Path::new(DIST);
    let index = dist.join("index.html");
    if !index.exists() {
        std::fs::create_dir_all(dist)
            .and_then(|()| std::fs::write(&index, PLACEHOLDER))
            .unwrap_or_else(|e| {
                panic!("zot: cannot write the placeholder {}: {e}", index.display())
            });
        println!(
            "cargo:warning=ui/dist was not built; this zot embeds a page that says to run `make build`"
        );
    }
    println!("cargo:rerun-if-changed={DIST}");
    println!("cargo:rerun-if-changed={}", index.display());
}

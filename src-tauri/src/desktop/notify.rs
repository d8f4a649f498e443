//! OS notifications from the window: glue between the event bridge, the
//! window's focus, the user's settings and notify-rust. What notifies and
//! what it says is decided in `crate::notifications`.

use tauri::{AppHandle, Manager};
use zot_ext_protocol::rpc::UiEvent;

use crate::notifications::{self, Kind, Notice};
use crate::projects::folder;

use super::Desktop;

/// Shows the notification `ev` calls for, if any: its kind is on in
/// Settings and the window is not focused. Called for every event the
/// bridge forwards; all but a few return at the first line.
pub fn on_event(app: &AppHandle, ev: &UiEvent) {
    let Some(kind) = Kind::of(ev) else { return };
    let state = app.state::<Desktop>();
    // Read at each candidate event, so a change in Settings applies to the
    // next one; config.json is small and these events are rare.
    let settings = crate::settings::notifications(&state.ctx.zot_home);
    if !notifications::due(kind, &settings, || focused(app)) {
        return;
    }
    let project = folder::display_name(&state.cwd());
    if let Some(notice) = notifications::notice(ev, &project) {
        show(&notice);
    }
}

/// Whether the main window has the keyboard focus now. Asked at the moment
/// of the event rather than tracked, so no focus change can be missed. A
/// window that is gone or cannot say counts as focused: no notification
/// rather than a wrong one.
fn focused(app: &AppHandle) -> bool {
    app.get_webview_window("main")
        .map(|w| w.is_focused().unwrap_or(true))
        .unwrap_or(true)
}

fn show(notice: &Notice) {
    // freedesktop daemons read the body as markup; macOS and Windows show
    // it verbatim.
    let body = if cfg!(all(unix, not(target_os = "macos"))) {
        notifications::escape_markup(&notice.body)
    } else {
        notice.body.clone()
    };
    let (title, kind) = (notice.title.clone(), notice.kind);
    // A D-Bus round trip (or the platform's equivalent) that can wait on a
    // slow daemon: never on the event bridge's task.
    tauri::async_runtime::spawn_blocking(move || {
        let shown = notify_rust::Notification::new()
            .appname("zot")
            .summary(&title)
            .body(&body)
            .auto_icon()
            .show();
        if let Err(e) = shown {
            eprintln!("zot: cannot show a notification ({kind:?}): {e}");
        }
    });
}

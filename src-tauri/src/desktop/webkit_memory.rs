//! How often WebKit measures the page's own memory, set before the window
//! exists.
//!
//! Every 30 seconds (WebKit's default poll interval) the web process reads
//! `/proc/self/smaps` on its main thread to decide whether it is using too
//! much memory. On a long session that read took 20–50 ms of the page's
//! main thread, so a streamed answer or a scroll stalled for one frame of
//! 45–85 ms every 30 seconds: 4 of the 5 frames over 40 ms in a traced
//! 250-second stream (docs/performance.md, "Where the long streaming frames
//! came from"). zot asks for the check every 10 minutes instead. It only
//! ever acts when the page passes a share of WebKit's memory limit
//! (gigabytes), which zot's windowed transcript does not approach in
//! minutes; memory pressure on the whole
//! system still reaches the page at once through WebKit's separate monitor
//! in the window's own process, which this does not touch.
//!
//! Tauri builds the `WebKitWebContext` itself and the setting is one of its
//! construct-only properties, so zot wraps the class's `set_property`: when
//! the context is constructed without settings, it gets zot's. A context
//! given settings by someone else keeps them. `ZOT_WEBKIT_MEMORY_POLL`
//! (seconds) overrides the interval; `30` is WebKit's own default.

use std::ffi::CStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use webkit2gtk::ffi as wk;
use webkit2gtk::glib::gobject_ffi as gobject;

/// zot's interval between two of WebKit's memory checks, in seconds.
const POLL_SECS: f64 = 600.0;
/// The variable that overrides [`POLL_SECS`].
const POLL_VAR: &str = "ZOT_WEBKIT_MEMORY_POLL";

type SetProperty = unsafe extern "C" fn(
    *mut gobject::GObject,
    u32,
    *mut gobject::GValue,
    *mut gobject::GParamSpec,
);

/// WebKit's own `set_property` of `WebKitWebContext`, and the interval to give.
static WRAPPED: OnceLock<(SetProperty, f64)> = OnceLock::new();
/// Whether a context was given zot's settings (for the log line).
static APPLIED: AtomicBool = AtomicBool::new(false);

/// The interval from the environment: a positive number of seconds, else
/// [`POLL_SECS`] (WebKit refuses an interval that is not above 0).
fn poll_secs(var: Option<String>) -> Result<f64, String> {
    let Some(v) = var else {
        return Ok(POLL_SECS);
    };
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!(
            "{POLL_VAR}={v:?} is not a positive number of seconds; using {POLL_SECS} s"
        )),
    }
}

/// Installs the wrapper. Call on the main thread before Tauri creates its
/// first webview; later contexts get the same settings.
pub(crate) fn install() {
    let secs = poll_secs(std::env::var(POLL_VAR).ok()).unwrap_or_else(|e| {
        eprintln!("zot: {e}");
        POLL_SECS
    });
    // SAFETY: the class is referenced for the life of the process (a class
    // is never unloaded while referenced), and its vtable is written once,
    // here, before any instance exists or any other thread runs GTK code.
    unsafe {
        let class = gobject::g_type_class_ref(wk::webkit_web_context_get_type())
            as *mut gobject::GObjectClass;
        let Some(original) = (*class).set_property else {
            eprintln!(
                "zot: WebKit's web context has no set_property; its memory check stays at 30 s"
            );
            return;
        };
        if WRAPPED.set((original, secs)).is_ok() {
            (*class).set_property = Some(set_property);
        }
    }
}

/// Whether a web context was constructed with zot's interval.
pub(crate) fn applied() -> bool {
    APPLIED.load(Ordering::Relaxed)
}

/// `WebKitWebContext`'s `set_property`, with zot's memory settings in place
/// of none.
unsafe extern "C" fn set_property(
    object: *mut gobject::GObject,
    id: u32,
    value: *mut gobject::GValue,
    pspec: *mut gobject::GParamSpec,
) {
    let Some(&(original, secs)) = WRAPPED.get() else {
        return;
    };
    // SAFETY: GObject passes a valid pspec and an initialised value of the
    // property's type; the boxed value is only read when the property is
    // the boxed memory-pressure-settings.
    let ours = CStr::from_ptr((*pspec).name).to_bytes() == b"memory-pressure-settings"
        && gobject::g_value_get_boxed(value).is_null();
    if !ours {
        return original(object, id, value, pspec);
    }
    let settings = wk::webkit_memory_pressure_settings_new();
    wk::webkit_memory_pressure_settings_set_poll_interval(settings, secs);
    let mut with: gobject::GValue = std::mem::zeroed();
    gobject::g_value_init(&mut with, wk::webkit_memory_pressure_settings_get_type());
    // The value takes the settings over; unsetting it frees them, after
    // WebKit has copied what it keeps.
    gobject::g_value_take_boxed(&mut with, settings as *const _);
    original(object, id, &mut with, pspec);
    gobject::g_value_unset(&mut with);
    APPLIED.store(true, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_is_zots_unless_the_variable_names_a_positive_one() {
        assert_eq!(poll_secs(None), Ok(POLL_SECS));
        assert_eq!(poll_secs(Some("30".into())), Ok(30.0));
        assert_eq!(poll_secs(Some(" 2.5 ".into())), Ok(2.5));
        for bad in ["0", "-1", "soon", "", "NaN", "inf"] {
            let err = poll_secs(Some(bad.into())).unwrap_err();
            assert!(
                err.contains(POLL_VAR) && err.contains("600"),
                "{bad}: {err}"
            );
        }
    }
}

//! Projects: the folder a run works in (its cwd: project extensions, trust,
//! sessions). The desktop opens one project at a time and can switch to
//! another without restarting the app; this module holds the logic (which
//! folders may be opened, the recent list, the backend swap) so the Tauri
//! glue in `desktop` stays thin.

pub mod folder;
pub mod recent;
pub mod switch;

//! Running extensions: loading, one supervised task per run, and every frame in (routing, actions, panels, dialogs).
pub(crate) mod actions;
pub(crate) mod dialogs;
pub mod discovery;
pub(crate) mod idle_stop;
pub(crate) mod load;
pub(crate) mod mcp;
pub(crate) mod on_use;
pub(crate) mod panel_messages;
pub(crate) mod panels;
pub(crate) mod router;
pub(crate) mod session_state;
pub(crate) mod shutdown;
pub(crate) mod supervisor;
pub(crate) mod target;

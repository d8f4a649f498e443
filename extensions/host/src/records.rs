//! Plain records the owner keeps: one extension, the registry, panel and dialog tables, ids, counters.
pub(crate) mod call_stats;
pub(crate) mod dialog_queue;
pub(crate) mod ext_id;
pub(crate) mod extension;
pub(crate) mod panel_table;
pub(crate) mod registry;
pub(crate) mod restart_policy;
pub mod tool_progress;
pub mod tool_target;
pub(crate) mod uses;

//! The one owner of the shared tables (`state::Shared`) and the event bus.
pub(crate) mod deadlines;
pub(crate) mod events;
pub(crate) mod state;
pub(crate) mod state_table;

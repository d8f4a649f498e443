//! The management operations shared by `zot ext …` and the desktop manager: install, bundles, updates, remove, catalog, scaffold.
pub mod bundle;
pub mod catalog;
pub mod conformance;
pub mod ext_ops;
pub mod install;
pub(crate) mod install_notes;
pub mod logs;
pub mod mcp_install;
pub mod remove;
pub mod rollback;
pub mod scaffold;
pub mod sdk;
pub mod sources;
pub(crate) mod theme;
pub mod toggle;
pub(crate) mod unpack;
pub mod update;

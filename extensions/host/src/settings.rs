//! Extension settings: schema rules, values and secrets (keychain or 0600 file).
pub(crate) mod mcp_secrets;
pub mod secret_store;
pub(crate) mod settings_owner;
pub mod settings_schema;
pub mod settings_store;

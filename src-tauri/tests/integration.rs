//! Every integration test of this crate that can share a process, in one
//! binary: one link instead of one per file (the cold build and its disk
//! were mostly those links). Files that measure or change the whole
//! process stay their own binaries (Cargo.toml lists them).

// The set-up every crate's tests share (fake model, the zot binary,
// fixture extensions) is the `zot-test-support` crate; these are the
// app's own: its Backend run in process, and RPC with one fixture
// extension.
#[path = "support/in_process.rs"]
mod in_process;
#[path = "support/one_ext.rs"]
mod one_ext;

mod agent_abort;
mod agent_panic;
mod auth_keychain;
mod backend_interactive;
mod bash_env;
mod canary;
mod checkpoints_prune;
mod checkpoints_shadow;
mod compaction;
mod compat_reference;
mod docs_quickstart;
mod examples_installed;
mod ext_cli_bundle;
mod ext_cli_bundle_https;
mod ext_cli_catalog;
mod ext_cli_catalog_sign;
mod ext_cli_doctor;
mod ext_cli_install;
mod ext_cli_logs;
mod ext_cli_manage;
mod ext_cli_mcp;
mod ext_cli_mcpb;
mod ext_cli_new;
mod ext_cli_permissions;
mod ext_cli_test;
mod ext_cli_trust;
mod ext_cli_update;
mod ext_watch;
mod file_modes;
mod keys_out_of_proc;
mod module_graph;
mod print_json;
mod projects;
mod prompt_cache;
mod prompt_checks;
mod provider_tool_loading;
mod providers_bounds;
mod providers_errors;
mod providers_stream;
mod rpc_approval_scopes;
mod rpc_approvals;
mod rpc_approvals_claims;
mod rpc_approvals_places;
mod rpc_checkpoints;
mod rpc_dialogs;
mod rpc_error_codes;
mod rpc_extensions;
mod rpc_flood;
mod rpc_input_limits;
mod rpc_loop;
mod rpc_mcp;
mod rpc_mcp_apps;
mod rpc_panel_input;
mod rpc_panel_message;
mod rpc_permissions;
mod rpc_protocol;
mod rpc_reference_clients;
mod rpc_session_state;
mod rpc_sessions;
mod rpc_settings;
mod rpc_supervision;
mod rpc_tool_progress;
mod rpc_trust;
mod rpc_updates;
mod sessions;
mod sessions_hardening;
mod settings_approvals;
mod settings_live;
mod signals;
mod tool_results_redacted;
mod tools_builtin;
mod tools_limits;

//! What every crate's tests set up the same way, in one place:
//!
//! - [`fake_llm`]: a model server on loopback speaking the providers' real
//!   SSE wire formats, scripted reply by reply;
//! - [`rpc`]: the real `zot` binary driven over stdin/stdout, and
//!   [`rpc::Setup`], the fake model plus a temp home and project that most
//!   of its tests start from; [`cli`]: the binary run to completion;
//! - [`fixtures`]: extensions on disk (the scripted fixture extensions in
//!   `fixtures/`, plain folders, git repositories);
//! - [`procs`]: what the OS says of a process a test started;
//! - [`keyring`]: a private Secret Service to run a test inside;
//! - [`rng`]: the one seeded generator the fuzzers share;
//! - [`wait`]: polling with a deadline.
//!
//! It depends on no crate of this workspace, so the host, the SDK, the
//! examples and the app can all take it as a dev-dependency; set-up that
//! needs one of their types stays in that crate's `tests/support`.

pub mod cli;
pub mod fake_llm;
pub mod fixtures;
pub mod keyring;
pub mod procs;
pub mod rng;
pub mod rpc;
pub mod wait;

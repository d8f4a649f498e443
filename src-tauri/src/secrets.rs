//! zot's own secrets (provider keys, RPC tokens, stored extension
//! secrets): how zot takes them at start and wipes them from its
//! environment block and command line ([`startup`]), where the provider
//! keys are kept ([`auth`]: keychain or `auth.json`), and how every text
//! that leaves zot for a front end, a session file or a provider is masked
//! ([`redact`]).

pub mod auth;
pub mod redact;
pub mod startup;

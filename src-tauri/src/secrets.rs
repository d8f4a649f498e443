//! zot's own secrets (provider keys, RPC tokens, stored extension
//! secrets): how zot takes them at start and wipes them from its
//! environment block and command line ([`startup`]), and how every text
//! that leaves zot for a front end, a session file or a provider is masked
//! ([`redact`]).

pub mod redact;
pub mod startup;

//! Command-line front ends: the global argument parser and `zot ext …`.

pub mod args;
pub mod backend_options;
pub mod checkpoints;
pub mod ext;

//! Command-line front ends: the global argument parser and `zot ext …`.

pub mod args;
pub mod ext;

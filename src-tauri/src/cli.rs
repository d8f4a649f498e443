//! Command-line front ends other than the window and the agent modes.

pub mod ext;

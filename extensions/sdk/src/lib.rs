//! The zot extension SDK for Rust (under construction).

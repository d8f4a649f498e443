//! The zot extension host (under construction).

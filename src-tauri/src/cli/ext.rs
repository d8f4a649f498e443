//! `zot ext …`: manage extensions from the shell (placeholder until the
//! manager lands).

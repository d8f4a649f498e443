//! Waiting for a condition a test cannot be told about (a file written by
//! an extension, a process gone): a deadline to fail at, not a timing
//! claim.

use std::time::{Duration, Instant};

/// Waits up to `secs` for `cond`, polling every 20 ms; panics saying that
/// `what` never happened.
pub async fn until(what: &str, secs: u64, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(
            Instant::now() < end,
            "{what} did not happen within {secs} s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// [`until`] with `secs`, for a condition the test names in its own
/// assertions.
pub async fn within(secs: u64, cond: impl FnMut() -> bool) {
    until("the condition", secs, cond).await
}

/// [`within`] 20 s, the tests' usual bound on a loaded machine.
pub async fn eventually(cond: impl FnMut() -> bool) {
    within(20, cond).await
}

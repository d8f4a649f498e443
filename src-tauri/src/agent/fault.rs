//! A test-only way to make the agent panic in the middle of a prompt, so a
//! test can prove that a panic never wedges zot (the backend recovers and
//! the next prompt runs). It exists only in debug builds: in a release
//! binary the function is empty and the variable means nothing.

/// The environment variable: a prompt whose text equals its value panics
/// right after `user_message` (debug builds only).
pub const PANIC_ON_PROMPT: &str = "ZOT_TEST_PANIC_ON_PROMPT";

/// Panics when this debug build was asked to for this prompt text.
pub fn inject(prompt: &str) {
    #[cfg(debug_assertions)]
    if std::env::var(PANIC_ON_PROMPT).is_ok_and(|v| v == prompt) {
        // The whole point of the hook: a deliberate panic, debug builds only.
        #[allow(clippy::panic)]
        {
            panic!("injected panic ({PANIC_ON_PROMPT} matched this prompt)");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = prompt;
}

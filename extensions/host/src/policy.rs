//! What an extension may do: permissions and their words, trust, consent, widening, dialog rules.
pub(crate) mod activation_check;
pub mod consent;
pub(crate) mod dialog_rules;
pub(crate) mod permission_words;
pub(crate) mod permissions;
pub(crate) mod run_trust;
pub mod trust;
pub(crate) mod widening;

//! Permission scopes (docs/protocol.md "Permissions"): what an extension's
//! manifest grants, the count of what the router refused, and the
//! throttled log line that says what and why.
//!
//! The check itself is one bit test in [`PermSet::allows`], made by the
//! router (`router.rs`) on every frame; this module only holds the data.
//! It is a leaf: it names no other host module but the log.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use zot_ext_protocol::{Manifest, Permission, PermissionGrant};

use crate::io::ext_log::ExtLog;

/// A manifest's grant as a bit set, so the router's check costs one AND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PermSet {
    bits: u16,
    /// No `permissions` field: everything, now and later.
    unrestricted: bool,
}

impl PermSet {
    /// Everything (no manifest field, or no manifest at all).
    pub const UNRESTRICTED: PermSet = PermSet {
        bits: u16::MAX,
        unrestricted: true,
    };

    /// The grant of `manifest`; unrestricted without one.
    pub fn of(manifest: Option<&Manifest>) -> PermSet {
        match manifest.and_then(|m| m.permissions.as_ref()) {
            None => PermSet::UNRESTRICTED,
            Some(list) => PermSet::only(list),
        }
    }

    /// Exactly `list`, as a manifest's `permissions` would grant it.
    pub fn only(list: &[Permission]) -> PermSet {
        PermSet {
            bits: list.iter().fold(0, |b, p| b | bit(*p)),
            unrestricted: false,
        }
    }

    /// Whether `p` is granted.
    #[inline]
    pub fn allows(self, p: Permission) -> bool {
        self.bits & bit(p) != 0
    }

    /// As `ext_list` shows it.
    pub fn grant(self) -> PermissionGrant {
        if self.unrestricted {
            return PermissionGrant::unrestricted();
        }
        PermissionGrant::List(
            Permission::ALL
                .into_iter()
                .filter(|p| self.allows(*p))
                .collect(),
        )
    }

    /// The granted names for a log line, e.g. `tools, notes` or `none`.
    fn words(self) -> String {
        let names: Vec<&str> = Permission::ALL
            .into_iter()
            .filter(|p| self.allows(*p))
            .map(Permission::as_str)
            .collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    }
}

fn bit(p: Permission) -> u16 {
    1u16 << p.index()
}

/// Refusals logged one by one before the log switches to summaries.
pub(crate) const LOG_FIRST: u64 = 20;

/// How often a flood of refusals is summed up in the log.
pub(crate) const SUMMARY_EVERY: Duration = Duration::from_secs(1);

/// What the router refused of one extension in this load: a count per
/// permission (across restarts, like its call stats) and the log gate.
#[derive(Debug, Default)]
pub(crate) struct Refusals {
    counts: [AtomicU64; Permission::ALL.len()],
    gate: Mutex<Gate>,
}

/// Whether a refusal is logged: the first [`LOG_FIRST`] are, then one
/// line per [`SUMMARY_EVERY`] sums up the rest, so a flood costs the log
/// a line a second and never one per frame.
#[derive(Debug, Default)]
struct Gate {
    logged: u64,
    held: u64,
    since: Option<Instant>,
}

enum Say {
    Line { last: bool },
    Summary(u64),
    Quiet,
}

impl Gate {
    fn next(&mut self, now: Instant) -> Say {
        if self.logged < LOG_FIRST {
            self.logged += 1;
            return Say::Line {
                last: self.logged == LOG_FIRST,
            };
        }
        self.held += 1;
        let since = *self.since.get_or_insert(now);
        if now.duration_since(since) < SUMMARY_EVERY {
            return Say::Quiet;
        }
        self.since = Some(now);
        Say::Summary(std::mem::take(&mut self.held))
    }
}

impl Refusals {
    /// Counts one refusal of `p` and logs it (or sums it up) in `log`.
    /// `what` is only formatted when the line is written.
    pub fn refuse(
        &self,
        log: &ExtLog,
        grant: PermSet,
        p: Permission,
        what: impl FnOnce() -> String,
    ) {
        if let Some(c) = self.counts.get(p.index()) {
            c.fetch_add(1, Ordering::Relaxed);
        }
        let say = self
            .gate
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .next(Instant::now());
        match say {
            Say::Line { last } => {
                log.line(&format!(
                    "refused {}: its manifest does not grant \"{}\" (it grants: {}); add \"{}\" to \"permissions\" in extension.json if it needs it",
                    what(),
                    p.as_str(),
                    grant.words(),
                    p.as_str()
                ));
                if last {
                    log.line(&format!(
                        "{LOG_FIRST} frames refused; from now on refusals are summed up once a second (counts per permission: `zot ext doctor`)"
                    ));
                }
            }
            Say::Summary(n) => log.line(&format!(
                "refused {n} more frame(s) its manifest does not grant (counts per permission: `zot ext doctor`)"
            )),
            Say::Quiet => {}
        }
    }

    /// The counts by permission name, for `ext_list`; permissions never
    /// refused are left out.
    pub fn counts(&self) -> BTreeMap<String, u64> {
        Permission::ALL
            .into_iter()
            .filter_map(|p| {
                let n = self.counts.get(p.index())?.load(Ordering::Relaxed);
                (n > 0).then(|| (p.as_str().to_owned(), n))
            })
            .collect()
    }
}

/// The warnings for a `hello.capabilities` that claims more than the
/// manifest grants: one per capability that names a permission not
/// granted. Capabilities that name no permission are informational and
/// ignored, as the spec says.
pub(crate) fn capability_warnings(grant: PermSet, capabilities: &[String]) -> Vec<String> {
    capabilities
        .iter()
        .filter_map(|c| Permission::parse(c).map(|p| (c, p)))
        .filter(|(_, p)| !grant.allows(*p))
        .map(|(c, p)| {
            format!(
                "hello.capabilities lists \"{c}\", which its manifest does not grant (it grants: {}); its {} frames will be refused: add \"{}\" to \"permissions\" in extension.json, or drop the capability",
                grant.words(),
                p.as_str(),
                p.as_str()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(list: &[Permission]) -> PermSet {
        let m: Manifest =
            serde_json::from_value(serde_json::json!({"name": "a", "permissions": list})).unwrap();
        PermSet::of(Some(&m))
    }

    #[test]
    fn a_set_allows_what_it_lists_and_no_field_allows_everything() {
        let s = set(&[Permission::Tools, Permission::Notes]);
        assert!(s.allows(Permission::Tools) && s.allows(Permission::Notes));
        assert!(!s.allows(Permission::Submit));
        assert_eq!(
            s.grant(),
            PermissionGrant::List(vec![Permission::Tools, Permission::Notes])
        );
        assert!(Permission::ALL
            .into_iter()
            .all(|p| PermSet::UNRESTRICTED.allows(p)));
        assert!(PermSet::of(None).grant().is_unrestricted());
        assert_eq!(set(&[]).words(), "none");
    }

    #[test]
    fn the_gate_logs_the_first_then_one_summary_a_second() {
        let mut g = Gate::default();
        let t0 = Instant::now();
        let lines = (0..LOG_FIRST)
            .filter(|_| matches!(g.next(t0), Say::Line { .. }))
            .count();
        assert_eq!(lines as u64, LOG_FIRST);
        // 10 000 more within the same second: all quiet.
        assert!((0..10_000).all(|_| matches!(g.next(t0), Say::Quiet)));
        match g.next(t0 + SUMMARY_EVERY) {
            Say::Summary(n) => assert_eq!(n, 10_001),
            _ => panic!("no summary after a second"),
        }
        assert!(matches!(g.next(t0 + SUMMARY_EVERY), Say::Quiet));
    }

    #[test]
    fn capabilities_beyond_the_grant_are_warned_and_others_ignored() {
        let s = set(&[Permission::Commands]);
        let w = capability_warnings(s, &["commands".into(), "panels".into(), "colours".into()]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("\"panels\""), "{w:?}");
    }
}

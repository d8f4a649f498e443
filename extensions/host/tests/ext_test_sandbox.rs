//! `zot ext test` runs an extension as zot would: the conformance kit
//! (`conformance::run`, what the command calls) starts a sandboxed
//! extension under the same sandbox and environment rules, so a canary
//! outside its grants stays unread, and the kit's checks still pass.

use crate::support;

use serde_json::json;
use support::*;
use tempfile::TempDir;

#[test]
fn a_sandboxed_extension_under_the_kit_cannot_read_outside_its_grants() {
    let env = Env::new();
    // Not under /tmp (the sandbox's /tmp is private anyway) nor $ZOT_HOME.
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let outside = TempDir::new_in(target).unwrap();
    let canary = outside.path().join("canary.txt");
    std::fs::write(&canary, "KIT-CANARY-5d1c").unwrap();
    let dir = env.global_dir().join("kitprobe");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("sandbox_probe.py"), dir.join("probe.py")).unwrap();
    let manifest = json!({
        "name": "kitprobe",
        "exec": "python3",
        "args": ["./probe.py", "kitprobe", format!("canary={}", canary.display())],
        "sandbox": {},
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    let report = zot_ext_host::conformance::run(&dir, env.home.path(), &Default::default());
    let log = std::fs::read_to_string(&report.log).unwrap_or_default();
    assert!(
        log.contains("canary: error: FileNotFoundError"),
        "{log}\n{:#?}",
        report.checks
    );
    assert!(!log.contains("KIT-CANARY-5d1c"), "{log}");
    let hello = report.checks.iter().find(|c| c.name == "hello").unwrap();
    assert_eq!(
        hello.status,
        zot_ext_host::conformance::Status::Pass,
        "{:#?}\n{log}",
        report.checks
    );
}

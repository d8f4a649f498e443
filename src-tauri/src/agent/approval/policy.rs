//! Which tool calls run, which wait for the user and which never run: a
//! pure function of the mode, the rules and the call, so every rule is
//! unit-tested without an agent. The order (docs/security.md):
//!
//! 1. a broken `approvals` section: every call is asked (`ask`) or denied
//!    (`auto`), never silently allowed, since a lost `deny` must not run;
//! 2. `deny` for the tool (`approvals.tools.<name>`, or for an extension
//!    tool `approvals.extensions.<ext>.tools.<name>`): never runs;
//! 3. `bash` whose command matches a remembered rule: runs;
//! 4. the tool's own rule: `allow` runs, `ask` asks (in `ask`); for an
//!    extension tool only its extension's entry allows, while a plain
//!    `approvals.tools.<name>: ask` still asks;
//! 5. `auto` mode: runs;
//! 6. defaults of `ask`: `read` runs inside the project and asks under
//!    `/proc`, `/sys`, `/dev`, `$ZOT_HOME` and outside; `write`/`edit` run
//!    inside the project and ask outside it, under its `.zot/` and `.git/`
//!    and under `$ZOT_HOME`; a remembered folder (`approvals.folders`)
//!    lets a file tool run outside the project or under `.git/`/`.zot/`
//!    without asking, never under `$ZOT_HOME` or `/proc`, `/sys`, `/dev`; `bash` asks; an extension tool asks, its
//!    read-only claim included, unless the user trusts that extension's
//!    claims (`approvals.extensions.<ext>.trust_read_only`); anything else
//!    runs (unknown tools fail).

use std::path::Path;

use serde_json::Value;
use zot_ext_protocol::approvals::{ApprovalMode, ToolRule};

use super::project_path::{self, Place};
use super::rules::Rules;

/// What happens to one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// It runs.
    Allow,
    /// It waits for the user; `reason` says why it needs approval.
    Ask {
        /// Why, in words.
        reason: String,
    },
    /// It never runs; `reason` becomes part of its error result.
    Deny {
        /// Why, in words.
        reason: String,
    },
}

/// One call as the policy sees it: after interception, with the
/// arguments that will run.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// Its final arguments.
    pub args: &'a Value,
    /// The owning extension, for extension tools.
    pub extension: Option<&'a str>,
    /// The tool says it only reads (an extension's `read_only`, an MCP
    /// `readOnlyHint`): a claim, not a grant.
    pub read_only: bool,
    /// The project directory.
    pub cwd: &'a Path,
    /// `$ZOT_HOME`.
    pub home: &'a Path,
}

/// Decides one call.
pub fn decide(mode: ApprovalMode, rules: &Result<Rules, String>, call: Call<'_>) -> Decision {
    let rules = match rules {
        Ok(r) => r,
        Err(e) => {
            return match mode {
                ApprovalMode::Ask => Decision::Ask { reason: e.clone() },
                ApprovalMode::Auto => Decision::Deny { reason: e.clone() },
            }
        }
    };
    let plain = rules.tools.get(call.tool).copied();
    let keyed = call
        .extension
        .and_then(|ext| rules.ext_tool(ext, call.tool));
    if keyed == Some(ToolRule::Deny) {
        return Decision::Deny {
            reason: format!(
                "approvals.extensions.{}.tools.{} is \"deny\" in config.json",
                call.extension.unwrap_or_default(),
                call.tool
            ),
        };
    }
    if plain == Some(ToolRule::Deny) {
        return Decision::Deny {
            reason: format!("approvals.tools.{} is \"deny\" in config.json", call.tool),
        };
    }
    if call.tool == "bash" && call.extension.is_none() && rules.bash_allows(command(call.args)) {
        return Decision::Allow;
    }
    // An extension tool's own entry first; a plain name allows built-in
    // tools only, so a same-named tool of another extension is not let in
    // (its `ask` still asks, as its `deny` denied above).
    let plain_field = || format!("approvals.tools.{}", call.tool);
    let rule = match call.extension {
        Some(ext) => keyed
            .map(|r| (r, format!("approvals.extensions.{ext}.tools.{}", call.tool)))
            .or_else(|| (plain == Some(ToolRule::Ask)).then(|| (ToolRule::Ask, plain_field()))),
        None => plain.map(|r| (r, plain_field())),
    };
    match (rule, mode) {
        (Some((ToolRule::Allow, _)), _) | (_, ApprovalMode::Auto) => return Decision::Allow,
        (Some((ToolRule::Ask, field)), ApprovalMode::Ask) => {
            return Decision::Ask {
                reason: format!("{field} is \"ask\" in config.json"),
            }
        }
        _ => {}
    }
    if let Some(ext) = call.extension {
        return extension_default(rules, call, ext, plain == Some(ToolRule::Allow));
    }
    match call.tool {
        "bash" => Decision::Ask {
            reason: match rules.bash_near_miss(command(call.args)) {
                Some(rule) => format!(
                    "bash runs a shell command; the remembered rule \"{rule}\" does not cover it because it holds shell syntax (; & | < > ( ) $ ` \\ or a line break)"
                ),
                None => "bash runs a shell command; no remembered rule matches it".into(),
            },
        },
        "read" | "write" | "edit" => {
            let path = call.args.get("path").and_then(Value::as_str).unwrap_or("");
            file_default(rules, call, path)
        }
        _ => Decision::Allow,
    }
}

/// The default of `ask` for an extension tool: it asks, whatever it claims,
/// unless the user trusts this extension's read-only claims.
fn extension_default(rules: &Rules, call: Call<'_>, ext: &str, plain_allow: bool) -> Decision {
    if call.read_only && rules.trusts_read_only(ext) {
        return Decision::Allow;
    }
    let mut reason = format!("{} is a tool of extension {ext}", call.tool);
    if call.read_only {
        reason.push_str(&format!(
            "; it says it only reads, a claim zot does not take on trust (to trust {ext}'s claims, set approvals.extensions.{ext}.trust_read_only)"
        ));
    }
    if plain_allow {
        reason.push_str(&format!(
            "; approvals.tools.{} allows built-in tools only, so any extension could offer a tool of that name: \"always allow\" remembers it for {ext} alone",
            call.tool
        ));
    }
    Decision::Ask { reason }
}

/// The default of `ask` for `read`, `write` and `edit`: by where the path
/// really points (`project_path::place`).
fn file_default(rules: &Rules, call: Call<'_>, path: &str) -> Decision {
    let reads = call.tool == "read";
    let verb = match call.tool {
        "read" => "reads",
        "write" => "writes",
        _ => "edits",
    };
    let ask = |reason: String| Decision::Ask { reason };
    match project_path::place(call.cwd, call.home, path) {
        Place::Inside => Decision::Allow,
        // A remembered folder (or file) outside the project, or under its
        // .git/ or .zot/; never zot's own state or the kernel's views.
        Place::Outside(real) | Place::CodeDir(real, _) if rules.folder_allows(call.tool, &real) => {
            Decision::Allow
        }
        Place::CodeDir(_, _) if reads => Decision::Allow,
        Place::Unknown => ask(format!(
            "{path} goes through a link zot cannot follow (dangling or a loop), so it may lie outside the project"
        )),
        Place::System(real) => ask(format!(
            "{verb} {}: under /proc, /sys and /dev lie the memory, open files and environment of zot and every other process",
            real.display()
        )),
        Place::ZotHome(real) => ask(format!(
            "{verb} {} in zot's own state ($ZOT_HOME: keys, settings, approval rules, sessions)",
            real.display()
        )),
        Place::Outside(real) => ask(format!(
            "{verb} outside the project: {} (the project is {})",
            real.display(),
            call.cwd.display()
        )),
        Place::CodeDir(real, dir) => ask(format!(
            "{verb} {} under the project's {dir}/, which counts as outside the project: {}",
            real.display(),
            if dir.eq_ignore_ascii_case(".git") {
                "git runs hooks from there"
            } else {
                "zot runs the project's extensions from there"
            }
        )),
    }
}

/// A bash call's command.
pub fn command(args: &Value) -> &str {
    args.get("command").and_then(Value::as_str).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(v: Value) -> Result<Rules, String> {
        Rules::from_config(&json!({ "approvals": v }))
    }

    fn call<'a>(tool: &'a str, args: &'a Value, cwd: &'a Path) -> Call<'a> {
        Call {
            tool,
            args,
            extension: None,
            read_only: false,
            cwd,
            home: Path::new("/nonexistent-zot-home"),
        }
    }

    fn asks(d: &Decision) -> bool {
        matches!(d, Decision::Ask { .. })
    }

    #[test]
    fn the_defaults_of_ask() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = std::fs::canonicalize(dir.path()).unwrap();
        let none = Ok(Rules::default());
        let ask = |tool, args: Value| decide(ApprovalMode::Ask, &none, call(tool, &args, &cwd));
        assert_eq!(ask("read", json!({"path": "src/a.rs"})), Decision::Allow);
        assert_eq!(ask("read", json!({"path": ".git/config"})), Decision::Allow);
        assert_eq!(ask("write", json!({"path": "a.txt"})), Decision::Allow);
        assert_eq!(ask("edit", json!({"path": "src/b.rs"})), Decision::Allow);
        assert!(asks(&ask("write", json!({"path": "/tmp/x"}))));
        assert!(asks(&ask("edit", json!({"path": "../x"}))));
        assert!(asks(&ask("bash", json!({"command": "ls"}))));
        assert_eq!(ask("nope", json!({})), Decision::Allow);
    }

    #[test]
    fn reads_of_system_dirs_zot_home_and_outside_ask_as_writes_to_code_dirs_do() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = std::fs::canonicalize(dir.path()).unwrap().join("proj");
        let home = cwd.parent().unwrap().join("home");
        std::fs::create_dir_all(&cwd).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let none = Ok(Rules::default());
        let reason = |tool, path: &str| {
            let args = json!({ "path": path, "content": "x" });
            let mut c = call(tool, &args, &cwd);
            c.home = &home;
            match decide(ApprovalMode::Ask, &none, c) {
                Decision::Ask { reason } => reason,
                d => panic!("{tool} {path}: {d:?}"),
            }
        };
        assert!(reason("read", "/proc/self/environ").contains("/proc/"));
        assert!(reason("read", "/sys/class").contains("/sys/class"));
        assert!(reason("read", "/dev/shm/x").contains("/dev/shm/x"));
        assert!(reason("read", "/etc/passwd").contains("outside the project"));
        let h = home.join("auth.json");
        assert!(reason("read", h.to_str().unwrap()).contains("$ZOT_HOME"));
        assert!(reason("write", h.to_str().unwrap()).contains("$ZOT_HOME"));
        let r = reason("write", ".zot/extensions/x/extension.json");
        assert!(
            r.contains(".zot/") && r.contains("outside the project"),
            "{r}"
        );
        let r = reason("edit", ".git/hooks/pre-commit");
        assert!(r.contains("git runs hooks"), "{r}");
        // In `auto`, all of these run: auto means auto.
        let args = json!({"path": "/proc/self/environ"});
        assert_eq!(
            decide(ApprovalMode::Auto, &none, call("read", &args, &cwd)),
            Decision::Allow
        );
    }

    #[test]
    fn a_remembered_folder_lets_its_tool_in_but_never_into_zots_state() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let (cwd, home, notes) = (root.join("proj"), root.join("home"), root.join("notes"));
        for d in [&cwd, &home, &notes] {
            std::fs::create_dir_all(d).unwrap();
        }
        let rules = Rules::from_config(&json!({"approvals": {"folders": {
            "write": [notes, home, cwd.join(".git")]
        }}}));
        let decide_at = |tool, path: &std::path::Path| {
            let args = json!({ "path": path, "content": "x" });
            let mut c = call(tool, &args, &cwd);
            c.home = &home;
            decide(ApprovalMode::Ask, &rules, c)
        };
        assert_eq!(decide_at("write", &notes.join("a/b.md")), Decision::Allow);
        assert_eq!(
            decide_at("write", &cwd.join(".git/hooks/x")),
            Decision::Allow
        );
        assert!(
            asks(&decide_at("edit", &notes.join("a.md"))),
            "another tool"
        );
        assert!(asks(&decide_at("write", &root.join("notes-old/a"))));
        // A rule that names $ZOT_HOME does not open it.
        assert!(asks(&decide_at("write", &home.join("auth.json"))));
    }

    #[test]
    fn a_read_only_claim_asks_unless_that_extension_is_trusted() {
        let cwd = Path::new("/nonexistent-project");
        let args = json!({});
        let mut ext = call("fetch", &args, cwd);
        ext.extension = Some("web");
        let none = Ok(Rules::default());
        assert!(asks(&decide(ApprovalMode::Ask, &none, ext)));
        ext.read_only = true;
        let Decision::Ask { reason } = decide(ApprovalMode::Ask, &none, ext) else {
            panic!("a claim was taken as a grant")
        };
        assert!(reason.contains("says it only reads"), "{reason}");
        let trusted = rules(json!({"extensions": {"web": {"trust_read_only": true}}}));
        assert_eq!(decide(ApprovalMode::Ask, &trusted, ext), Decision::Allow);
        // Trusting web's claims says nothing about another extension's.
        ext.extension = Some("other");
        assert!(asks(&decide(ApprovalMode::Ask, &trusted, ext)));
        // And a trusted extension's tool that claims nothing still asks.
        ext.extension = Some("web");
        ext.read_only = false;
        assert!(asks(&decide(ApprovalMode::Ask, &trusted, ext)));
    }

    #[test]
    fn an_extension_tool_is_allowed_by_its_own_entry_only() {
        let cwd = Path::new("/nonexistent-project");
        let args = json!({});
        let mut ext = call("lookup", &args, cwd);
        let r = rules(json!({"extensions": {"good": {"tools": {"lookup": "allow"}}}}));
        ext.extension = Some("good");
        assert_eq!(decide(ApprovalMode::Ask, &r, ext), Decision::Allow);
        ext.extension = Some("evil");
        assert!(asks(&decide(ApprovalMode::Ask, &r, ext)));
        // An old plain rule still reads, but lets no extension tool in.
        let old = rules(json!({"tools": {"lookup": "allow"}}));
        let Decision::Ask { reason } = decide(ApprovalMode::Ask, &old, ext) else {
            panic!("a plain rule allowed an extension tool")
        };
        assert!(reason.contains("built-in tools only"), "{reason}");
        // Its deny and ask hold for every tool of the name.
        let deny = rules(
            json!({"tools": {"lookup": "deny"}, "extensions": {"evil": {"tools": {"lookup": "allow"}}}}),
        );
        assert!(matches!(
            decide(ApprovalMode::Auto, &deny, ext),
            Decision::Deny { .. }
        ));
        let ask = rules(json!({"tools": {"lookup": "ask"}}));
        assert!(asks(&decide(ApprovalMode::Ask, &ask, ext)));
        let keyed_deny = rules(json!({"extensions": {"evil": {"tools": {"lookup": "deny"}}}}));
        let Decision::Deny { reason } = decide(ApprovalMode::Auto, &keyed_deny, ext) else {
            panic!("a keyed deny did not hold in auto")
        };
        assert!(
            reason.contains("approvals.extensions.evil.tools.lookup"),
            "{reason}"
        );
    }

    #[test]
    fn rules_override_the_defaults_and_deny_wins_in_both_modes() {
        let cwd = Path::new("/nonexistent-project");
        let r = rules(json!({
            "tools": {"read": "ask", "write": "allow", "bash": "deny", "fetch": "allow"},
            "bash": ["ls *"]}));
        for mode in [ApprovalMode::Ask, ApprovalMode::Auto] {
            let d = |tool, args: Value| decide(mode, &r, call(tool, &args, cwd));
            assert!(matches!(
                d("bash", json!({"command": "ls"})),
                Decision::Deny { .. }
            ));
            assert_eq!(d("write", json!({"path": "/etc/x"})), Decision::Allow);
            assert_eq!(d("fetch", json!({})), Decision::Allow);
        }
        let d = |tool, args: Value| decide(ApprovalMode::Ask, &r, call(tool, &args, cwd));
        assert!(asks(&d("read", json!({"path": "x"}))));
        let r = rules(json!({"tools": {"bash": "ask"}, "bash": ["ls *"]}));
        let d = |cmd: &str| {
            let args = json!({ "command": cmd });
            decide(ApprovalMode::Ask, &r, call("bash", &args, cwd))
        };
        assert_eq!(d("ls -la"), Decision::Allow);
        assert!(asks(&d("ls; rm -rf ~")));
        let plain = rules(json!({"bash": ["ls *"]}));
        let args = json!({"command": "ls -la && rm -rf ~"});
        let Decision::Ask { reason } = decide(ApprovalMode::Ask, &plain, call("bash", &args, cwd))
        else {
            panic!("not asked")
        };
        assert!(reason.contains("\"ls *\" does not cover it"), "{reason}");
        assert!(asks(&d("rm -rf ~")));
    }

    #[test]
    fn auto_runs_everything_not_denied() {
        let cwd = Path::new("/");
        let none = Ok(Rules::default());
        let args = json!({"command": "rm -rf /tmp/x", "path": "/etc/x"});
        for tool in ["bash", "write", "edit", "read", "ext"] {
            assert_eq!(
                decide(ApprovalMode::Auto, &none, call(tool, &args, cwd)),
                Decision::Allow
            );
        }
    }

    #[test]
    fn a_broken_section_never_allows() {
        let cwd = Path::new("/");
        let broken: Result<Rules, String> = Err("approvals.tools.x is 3".into());
        let args = json!({"path": "a"});
        assert!(asks(&decide(
            ApprovalMode::Ask,
            &broken,
            call("read", &args, cwd)
        )));
        assert!(matches!(
            decide(ApprovalMode::Auto, &broken, call("read", &args, cwd)),
            Decision::Deny { .. }
        ));
    }
}

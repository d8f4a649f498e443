//! Which tool calls run, which wait for the user and which never run: a
//! pure function of the mode, the rules and the call, so every rule is
//! unit-tested without an agent. The order (docs/security.md):
//!
//! 1. a broken `approvals` section: every call is asked (`ask`) or denied
//!    (`auto`), never silently allowed, since a lost `deny` must not run;
//! 2. `approvals.tools.<name> = deny`: never runs;
//! 3. `bash` whose command matches a remembered rule: runs;
//! 4. `approvals.tools.<name> = allow`: runs; `= ask`: asks (in `ask`);
//! 5. `auto` mode: runs;
//! 6. defaults of `ask`: `read` runs; `write`/`edit` inside the project
//!    run and outside ask; `bash` asks; an extension tool asks unless its
//!    read-only hint is set; anything else runs (unknown tools fail).

use std::path::Path;

use serde_json::Value;
use zot_ext_protocol::approvals::{ApprovalMode, ToolRule};

use super::project_path;
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
    /// The tool says it only reads (an MCP `readOnlyHint`).
    pub read_only: bool,
    /// The project directory.
    pub cwd: &'a Path,
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
    let rule = rules.tools.get(call.tool).copied();
    if rule == Some(ToolRule::Deny) {
        return Decision::Deny {
            reason: format!("approvals.tools.{} is \"deny\" in config.json", call.tool),
        };
    }
    if call.tool == "bash" && call.extension.is_none() && rules.bash_allows(command(call.args)) {
        return Decision::Allow;
    }
    match (rule, mode) {
        (Some(ToolRule::Allow), _) | (_, ApprovalMode::Auto) => return Decision::Allow,
        (Some(ToolRule::Ask), ApprovalMode::Ask) => {
            return Decision::Ask {
                reason: format!("approvals.tools.{} is \"ask\" in config.json", call.tool),
            }
        }
        _ => {}
    }
    if let Some(ext) = call.extension {
        return if call.read_only {
            Decision::Allow
        } else {
            Decision::Ask {
                reason: format!("{} is a tool of extension {ext}", call.tool),
            }
        };
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
        "write" | "edit" => {
            let path = call.args.get("path").and_then(Value::as_str).unwrap_or("");
            match project_path::inside(call.cwd, path) {
                (true, _) => Decision::Allow,
                (false, Some(real)) => Decision::Ask {
                    reason: format!(
                        "{} outside the project: {} (the project is {})",
                        if call.tool == "write" { "writes" } else { "edits" },
                        real.display(),
                        call.cwd.display()
                    ),
                },
                (false, None) => Decision::Ask {
                    reason: format!(
                        "{path} goes through a link zot cannot follow (dangling or a loop), so it may lie outside the project"
                    ),
                },
            }
        }
        _ => Decision::Allow,
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
        assert_eq!(ask("read", json!({"path": "/etc/passwd"})), Decision::Allow);
        assert_eq!(ask("write", json!({"path": "a.txt"})), Decision::Allow);
        assert_eq!(ask("edit", json!({"path": "src/b.rs"})), Decision::Allow);
        assert!(asks(&ask("write", json!({"path": "/tmp/x"}))));
        assert!(asks(&ask("edit", json!({"path": "../x"}))));
        assert!(asks(&ask("bash", json!({"command": "ls"}))));
        assert_eq!(ask("nope", json!({})), Decision::Allow);
        let args = json!({});
        let mut ext = call("fetch", &args, &cwd);
        ext.extension = Some("web");
        assert!(asks(&decide(ApprovalMode::Ask, &none, ext)));
        ext.read_only = true;
        assert_eq!(decide(ApprovalMode::Ask, &none, ext), Decision::Allow);
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

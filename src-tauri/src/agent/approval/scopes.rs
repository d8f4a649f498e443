//! What "always allow" may remember for one call, narrowest first: the
//! choices an approval card offers (docs/desktop.md "Approval cards").
//!
//! - built-in `bash`: the exact command; its program (and subcommand) with
//!   plain arguments (`cargo test *`), when it holds no shell syntax; every
//!   bash command;
//! - `read`/`write`/`edit` outside the project or under its `.git/`/`.zot/`:
//!   the file; its folder and below (not `/` itself); every call of the tool;
//! - `read`/`write`/`edit` of zot's own state or `/proc`, `/sys`, `/dev`, or
//!   through a link zot cannot follow: nothing, the call is allowed once
//!   at a time;
//! - an extension's tool: every call of it from that extension;
//! - any other tool: every call of it.

use std::path::Path;

use zot_ext_protocol::approvals::{ApprovalScope, ScopeChoice, ToolRule};

use super::policy;
use super::project_path::{self, Place};
use super::rules::{BashRule, NewRule};
use super::Request;

/// One offered scope: its words and the rule it writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// The scope and what it would remember, in words.
    pub choice: ScopeChoice,
    /// The rule written when it is chosen.
    pub rule: NewRule,
}

fn offer(scope: ApprovalScope, label: String, rule: NewRule) -> Offer {
    Offer {
        choice: ScopeChoice { scope, label },
        rule,
    }
}

/// The words a prefix rule keeps of `command`: its program, and its first
/// argument when that reads like a subcommand (`cargo test`, `git status`),
/// not an option or a path.
fn prefix_words(command: &str) -> Option<Vec<String>> {
    let mut words = command.split_whitespace();
    let program = words.next()?;
    let mut out = vec![program.to_owned()];
    if let Some(sub) = words.next() {
        let plain = sub
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && sub.starts_with(|c: char| c.is_ascii_lowercase());
        if plain {
            out.push(sub.to_owned());
        }
    }
    Some(out)
}

/// The scopes for a built-in bash call.
fn bash(command: &str) -> Vec<Offer> {
    let cmd = command.trim().to_owned();
    let mut out = vec![offer(
        ApprovalScope::Exact,
        format!("the bash command \"{cmd}\""),
        NewRule::Bash(BashRule::Exact(cmd.clone())),
    )];
    if let Some(words) = prefix_words(&cmd) {
        let rule = BashRule::Prefix(words);
        // Only a prefix that covers this very command is worth offering
        // (shell syntax is never covered).
        if rule.matches(&cmd) {
            out.push(offer(
                ApprovalScope::Prefix,
                format!("bash commands matching \"{}\"", rule.text()),
                NewRule::Bash(rule),
            ));
        }
    }
    out.push(offer(
        ApprovalScope::Tool,
        "every bash command (any program, any arguments)".into(),
        NewRule::Tool("bash".into(), ToolRule::Allow),
    ));
    out
}

/// The scopes for `read`, `write` or `edit` of `path`.
fn file(tool: &str, path: &str, cwd: &Path, home: &Path) -> Vec<Offer> {
    let real = match project_path::place(cwd, home, path) {
        Place::Outside(real) | Place::CodeDir(real, _) => real,
        // zot's own state, the kernel's views, an unknown link: once only.
        Place::System(_) | Place::ZotHome(_) | Place::Unknown => return Vec::new(),
        // Inside the project nothing asks by default; a rule made it ask,
        // so only the tool's own rule is worth changing.
        Place::Inside => {
            return vec![offer(
                ApprovalScope::Tool,
                format!("every {tool} call, in or out of the project"),
                NewRule::Tool(tool.into(), ToolRule::Allow),
            )]
        }
    };
    let mut out = vec![offer(
        ApprovalScope::Exact,
        format!("{tool} of the file {}", real.display()),
        NewRule::Folder {
            tool: tool.into(),
            path: real.clone(),
        },
    )];
    if let Some(folder) = real.parent().filter(|p| p.parent().is_some()) {
        out.push(offer(
            ApprovalScope::Folder,
            format!("{tool} in {} and below", folder.display()),
            NewRule::Folder {
                tool: tool.into(),
                path: folder.to_path_buf(),
            },
        ));
    }
    out.push(offer(
        ApprovalScope::Tool,
        format!("every {tool} call, in or out of the project"),
        NewRule::Tool(tool.into(), ToolRule::Allow),
    ));
    out
}

/// What "always allow" may remember for `req`, narrowest first.
pub fn offered(req: &Request<'_>, cwd: &Path, home: &Path) -> Vec<Offer> {
    let tool = req.tool;
    if let Some(ext) = req.extension {
        // Keyed by extension and tool: another extension's tool of the
        // same name is not allowed by it.
        return vec![offer(
            ApprovalScope::Tool,
            format!("every call of {tool} from extension {ext}"),
            NewRule::ExtTool {
                extension: ext.to_owned(),
                tool: tool.to_owned(),
                rule: ToolRule::Allow,
            },
        )];
    }
    match tool {
        "bash" => bash(policy::command(req.args)),
        "read" | "write" | "edit" => {
            let path = req.args.get("path").and_then(|p| p.as_str()).unwrap_or("");
            file(tool, path, cwd, home)
        }
        _ => vec![offer(
            ApprovalScope::Tool,
            format!("every {tool} call"),
            NewRule::Tool(tool.to_owned(), ToolRule::Allow),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn scopes(
        tool: &str,
        args: Value,
        ext: Option<&str>,
        cwd: &Path,
        home: &Path,
    ) -> Vec<(ApprovalScope, String)> {
        let req = Request {
            call_id: "c",
            tool,
            args: &args,
            extension: ext,
            read_only: false,
        };
        offered(&req, cwd, home)
            .into_iter()
            .map(|o| (o.choice.scope, o.choice.label))
            .collect()
    }

    #[test]
    fn bash_offers_the_command_its_prefix_and_the_tool() {
        let d = tempfile::tempdir().unwrap();
        let s = scopes(
            "bash",
            json!({"command": "cargo test --all"}),
            None,
            d.path(),
            d.path(),
        );
        assert_eq!(
            s,
            [
                (
                    ApprovalScope::Exact,
                    "the bash command \"cargo test --all\"".into()
                ),
                (
                    ApprovalScope::Prefix,
                    "bash commands matching \"cargo test *\"".into()
                ),
                (
                    ApprovalScope::Tool,
                    "every bash command (any program, any arguments)".into()
                ),
            ]
        );
        // An option is not a subcommand; shell syntax gets no prefix.
        let s = scopes(
            "bash",
            json!({"command": "ls -la /tmp"}),
            None,
            d.path(),
            d.path(),
        );
        assert_eq!(s[1].1, "bash commands matching \"ls *\"");
        let s = scopes(
            "bash",
            json!({"command": "ls | wc -l"}),
            None,
            d.path(),
            d.path(),
        );
        assert_eq!(
            s.iter().map(|x| x.0).collect::<Vec<_>>(),
            [ApprovalScope::Exact, ApprovalScope::Tool]
        );
    }

    #[test]
    fn a_file_outside_offers_the_file_its_folder_and_the_tool_and_zots_state_nothing() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let out = std::fs::canonicalize(outside.path()).unwrap();
        let target = out.join("notes.md");
        let s = scopes(
            "write",
            json!({"path": target}),
            None,
            project.path(),
            home.path(),
        );
        assert_eq!(
            s,
            [
                (
                    ApprovalScope::Exact,
                    format!("write of the file {}", target.display())
                ),
                (
                    ApprovalScope::Folder,
                    format!("write in {} and below", out.display())
                ),
                (
                    ApprovalScope::Tool,
                    "every write call, in or out of the project".into()
                ),
            ]
        );
        let key = home.path().join("auth.json");
        assert!(scopes(
            "read",
            json!({"path": key}),
            None,
            project.path(),
            home.path()
        )
        .is_empty());
        assert!(scopes(
            "read",
            json!({"path": "/proc/self/environ"}),
            None,
            project.path(),
            home.path()
        )
        .is_empty());
    }

    #[test]
    fn an_extension_tool_offers_itself_for_its_extension_only() {
        let d = tempfile::tempdir().unwrap();
        let s = scopes("fetch", json!({}), Some("web"), d.path(), d.path());
        assert_eq!(
            s,
            [(
                ApprovalScope::Tool,
                "every call of fetch from extension web".into()
            )]
        );
    }
}

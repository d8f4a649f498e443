//! The rules a user remembered, as a list to review and revoke (the
//! Permissions page, RPC `approval_rules` / `approval_rule_forget`): each
//! entry of `config.json`'s `approvals` section in words, and the removal
//! of one entry, keeping the rest of the file.

use std::path::Path;

use serde_json::{Map, Value};
use zot_ext_protocol::approvals::{RememberedRule, RuleKind, ToolRule};

use super::rules::{self, BashRule, Rules};

/// What a tool rule does, in words.
fn tool_words(tool: &str, rule: ToolRule, of: &str) -> String {
    match rule {
        ToolRule::Allow => format!("every {tool} call{of} runs without asking"),
        ToolRule::Ask => format!("every {tool} call{of} asks first"),
        ToolRule::Deny => format!("{tool}{of} never runs"),
    }
}

fn rule_text(rule: ToolRule) -> String {
    serde_json::to_value(rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Every remembered rule of `rules`, in words.
pub fn list(rules: &Rules) -> Vec<RememberedRule> {
    let mut out = Vec::new();
    let entry =
        |kind, tool: Option<&str>, extension: Option<&str>, value: String, words| RememberedRule {
            kind,
            tool: tool.map(str::to_owned),
            extension: extension.map(str::to_owned),
            value,
            words,
        };
    for (tool, rule) in &rules.tools {
        out.push(entry(
            RuleKind::Tool,
            Some(tool),
            None,
            rule_text(*rule),
            tool_words(tool, *rule, ""),
        ));
    }
    for r in &rules.bash {
        let words = match r {
            BashRule::Exact(c) => format!("the bash command \"{c}\" runs without asking"),
            BashRule::Prefix(w) => format!(
                "bash commands \"{} …\" with plain arguments run without asking",
                w.join(" ")
            ),
        };
        out.push(entry(RuleKind::Bash, None, None, r.text(), words));
    }
    for (tool, paths) in &rules.folders {
        for p in paths {
            let words = format!("{tool} runs without asking in {} and below", p.display());
            out.push(entry(
                RuleKind::Folder,
                Some(tool),
                None,
                p.to_string_lossy().into_owned(),
                words,
            ));
        }
    }
    for (ext, e) in &rules.extensions {
        for (tool, rule) in &e.tools {
            out.push(entry(
                RuleKind::ExtensionTool,
                Some(tool),
                Some(ext),
                rule_text(*rule),
                tool_words(tool, *rule, &format!(" of {ext}")),
            ));
        }
        if e.trust_read_only {
            out.push(entry(
                RuleKind::TrustReadOnly,
                None,
                Some(ext),
                "true".into(),
                format!("tools {ext} marks read-only run without asking"),
            ));
        }
    }
    out
}

/// Removes `key` from the object at `field` of `section`; whether it was there.
fn remove_key(section: &mut Map<String, Value>, field: &str, key: &str) -> bool {
    section
        .get_mut(field)
        .and_then(Value::as_object_mut)
        .is_some_and(|o| o.remove(key).is_some())
}

/// Removes the string `item` from the list `list`; whether it was there.
fn remove_item(list: Option<&mut Value>, item: &str) -> bool {
    let Some(l) = list.and_then(Value::as_array_mut) else {
        return false;
    };
    let before = l.len();
    l.retain(|v| v.as_str() != Some(item));
    l.len() != before
}

/// Forgets `rule` in `$ZOT_HOME/config.json`; an error when the file has no
/// such rule (it changed since it was listed) or cannot be written.
pub fn forget(home: &Path, rule: &RememberedRule) -> Result<(), String> {
    let missing = || {
        format!(
            "approval_rule_forget: config.json has no such rule ({:?} {}); list the rules again with approval_rules",
            rule.kind, rule.value
        )
    };
    let tool = rule.tool.as_deref().unwrap_or("");
    let ext = rule.extension.as_deref().unwrap_or("");
    rules::edit_section(home, |section| {
        let found = match rule.kind {
            RuleKind::Tool => remove_key(section, "tools", tool),
            RuleKind::Bash => remove_item(section.get_mut("bash"), &rule.value),
            RuleKind::Folder => remove_item(
                section.get_mut("folders").and_then(|f| f.get_mut(tool)),
                &rule.value,
            ),
            RuleKind::ExtensionTool => section
                .get_mut("extensions")
                .and_then(|e| e.get_mut(ext))
                .and_then(Value::as_object_mut)
                .is_some_and(|e| remove_key(e, "tools", tool)),
            RuleKind::TrustReadOnly => section
                .get_mut("extensions")
                .and_then(|e| e.get_mut(ext))
                .and_then(Value::as_object_mut)
                .is_some_and(|e| e.remove("trust_read_only").is_some()),
        };
        if found {
            Ok(())
        } else {
            Err(missing())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::approval::rules::{remember, NewRule};
    use std::path::PathBuf;

    fn config(home: &Path) -> Value {
        serde_json::from_slice(&std::fs::read(home.join("config.json")).unwrap()).unwrap()
    }

    #[test]
    fn every_kind_is_listed_in_words_and_forgotten_alone() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.json"),
            r#"{"provider":"x","approvals":{"tools":{"write":"allow"},"bash":["git status","cargo test *"],
               "folders":{"read":["/srv/notes"]},
               "extensions":{"web":{"tools":{"fetch":"deny"},"trust_read_only":true}}}}"#,
        )
        .unwrap();
        let rules = rules::load(home.path()).unwrap();
        let all = list(&rules);
        let words: Vec<&str> = all.iter().map(|r| r.words.as_str()).collect();
        assert_eq!(
            words,
            [
                "every write call runs without asking",
                "the bash command \"git status\" runs without asking",
                "bash commands \"cargo test …\" with plain arguments run without asking",
                "read runs without asking in /srv/notes and below",
                "fetch of web never runs",
                "tools web marks read-only run without asking",
            ]
        );
        for r in &all {
            forget(home.path(), r).unwrap();
            assert!(
                !list(&rules::load(home.path()).unwrap()).contains(r),
                "{r:?} is still there"
            );
            assert!(forget(home.path(), r).unwrap_err().contains("no such rule"));
        }
        assert_eq!(
            config(home.path())["provider"],
            "x",
            "the rest of the file stays"
        );
    }

    #[test]
    fn a_folder_rule_is_remembered_once_and_must_be_absolute() {
        let home = tempfile::tempdir().unwrap();
        let rule = NewRule::Folder {
            tool: "write".into(),
            path: PathBuf::from("/srv/notes"),
        };
        remember(home.path(), &rule).unwrap();
        remember(home.path(), &rule).unwrap();
        assert_eq!(
            config(home.path())["approvals"]["folders"]["write"],
            serde_json::json!(["/srv/notes"])
        );
        let rules = rules::load(home.path()).unwrap();
        assert!(rules.folder_allows("write", Path::new("/srv/notes/a/b.md")));
        assert!(rules.folder_allows("write", Path::new("/srv/notes")));
        assert!(!rules.folder_allows("write", Path::new("/srv/notes-old/a")));
        assert!(!rules.folder_allows("edit", Path::new("/srv/notes/a")));
        for bad in [r#"{"write":["notes"]}"#, r#"{"bash":["/x"]}"#, r#"["/x"]"#] {
            let c: Value =
                serde_json::from_str(&format!(r#"{{"approvals":{{"folders":{bad}}}}}"#)).unwrap();
            assert!(Rules::from_config(&c).is_err(), "{bad} was accepted");
        }
    }
}

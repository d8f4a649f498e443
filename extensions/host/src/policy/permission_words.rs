//! What an extension may do, in words a user can decide on: the one
//! wording of permissions that the install summary (the CLI's and the
//! manager's), `zot ext accept` and the manager's update dialog all show.

use std::path::Path;

use zot_ext_protocol::{ExtKind, Manifest, Permission, PermissionGrant};

/// One permission in plain words.
pub fn permission_words(p: Permission) -> &'static str {
    match p {
        Permission::Commands => "can add slash commands",
        Permission::Tools => "can add tools the model may call",
        Permission::Events => {
            "can read every tool call and its arguments, and the assistant's replies"
        }
        Permission::Intercept => {
            "can block or rewrite tool calls, hold up turns, and hide or rewrite the assistant's replies"
        }
        Permission::Panels => "can open interactive panels that read your keys while focused",
        Permission::Notes => "can show notes in the chat",
        Permission::Insert => "can type text into your message box",
        Permission::Prompt => "can send prompts to the agent when you run its commands",
        Permission::Submit => "can submit prompts to the agent at any time",
        Permission::Dialogs => "can ask you questions in dialogs (yes/no, a choice, text, a form)",
    }
}

/// The line an unrestricted extension (no `permissions` in its manifest)
/// gets instead of a list.
pub const UNRESTRICTED_WORDS: &str = "unrestricted: its manifest declares no permissions, so it can do everything an extension can (read every tool call and its arguments, block or rewrite tool calls, submit prompts to the agent, …)";

/// A grant in plain words, one line each; an unrestricted grant says so
/// in one line, and an empty list says it can do nothing through zot.
pub fn grant_words(grant: &PermissionGrant) -> Vec<String> {
    match grant {
        PermissionGrant::Unrestricted(_) => vec![UNRESTRICTED_WORDS.to_owned()],
        PermissionGrant::List(list) if list.is_empty() => {
            vec!["can do nothing through zot (its manifest grants no permissions)".to_owned()]
        }
        PermissionGrant::List(_) => Permission::ALL
            .into_iter()
            .filter(|p| grant.allows(*p))
            .map(|p| permission_words(p).to_owned())
            .collect(),
    }
}

/// What a theme-only extension (theme files and no `exec`) is said to do:
/// nothing runs, so neither its permissions nor a sandbox mean anything.
pub const THEME_WORDS: &str = "theme: runs no code (it only adds colour themes)";

/// Everything the install summary, the catalog and the manager's card say
/// an extension may do: its protocol permissions, then what it may touch
/// on this machine; a theme (as discovery tells one: no `exec`, theme
/// files in `dir`) says it runs no code.
pub fn manifest_words(manifest: &Manifest, dir: &Path) -> Vec<String> {
    let theme_only = manifest.exec.is_none()
        && manifest.kind == ExtKind::Extension
        && !crate::manage::theme::theme_files(dir).is_empty();
    if theme_only {
        return vec![THEME_WORDS.to_owned()];
    }
    let mut words = grant_words(&manifest.grant());
    words.extend(sandbox_words(manifest));
    words
}

/// What the extension may touch outside zot: for a sandboxed one, its
/// grants one line each ("can read ~/notes", "can read and write ~/out")
/// and its network; without a sandbox, that it runs with the user's own
/// rights.
fn sandbox_words(manifest: &Manifest) -> Vec<String> {
    let Some(sb) = &manifest.sandbox else {
        return vec!["runs as a program with your own rights: it can read and write your files and use the network".to_owned()];
    };
    let mut out = vec![
        "runs sandboxed: it sees only its own folder, zot's SDKs and the system's programs, plus what is listed here".to_owned(),
    ];
    out.extend(sb.read.iter().map(|p| format!("can read {p}")));
    out.extend(sb.write.iter().map(|p| format!("can read and write {p}")));
    let broad = |p: &String| matches!(p.trim_end_matches('/'), "" | "~" | "/home" | "/root");
    if let Some(p) = sb.read.iter().chain(&sb.write).find(|p| broad(p)) {
        out.push(format!(
            "{p} is broad: everything under it you can read is shown (SSH and cloud keys, browser profiles, mail), except zot's own home, /tmp, /proc, /dev, /sys and your session's sockets"
        ));
    }
    out.push(if sb.net {
        "has network access (its own: not your machine's local services, the session bus or the display)".to_owned()
    } else {
        "has no network access".to_owned()
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_is_said_path_by_path_with_its_network() {
        let mut m: Manifest = serde_json::from_value(serde_json::json!({
            "name": "n", "sandbox": {"read": ["~/notes"], "write": ["/tmp/out"], "net": false}
        }))
        .unwrap();
        let w = sandbox_words(&m);
        assert_eq!(
            &w[1..],
            [
                "can read ~/notes",
                "can read and write /tmp/out",
                "has no network access"
            ]
        );
        let wide: Manifest = serde_json::from_value(serde_json::json!({
            "name": "n", "sandbox": {"read": ["~"], "net": true}
        }))
        .unwrap();
        let w = sandbox_words(&wide);
        assert!(w.iter().any(|l| l.starts_with("~ is broad")), "{w:?}");
        assert!(w.last().is_some_and(|l| l.contains("its own")), "{w:?}");
        m.sandbox = None;
        assert!(sandbox_words(&m)[0].contains("your own rights"));
    }

    #[test]
    fn unrestricted_says_so_and_a_list_is_one_line_each() {
        let w = grant_words(&PermissionGrant::unrestricted());
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("unrestricted"), "{w:?}");
        let w = grant_words(&PermissionGrant::List(vec![
            Permission::Submit,
            Permission::Events,
        ]));
        assert_eq!(
            w,
            vec![
                "can read every tool call and its arguments, and the assistant's replies",
                "can submit prompts to the agent at any time"
            ]
        );
    }

    #[test]
    fn a_theme_runs_no_code_whatever_its_manifest_says() {
        let dir = tempfile::tempdir().unwrap();
        let theme: Manifest = serde_json::from_value(serde_json::json!({
            "name": "dusk", "sandbox": {"read": [], "net": false}
        }))
        .unwrap();
        // No theme file: not a theme (discovery calls it invalid).
        assert_ne!(manifest_words(&theme, dir.path()), [THEME_WORDS]);
        std::fs::write(dir.path().join("theme.json"), "{}").unwrap();
        assert_eq!(manifest_words(&theme, dir.path()), [THEME_WORDS]);
        let mcp: Manifest = serde_json::from_value(
            serde_json::json!({"name": "m", "kind": "mcp", "command": "srv"}),
        )
        .unwrap();
        assert_ne!(manifest_words(&mcp, dir.path()), [THEME_WORDS]);
    }

    #[test]
    fn every_permission_has_its_own_words() {
        let mut seen: Vec<&str> = Permission::ALL.into_iter().map(permission_words).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), Permission::ALL.len());
    }
}

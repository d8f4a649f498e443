//! Whether a manifest reaches further than what the user accepted, and
//! how, in words. Everything that decides what an extension may do is
//! compared: its protocol permissions, its OS sandbox (`read`, `write`,
//! `net`), the program it runs (`exec`, or an MCP entry's `command`), its
//! `args` and `env`, its `kind` and the `url` it connects to. A sandboxed
//! extension can write its own folder, manifest included, so nothing of
//! that may take effect before the user says yes (docs/security.md
//! "Permissions"). Asking for less never needs a yes: a narrower sandbox,
//! an added sandbox, fewer permissions. A changed program, arguments,
//! environment, kind or URL always asks, whichever way it changed: zot
//! cannot tell a harmless change of them from a dangerous one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use zot_ext_protocol::{ExtKind, Manifest, PermissionGrant, Sandbox, Transport, Widening};

use crate::policy::permission_words::permission_words;

/// What a manifest says about where and how its extension runs, besides
/// its permissions: recorded at consent beside them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reach {
    /// `extension` or `mcp`.
    #[serde(default)]
    pub kind: ExtKind,
    /// The program: `exec`, or an MCP entry's `command`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<String>,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The environment the manifest sets (values as written: secrets are
    /// `${config:…}` placeholders there, never values).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// An MCP entry's `url`, or a WebSocket extension's `transport.url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Its OS sandbox; `None` runs it with the user's rights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandbox>,
}

impl Reach {
    /// The reach `m` declares.
    pub fn of(m: &Manifest) -> Reach {
        let ws = match &m.transport {
            Some(Transport::Websocket { url }) => Some(url.clone()),
            _ => None,
        };
        Reach {
            kind: m.kind,
            exec: m.exec.clone().or_else(|| m.command.clone()),
            args: m.args.clone(),
            env: m.env.clone(),
            url: m.url.clone().or(ws),
            sandbox: m.sandbox.clone(),
        }
    }
}

/// Everything `now` asks for beyond `perms` and `reach` (what was
/// accepted), in the order a reader weighs them: the sandbox first, then
/// what runs, then the permissions.
pub fn widenings(perms: &PermissionGrant, reach: &Reach, now: &Manifest) -> Vec<Widening> {
    let new = Reach::of(now);
    let mut out = Vec::new();
    let mut push = |field: &str, words: String| {
        out.push(Widening {
            field: field.to_owned(),
            words,
        })
    };
    match (&reach.sandbox, &new.sandbox) {
        (Some(_), None) => push(
            "sandbox",
            "runs without its OS sandbox: it would run with your own rights, able to read and write your files and use the network".to_owned(),
        ),
        (Some(had), Some(sb)) => {
            for p in sb.read.iter().filter(|p| !covered(p, had.read.iter().chain(&had.write))) {
                push("sandbox.read", format!("can now read {p}"));
            }
            for p in sb.write.iter().filter(|p| !covered(p, had.write.iter())) {
                push("sandbox.write", format!("can now read and write {p}"));
            }
            if sb.net && !had.net {
                push("sandbox.net", "can now use the network".to_owned());
            }
        }
        // Running unsandboxed was accepted; a sandbox only narrows it.
        (None, _) => {}
    }
    if new.kind != reach.kind {
        push(
            "kind",
            format!(
                "is now {} (it was {})",
                kind_words(new.kind),
                kind_words(reach.kind)
            ),
        );
    }
    if new.exec != reach.exec {
        let field = if now.kind == ExtKind::Mcp {
            "command"
        } else {
            "exec"
        };
        push(
            field,
            match (&new.exec, &reach.exec) {
                (Some(n), Some(o)) => format!("runs {n} instead of {o}"),
                (Some(n), None) => format!("runs {n} (it ran no program before)"),
                (None, Some(o)) => format!("no longer runs {o}"),
                (None, None) => String::new(),
            },
        );
    }
    if new.args != reach.args {
        push(
            "args",
            format!(
                "is started with the arguments {} (they were {})",
                args_words(&new.args),
                args_words(&reach.args)
            ),
        );
    }
    for (k, v) in &new.env {
        match reach.env.get(k) {
            None => push("env", format!("sets the environment variable {k} (new)")),
            Some(old) if old != v => push("env", format!("changes the environment variable {k}")),
            Some(_) => {}
        }
    }
    for k in reach.env.keys().filter(|k| !new.env.contains_key(*k)) {
        push(
            "env",
            format!("no longer sets the environment variable {k}"),
        );
    }
    if new.url != reach.url {
        push(
            "url",
            match (&new.url, &reach.url) {
                (Some(n), Some(o)) => format!("connects to {n} instead of {o}"),
                (Some(n), None) => format!("connects to {n}"),
                (None, Some(o)) => format!("no longer connects to {o}"),
                (None, None) => String::new(),
            },
        );
    }
    for p in now.grant().beyond(perms) {
        push("permissions", permission_words(p).to_owned());
    }
    out
}

/// Whether `path` lies at or under one of `granted` (as written in the
/// manifest: absolute, or `~/…`; a `..` is refused when it is loaded).
fn covered<'a>(path: &str, mut granted: impl Iterator<Item = &'a String>) -> bool {
    let p = path.trim_end_matches('/');
    granted.any(|g| {
        let g = g.trim_end_matches('/');
        if g.is_empty() {
            // `/` itself: every absolute path.
            return path.starts_with('/');
        }
        p == g || p.strip_prefix(g).is_some_and(|rest| rest.starts_with('/'))
    })
}

fn kind_words(k: ExtKind) -> &'static str {
    match k {
        ExtKind::Extension => "a zot extension",
        ExtKind::Mcp => "an MCP server",
    }
}

fn args_words(args: &[String]) -> String {
    if args.is_empty() {
        "none".to_owned()
    } else {
        format!("`{}`", args.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use zot_ext_protocol::Permission;

    fn manifest(v: serde_json::Value) -> Manifest {
        serde_json::from_value(v).unwrap()
    }

    fn fields(w: &[Widening]) -> Vec<&str> {
        w.iter().map(|w| w.field.as_str()).collect()
    }

    #[test]
    fn a_removed_sandbox_and_each_wider_grant_are_named() {
        let had = manifest(json!({"name":"x","exec":"./x",
            "sandbox":{"read":["~/notes"],"write":["/tmp/out"],"net":false}}));
        let reach = Reach::of(&had);
        let perms = had.grant();
        assert!(widenings(&perms, &reach, &had).is_empty());
        let gone = manifest(json!({"name":"x","exec":"./x"}));
        let w = widenings(&perms, &reach, &gone);
        assert_eq!(fields(&w), ["sandbox"]);
        assert!(w[0].words.contains("without its OS sandbox"), "{w:?}");
        let wider = manifest(json!({"name":"x","exec":"./x",
            "sandbox":{"read":["~/notes/a","/tmp/out/b","~/"],"write":["/tmp/out/c","/etc"],"net":true}}));
        let w = widenings(&perms, &reach, &wider);
        assert_eq!(fields(&w), ["sandbox.read", "sandbox.write", "sandbox.net"]);
        assert_eq!(w[0].words, "can now read ~/");
        assert_eq!(w[1].words, "can now read and write /etc");
    }

    #[test]
    fn narrowing_never_asks() {
        let had = manifest(
            json!({"name":"x","exec":"./x","permissions":["commands","notes"],
            "sandbox":{"read":["/"],"write":["~/"],"net":true}}),
        );
        let now = manifest(json!({"name":"x","exec":"./x","permissions":["commands"],
            "sandbox":{"read":["/usr/share"],"write":[],"net":false}}));
        assert!(widenings(&had.grant(), &Reach::of(&had), &now).is_empty());
        // An unsandboxed extension that adds a sandbox narrows too.
        let bare = manifest(json!({"name":"x","exec":"./x"}));
        assert!(widenings(&bare.grant(), &Reach::of(&bare), &now).is_empty());
    }

    #[test]
    fn what_runs_and_where_it_connects_are_compared_exactly() {
        let had = manifest(json!({"name":"x","kind":"mcp","command":"npx","args":["a"],
            "env":{"A":"1","B":"2"}}));
        let now = manifest(json!({"name":"x","kind":"mcp","command":"sh","args":[],
            "env":{"A":"9","C":"3"}}));
        let w = widenings(&had.grant(), &Reach::of(&had), &now);
        assert_eq!(fields(&w), ["command", "args", "env", "env", "env"]);
        assert_eq!(w[0].words, "runs sh instead of npx");
        assert!(w[2].words.contains("changes the environment variable A"));
        assert!(w[3].words.contains("C (new)"));
        assert!(w[4]
            .words
            .contains("no longer sets the environment variable B"));
        let ws = |u: &str| manifest(json!({"name":"x","transport":{"type":"websocket","url":u}}));
        let (a, b) = (ws("ws://127.0.0.1:1"), ws("ws://127.0.0.1:2"));
        let w = widenings(&a.grant(), &Reach::of(&a), &b);
        assert_eq!(fields(&w), ["url"]);
        let m = manifest(json!({"name":"x","kind":"mcp","url":"http://127.0.0.1:1"}));
        let w = widenings(&a.grant(), &Reach::of(&a), &m);
        assert_eq!(fields(&w), ["kind", "url"]);
    }

    #[test]
    fn new_permissions_are_in_words() {
        let had = manifest(json!({"name":"x","exec":"./x","permissions":["commands"]}));
        let now = manifest(json!({"name":"x","exec":"./x"}));
        let w = widenings(&had.grant(), &Reach::of(&had), &now);
        assert_eq!(w.len(), Permission::ALL.len() - 1);
        assert!(w.iter().all(|w| w.field == "permissions"));
        assert_eq!(w[0].words, permission_words(Permission::Tools));
    }

    #[test]
    fn coverage_is_by_whole_components() {
        let g = ["/tmp/out".to_owned()];
        assert!(covered("/tmp/out", g.iter()));
        assert!(covered("/tmp/out/x/", g.iter()));
        assert!(!covered("/tmp/outside", g.iter()));
        assert!(covered("/etc", ["/".to_owned()].iter()));
        assert!(!covered("~/x", ["/".to_owned()].iter()));
        assert!(covered("~/x", ["~/".to_owned()].iter()));
    }
}

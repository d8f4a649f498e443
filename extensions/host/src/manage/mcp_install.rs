//! Adding MCP servers (`zot ext add-mcp`, `zot ext import-mcp`, the
//! manager's "Add MCP server"): an entry in the `mcpServers` format other
//! desktop apps use becomes `$ZOT_HOME/extensions/<name>/extension.json`
//! with `kind: "mcp"` (docs/mcp.md). Every entry zot cannot use is
//! reported with its reason; the others are written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::home;
use crate::manifest::MANIFEST_FILE;

/// One server as the user describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpServer {
    /// A stdio server's program.
    pub command: Option<String>,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its extra environment.
    pub env: BTreeMap<String, String>,
    /// A streamable-HTTP server's endpoint.
    pub url: Option<String>,
    /// Headers for every request to `url`.
    pub headers: BTreeMap<String, String>,
    /// Added disabled (`"disabled": true` in the entry).
    pub disabled: bool,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Entries written: (name, directory).
    pub imported: Vec<(String, PathBuf)>,
    /// Entries not written: (the entry's key, why).
    pub skipped: Vec<(String, String)>,
    /// Entries written under another name: (key, name used).
    pub renamed: Vec<(String, String)>,
}

/// A name zot can use for an MCP entry: its commands are
/// `/<name>:<prompt>`, so only letters, digits, `_` and `-`; other
/// characters become `-`, lower-cased.
pub fn entry_name(key: &str) -> Option<String> {
    let mut out = String::new();
    for c in key.trim().chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_owned();
    (!out.is_empty() && out.len() <= 48).then_some(out)
}

/// Reads one `mcpServers` entry.
pub fn parse_entry(v: &Value) -> Result<McpServer, String> {
    let Some(o) = v.as_object() else {
        return Err("the entry is not an object".into());
    };
    let strings = |key: &str| -> Result<BTreeMap<String, String>, String> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(BTreeMap::new()),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    Value::Number(n) => Ok((k.clone(), n.to_string())),
                    Value::Bool(b) => Ok((k.clone(), b.to_string())),
                    _ => Err(format!("{key}.{k} is not a string")),
                })
                .collect(),
            Some(_) => Err(format!("{key} is not an object of strings")),
        }
    };
    let kind = o.get("type").and_then(Value::as_str).unwrap_or_default();
    if kind == "sse" {
        return Err("it uses the SSE transport, which MCP replaced with streamable HTTP and zot does not speak; use the server's streamable-HTTP URL (often …/mcp)".into());
    }
    if !matches!(
        kind,
        "" | "stdio" | "http" | "streamable-http" | "streamableHttp"
    ) {
        return Err(format!(
            "its type '{kind}' is not one zot knows (stdio, http)"
        ));
    }
    let command = o.get("command").and_then(Value::as_str).map(str::to_owned);
    let url = o
        .get("url")
        .or_else(|| o.get("serverUrl"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let args = match o.get("args") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err("args holds something that is not a string".to_owned()),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("args is not a list".into()),
    };
    let server = McpServer {
        command,
        args,
        env: strings("env")?,
        url,
        headers: strings("headers")?,
        disabled: o.get("disabled").and_then(Value::as_bool).unwrap_or(false),
    };
    check(&server)?;
    Ok(server)
}

/// Whether `s` is usable: exactly one of a command and an http(s) URL.
pub fn check(s: &McpServer) -> Result<(), String> {
    match (&s.command, &s.url) {
        (Some(c), None) if c.trim().is_empty() => Err("its command is empty".into()),
        (Some(_), None) => Ok(()),
        (None, Some(u)) if u.starts_with("http://") || u.starts_with("https://") => Ok(()),
        (None, Some(u)) => Err(format!("its url '{u}' is not http:// or https://")),
        (Some(_), Some(_)) => Err("it has both a command and a url; zot needs one".into()),
        (None, None) => Err("it has neither a command (stdio) nor a url (HTTP)".into()),
    }
}

/// The manifest of `s` named `name`.
pub fn manifest(name: &str, s: &McpServer) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(name));
    m.insert("kind".into(), json!("mcp"));
    m.insert(
        "description".into(),
        json!(match (&s.command, &s.url) {
            (_, Some(u)) => format!("MCP server at {u}"),
            (Some(c), _) => format!("MCP server: {c} {}", s.args.join(" "))
                .trim()
                .to_owned(),
            _ => "MCP server".into(),
        }),
    );
    if let Some(c) = &s.command {
        m.insert("command".into(), json!(c));
        if !s.args.is_empty() {
            m.insert("args".into(), json!(s.args));
        }
        if !s.env.is_empty() {
            m.insert("env".into(), json!(s.env));
        }
    }
    if let Some(u) = &s.url {
        m.insert("url".into(), json!(u));
        if !s.headers.is_empty() {
            m.insert("headers".into(), json!(s.headers));
        }
    }
    if s.disabled {
        m.insert("enabled".into(), json!(false));
    }
    Value::Object(m)
}

/// Writes server `s` as the global extension `name`; refuses to replace an
/// existing one unless `force`. Returns its directory.
pub fn add(zot_home: &Path, name: &str, s: &McpServer, force: bool) -> Result<PathBuf, String> {
    crate::manifest::validate_name(name)
        .map_err(|e| format!("'{}' cannot be a name: {}", e.name, e.reason))?;
    if entry_name(name).as_deref() != Some(name) {
        return Err(format!(
            "'{name}' cannot be an MCP entry's name: use lower-case letters, digits, '_' and '-' (its prompts become /{name}:prompt)"
        ));
    }
    check(s)?;
    let dir = home::extensions_dir(zot_home).join(name);
    let file = dir.join(MANIFEST_FILE);
    if file.exists() && !force {
        return Err(format!(
            "an extension named '{name}' is already installed in {}; pass --force to replace it",
            dir.display()
        ));
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Credentials go to the keychain as settings; the manifest keeps
    // placeholders (mcp_secrets.rs).
    let env = crate::settings::mcp_secrets::move_out("env", &s.env);
    let headers = crate::settings::mcp_secrets::move_out("header", &s.headers);
    let public = McpServer {
        env: env.map,
        headers: headers.map,
        ..s.clone()
    };
    let mut m = manifest(name, &public);
    let mut schema = env.schema;
    schema.extend(headers.schema);
    if let (false, Some(obj)) = (schema.is_empty(), m.as_object_mut()) {
        obj.insert("config".into(), Value::Object(schema));
    }
    let text = serde_json::to_string_pretty(&m).unwrap_or_default();
    std::fs::write(&file, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut values = env.values;
    values.extend(headers.values);
    if !values.is_empty() {
        let declared = crate::manifest::load(&file)
            .map_err(|e| format!("cannot read back {}: {e}", file.display()))?
            .config;
        let owner = crate::settings::settings_store::Owner::of(name, &dir);
        crate::settings::settings_store::apply(zot_home, &owner, &declared, &values)
            .map_err(|e| format!("cannot store the secrets of '{name}': {e}"))?;
    }
    Ok(dir)
}

/// Imports every entry of an `mcpServers` file (Claude Desktop, Cursor,
/// …; VS Code's `servers` too).
pub fn import(zot_home: &Path, text: &str, force: bool) -> Result<ImportReport, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
    let servers = v
        .get("mcpServers")
        .or_else(|| v.get("servers"))
        .and_then(Value::as_object)
        .ok_or("it has no \"mcpServers\" object")?;
    let mut report = ImportReport::default();
    for (key, entry) in servers {
        let Some(name) = entry_name(key) else {
            report.skipped.push((
                key.clone(),
                "its name has no letters or digits zot can use".into(),
            ));
            continue;
        };
        let server = match parse_entry(entry) {
            Ok(s) => s,
            Err(why) => {
                report.skipped.push((key.clone(), why));
                continue;
            }
        };
        match add(zot_home, &name, &server, force) {
            Ok(dir) => {
                if &name != key {
                    report.renamed.push((key.clone(), name.clone()));
                }
                report.imported.push((name, dir));
            }
            Err(why) => report.skipped.push((key.clone(), why)),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_usable() {
        assert_eq!(
            entry_name("GitHub Server").as_deref(),
            Some("github-server")
        );
        assert_eq!(entry_name("fs").as_deref(), Some("fs"));
        assert_eq!(entry_name("!!!"), None);
    }

    #[test]
    fn an_import_writes_the_good_and_reports_the_bad() {
        let home = tempfile::TempDir::new().unwrap();
        let text = json!({"mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v"}},
            "Web Thing": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer t"}},
            "old": {"type": "sse", "url": "https://example.com/sse"},
            "empty": {},
            "both": {"command": "a", "url": "http://b"},
            "weird": {"command": "a", "args": [{"x": 1}]}
        }})
        .to_string();
        let r = import(home.path(), &text, false).unwrap();
        let names: Vec<&str> = r.imported.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["fs", "web-thing"]);
        assert_eq!(
            r.renamed,
            vec![("Web Thing".to_owned(), "web-thing".to_owned())]
        );
        let skipped: Vec<&str> = r.skipped.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(skipped, vec!["old", "empty", "both", "weird"]);
        assert!(r.skipped[0].1.contains("SSE"));
        let m: Value = serde_json::from_str(
            &std::fs::read_to_string(home.path().join("extensions/fs/extension.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(m["kind"], "mcp");
        assert_eq!(m["env"]["K"], "v");
        // A second import does not replace without force.
        let again = import(home.path(), &text, false).unwrap();
        assert!(again.imported.is_empty());
        assert!(again.skipped.iter().any(|(_, why)| why.contains("--force")));
    }
}

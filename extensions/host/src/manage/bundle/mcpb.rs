//! MCP bundles (`.mcpb`, the format other desktop apps install: a zip with
//! a `manifest.json`) turned into a zot extension of `kind: "mcp"`
//! (docs/mcp.md "MCP bundles"). The bundle's `server.mcp_config` becomes
//! the entry's `command`, `args` and `env`, with `${__dirname}` replaced by
//! the install folder now and `${user_config.KEY}` by zot's
//! `${config:KEY}` placeholder, filled from the extension's settings each
//! time the server starts. `user_config` becomes those settings (a
//! `sensitive` one is a secret in the keychain, a `required` one is asked
//! for before the first start), its `tools` what the summary lists, and
//! its `compatibility` is checked first: a bundle for another platform or
//! a runtime that is missing or too old is refused, saying which.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Map, Value};

use super::BundleError;

/// The zot manifest (`extension.json` text) for the MCP bundle whose
/// `manifest.json` is `text`, to be installed in `install_dir`.
pub(super) fn convert(origin: &str, text: &[u8], zot_home: &Path) -> Result<String, BundleError> {
    let bad = |reason: String| BundleError::BadManifest {
        origin: origin.to_owned(),
        reason,
    };
    let m: Value = serde_json::from_slice(text)
        .map_err(|e| bad(format!("its manifest.json is not valid JSON: {e}")))?;
    let name = m
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("its manifest.json has no `name`".into()))?;
    crate::manifest::validate_name(name).map_err(|e| {
        bad(format!(
            "its name `{name}` cannot be an extension's name: {e}"
        ))
    })?;
    check_compatibility(origin, &m)?;
    let install_dir = crate::home::extensions_dir(zot_home).join(name);
    let dirname = install_dir.display().to_string();
    let fill = |s: &str| placeholders(s, &dirname);
    let config = m.get("server").and_then(|s| s.get("mcp_config"));
    let command = config
        .and_then(|c| c.get("command"))
        .and_then(Value::as_str)
        .ok_or_else(|| bad("its manifest.json has no `server.mcp_config.command`".into()))?;
    let args: Vec<String> = config
        .and_then(|c| c.get("args"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(fill).collect())
        .unwrap_or_default();
    let env: Map<String, Value> = config
        .and_then(|c| c.get("env"))
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.clone(), Value::String(fill(v.as_str()?)))))
                .collect()
        })
        .unwrap_or_default();
    let mut settings = Map::new();
    if let Some(uc) = m.get("user_config").and_then(Value::as_object) {
        for (key, spec) in uc {
            settings.insert(key.clone(), setting(spec, key));
        }
    }
    let tools: Vec<Value> = m
        .get("tools")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(|t| {
                    // The bundle lists names and descriptions only; the
                    // server's own tools/list gives the real schemas.
                    Some(json!({"name": t.get("name")?.as_str()?,
                        "description": t.get("description").and_then(Value::as_str).unwrap_or(""),
                        "schema": {"type": "object"}}))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    out.insert("kind".into(), "mcp".into());
    out.insert("command".into(), fill(command).into());
    out.insert("args".into(), args.into());
    out.insert("env".into(), Value::Object(env));
    for field in ["version", "description"] {
        if let Some(v) = m.get(field).and_then(Value::as_str) {
            out.insert(field.into(), v.into());
        }
    }
    if !settings.is_empty() {
        out.insert("config".into(), Value::Object(settings));
    }
    if !tools.is_empty() {
        out.insert("contributes".into(), json!({ "tools": tools }));
    }
    serde_json::to_string_pretty(&out).map_err(|e| bad(e.to_string()))
}

/// `${__dirname}` → the install folder; `${user_config.KEY}` →
/// `${config:KEY}` (filled at each start). Other `${…}` are left as written.
fn placeholders(s: &str, dirname: &str) -> String {
    let s = s.replace("${__dirname}", dirname);
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(at) = rest.find("${user_config.") {
        out.push_str(rest.get(..at).unwrap_or_default());
        let tail = rest.get(at + "${user_config.".len()..).unwrap_or_default();
        match tail.find('}') {
            Some(end) => {
                out.push_str("${config:");
                out.push_str(tail.get(..end).unwrap_or_default());
                out.push('}');
                rest = tail.get(end + 1..).unwrap_or_default();
            }
            None => {
                out.push_str(rest.get(at..).unwrap_or_default());
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A `user_config` entry as a zot setting.
fn setting(spec: &Value, key: &str) -> Value {
    let kind = match spec.get("type").and_then(Value::as_str) {
        Some("number") => "number",
        Some("boolean") => "boolean",
        Some("directory" | "file") => "path",
        _ => "string",
    };
    let mut out = Map::new();
    out.insert("type".into(), kind.into());
    let title = spec.get("title").and_then(Value::as_str).unwrap_or(key);
    out.insert("title".into(), title.into());
    let sensitive = spec.get("sensitive").and_then(Value::as_bool) == Some(true);
    for field in ["description", "default", "min", "max"] {
        if let Some(v) = spec.get(field) {
            // A list default (`multiple`) has no zot equivalent, and a
            // secret never has a default in a zot manifest: left out.
            let secret_default = sensitive && field == "default";
            if !v.is_array() && !secret_default {
                out.insert(field.into(), v.clone());
            }
        }
    }
    for flag in ["required", "sensitive"] {
        if spec.get(flag).and_then(Value::as_bool) == Some(true) {
            out.insert(flag.into(), true.into());
        }
    }
    Value::Object(out)
}

/// `compatibility.platforms` must name this OS (Node's words: `darwin`,
/// `win32`, `linux`); each `compatibility.runtimes` entry (`node`,
/// `python`) must be installed in a version the range allows.
fn check_compatibility(origin: &str, m: &Value) -> Result<(), BundleError> {
    let refuse = |reason: String| BundleError::Incompatible {
        origin: origin.to_owned(),
        reason,
    };
    let Some(c) = m.get("compatibility") else {
        return Ok(());
    };
    let here = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    if let Some(list) = c.get("platforms").and_then(Value::as_array) {
        let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
        if !names.is_empty() && !names.contains(&here) {
            return Err(refuse(format!(
                "it is made for {} only, and this is {here}",
                names.join(", ")
            )));
        }
    }
    if let Some(runtimes) = c.get("runtimes").and_then(Value::as_object) {
        for (runtime, range) in runtimes {
            let Some(range) = range.as_str() else {
                continue;
            };
            let program = match runtime.as_str() {
                "node" => "node",
                "python" => "python3",
                _ => continue,
            };
            let found = installed_version(program).ok_or_else(|| {
                refuse(format!(
                    "it needs {runtime} {range}, and `{program}` is not on the PATH; install {runtime} first"
                ))
            })?;
            let req = semver::VersionReq::parse(&range.replace(' ', ", "))
                .or_else(|_| semver::VersionReq::parse(range));
            if let Ok(req) = req {
                if !req.matches(&found) {
                    return Err(refuse(format!(
                        "it needs {runtime} {range}, and `{program}` is {found}; install a version it supports"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// `node --version` (`v22.1.0`) or `python3 --version` (`Python 3.13.1`).
fn installed_version(program: &str) -> Option<semver::Version> {
    let out = Command::new(program).arg("--version").output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let word = text.split_whitespace().find(|w| {
        w.trim_start_matches('v')
            .starts_with(|c: char| c.is_ascii_digit())
    })?;
    let v = word.trim_start_matches('v');
    semver::Version::parse(v).ok().or_else(|| {
        // `3.13` → `3.13.0`.
        semver::Version::parse(&format!("{v}.0")).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirname_and_user_config_become_the_folder_and_config_placeholders() {
        assert_eq!(
            placeholders("${__dirname}/s.js --k=${user_config.key} ${HOME}", "/x"),
            "/x/s.js --k=${config:key} ${HOME}"
        );
        assert_eq!(
            placeholders("${user_config.unclosed", "/x"),
            "${user_config.unclosed"
        );
    }

    #[test]
    fn user_config_maps_to_settings() {
        let s = setting(
            &json!({"type":"directory","title":"Dir","required":true,"sensitive":false,"default":["/a"]}),
            "d",
        );
        assert_eq!(s, json!({"type":"path","title":"Dir","required":true}));
        let s = setting(
            &json!({"type":"string","sensitive":true,"default":"x"}),
            "tok",
        );
        assert_eq!(s, json!({"type":"string","title":"tok","sensitive":true}));
    }

    #[test]
    fn another_platform_is_refused_by_name() {
        let m = json!({"compatibility":{"platforms":["plan9"]}});
        let err = check_compatibility("b.mcpb", &m).unwrap_err().to_string();
        assert!(err.contains("made for plan9 only"), "{err}");
    }
}

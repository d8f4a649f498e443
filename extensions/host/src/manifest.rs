//! Reads and checks `extension.json`. Errors name the file and the field so
//! a user can fix the manifest without reading host code. Unknown fields are
//! tolerated, so newer manifests still load.

use std::path::{Path, PathBuf};

use serde_json::Value;
use zot_ext_protocol::Manifest;

/// The manifest's file name inside an extension directory.
pub const MANIFEST_FILE: &str = "extension.json";

/// A manifest that could not be read, parsed or resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {}{message}", path.display(), field.as_deref().map(|f| format!("field '{f}': ")).unwrap_or_default())]
pub struct ManifestError {
    /// The manifest file (or the directory that lacks one).
    pub path: PathBuf,
    /// The offending field, when one is to blame.
    pub field: Option<String>,
    /// What is wrong and what to do.
    pub message: String,
}

impl ManifestError {
    fn new(path: &Path, field: Option<&str>, message: impl Into<String>) -> Self {
        ManifestError {
            path: path.to_path_buf(),
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }
}

/// Why an extension name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid extension name '{name}': {reason}")]
pub struct NameError {
    /// The refused name.
    pub name: String,
    /// Why.
    pub reason: &'static str,
}

/// Refuses names that could escape `$ZOT_HOME/extensions/` or the log
/// directory, or be mistaken for a flag: empty, containing `/`, `\` or
/// `..`, starting with `.` or `-`, or containing control characters.
pub fn validate_name(name: &str) -> Result<(), NameError> {
    let reason = if name.is_empty() {
        "it is empty"
    } else if name.contains('/') || name.contains('\\') {
        "it contains a path separator"
    } else if name.contains("..") {
        "it contains '..'"
    } else if name.starts_with('.') {
        "it starts with '.'"
    } else if name.starts_with('-') {
        "it starts with '-'"
    } else if name.chars().any(char::is_control) {
        "it contains a control character"
    } else {
        return Ok(());
    };
    Err(NameError {
        name: name.to_owned(),
        reason,
    })
}

/// Reads `path` (an `extension.json`) and checks every known field's type
/// and the name. `exec` is not resolved here: theme-only extensions have none.
pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ManifestError::new(
                path,
                None,
                "missing: every extension directory needs an extension.json",
            )
        } else {
            ManifestError::new(path, None, format!("cannot read: {e}"))
        }
    })?;
    parse(path, &text)
}

/// Parses manifest text; `path` is only used in errors.
pub fn parse(path: &Path, text: &str) -> Result<Manifest, ManifestError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ManifestError::new(path, None, format!("not valid JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| ManifestError::new(path, None, "must be a JSON object"))?;
    match obj.get("name") {
        None => return Err(ManifestError::new(path, Some("name"), "is required")),
        Some(Value::String(name)) => validate_name(name)
            .map_err(|e| ManifestError::new(path, Some("name"), e.to_string()))?,
        Some(_) => return Err(ManifestError::new(path, Some("name"), "must be a string")),
    }
    for field in ["version", "exec", "language", "description"] {
        if let Some(v) = obj.get(field) {
            if !v.is_string() && !v.is_null() {
                return Err(ManifestError::new(path, Some(field), "must be a string"));
            }
        }
    }
    if let Some(Value::String(exec)) = obj.get("exec") {
        if exec.trim().is_empty() {
            return Err(ManifestError::new(path, Some("exec"), "is empty"));
        }
    }
    if let Some(args) = obj.get("args") {
        let ok = args.is_null()
            || args
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string));
        if !ok {
            return Err(ManifestError::new(
                path,
                Some("args"),
                "must be an array of strings",
            ));
        }
    }
    if let Some(enabled) = obj.get("enabled") {
        if !enabled.is_boolean() {
            return Err(ManifestError::new(
                path,
                Some("enabled"),
                "must be true or false",
            ));
        }
    }
    if let Some(restart) = obj.get("restart") {
        if !matches!(restart, Value::Null)
            && !matches!(restart.as_str(), Some("on-failure" | "never"))
        {
            return Err(ManifestError::new(
                path,
                Some("restart"),
                format!("must be \"on-failure\" or \"never\", not {restart}"),
            ));
        }
    }
    let schema = match obj.get("config") {
        None | Some(Value::Null) => None,
        Some(config) => Some(
            crate::settings::settings_schema::check_schema(config).map_err(|e| {
                let field = if e.key.is_empty() {
                    "config".to_owned()
                } else {
                    format!("config.{}", e.key)
                };
                ManifestError::new(path, Some(&field), e.rule)
            })?,
        ),
    };
    if let Some(sandbox) = obj.get("sandbox") {
        check_sandbox(path, sandbox)?;
    }
    if let Some(env) = obj.get("env") {
        check_env(path, env)?;
    }
    if let Some(permissions) = obj.get("permissions") {
        check_permissions(path, permissions)?;
    }
    crate::policy::activation_check::check(obj)
        .map_err(|e| ManifestError::new(path, Some(&e.field), e.message))?;
    // Nulls mean "absent" for the optional fields.
    let mut cleaned = obj.clone();
    cleaned.retain(|_, v| !v.is_null());
    // The schema was checked (and built) above, with better messages than
    // serde would give.
    cleaned.remove("config");
    let mut manifest: Manifest = serde_json::from_value(Value::Object(cleaned))
        .map_err(|e| ManifestError::new(path, None, format!("invalid: {e}")))?;
    manifest.config = schema.unwrap_or_default();
    Ok(manifest)
}

/// Checks the `sandbox` object: only `read`, `write` (arrays of paths)
/// and `net` (a boolean). A path is absolute or starts with `~/` (or is
/// `~`): `~` is the home of the user running zot, expanded when the
/// extension starts. A relative path is refused: relative to what (zot's
/// cwd, the project, the extension's own directory, which it sees anyway)
/// would be a guess, and a guessed grant is a security hole. `..` is
/// refused too, so the path a user reads is the path granted.
fn check_sandbox(path: &Path, sandbox: &Value) -> Result<(), ManifestError> {
    let obj = match sandbox {
        Value::Null => return Ok(()),
        Value::Object(o) => o,
        _ => {
            return Err(ManifestError::new(
                path,
                Some("sandbox"),
                "must be an object like {\"read\":[], \"write\":[], \"net\":false}",
            ))
        }
    };
    for (key, value) in obj {
        match key.as_str() {
            "net" => {
                if !value.is_boolean() {
                    return Err(ManifestError::new(
                        path,
                        Some("sandbox.net"),
                        "must be true or false",
                    ));
                }
            }
            "read" | "write" => {
                let field = format!("sandbox.{key}");
                let list = value.as_array().ok_or_else(|| {
                    ManifestError::new(path, Some(&field), "must be an array of paths")
                })?;
                for (i, item) in list.iter().enumerate() {
                    let field = format!("sandbox.{key}[{i}]");
                    let p = item.as_str().ok_or_else(|| {
                        ManifestError::new(path, Some(&field), "must be a string (a path)")
                    })?;
                    if let Err(why) = check_grant_path(p) {
                        return Err(ManifestError::new(path, Some(&field), why));
                    }
                }
            }
            other => {
                return Err(ManifestError::new(
                    path,
                    Some(&format!("sandbox.{other}")),
                    "is not a sandbox setting; use \"read\", \"write\" or \"net\"",
                ))
            }
        }
    }
    Ok(())
}

/// Checks `env`: an object of string values, for the program zot spawns (a
/// zot extension's `exec`, an MCP stdio server's `command`; remote kinds
/// have no process to give it to). A name the loader reads
/// ([`crate::io::child_env::LOADER_VARS`]: `LD_PRELOAD`, `GCONV_PATH`, …) is
/// refused: it would run code of the manifest's choice in whatever reads
/// it first, and for a sandboxed extension that was bubblewrap itself,
/// outside the sandbox.
fn check_env(path: &Path, env: &Value) -> Result<(), ManifestError> {
    let obj = match env {
        Value::Null => return Ok(()),
        Value::Object(o) => o,
        _ => {
            return Err(ManifestError::new(
                path,
                Some("env"),
                "must be an object of strings like {\"NAME\": \"value\"}",
            ))
        }
    };
    for (name, value) in obj {
        let field = format!("env.{name}");
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            return Err(ManifestError::new(
                path,
                Some(&field),
                "is not a variable name (empty, or holds '=' or NUL)",
            ));
        }
        if crate::io::child_env::loader_var(name) {
            return Err(ManifestError::new(
                path,
                Some(&field),
                format!("{name} makes the dynamic loader load code of the manifest's choice, so no manifest may set it; remove it (an extension that needs a library path sets it for its own children, in its own code)"),
            ));
        }
        match value.as_str() {
            Some(v) if !v.contains('\0') => {}
            _ => {
                return Err(ManifestError::new(
                    path,
                    Some(&field),
                    "must be a string without NUL",
                ))
            }
        }
    }
    Ok(())
}

/// Why a sandbox path is refused, if it is.
fn check_grant_path(p: &str) -> Result<(), String> {
    if p.is_empty() {
        return Err("is empty".into());
    }
    if p.chars().any(char::is_control) {
        return Err("contains a control character".into());
    }
    let rest = if p == "~" {
        ""
    } else if let Some(rest) = p.strip_prefix("~/") {
        rest
    } else if p.starts_with('~') {
        return Err(format!(
            "'{p}': only '~' or '~/…' (your own home) is understood, not another user's"
        ));
    } else if p.starts_with('/') {
        p
    } else {
        return Err(format!(
            "'{p}' is relative; write an absolute path or one starting with '~/' (the extension's own directory is always granted)"
        ));
    };
    if Path::new(rest)
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!("'{p}' contains '..'; write the path it means"));
    }
    if let Some(why) = kernel_fs(Path::new(p)) {
        return Err(format!("'{p}': {why}"));
    }
    Ok(())
}

/// Why `p` (a path as granted, or its canonical form at start) may not be
/// granted: the host's `/proc`, `/dev` and `/sys` show zot's processes and
/// environment, devices and the kernel's knobs. The sandbox has its own
/// `/proc` and `/dev`, and no `/sys`.
pub fn kernel_fs(p: &Path) -> Option<String> {
    ["/proc", "/dev", "/sys"]
        .into_iter()
        .find(|own| p.starts_with(own))
        .map(|own| {
            format!(
                "the host's {own} is never granted: it would show zot's processes and environment, devices or kernel settings (the sandbox has its own /proc and /dev)"
            )
        })
}

/// `permissions` must be a list of the names docs/protocol.md "Permissions"
/// defines; an unknown one is named, with the ones zot knows.
fn check_permissions(path: &Path, value: &Value) -> Result<(), ManifestError> {
    let err = |msg: String| ManifestError::new(path, Some("permissions"), msg);
    let known = || {
        zot_ext_protocol::Permission::ALL
            .map(|p| p.as_str())
            .join(", ")
    };
    let list = match value {
        Value::Null => return Ok(()),
        Value::Array(list) => list,
        other => {
            return Err(err(format!(
                "must be a list of permission names ({}), not {other}; leave it out for an unrestricted extension",
                known()
            )))
        }
    };
    for item in list {
        match item.as_str() {
            Some(name) if zot_ext_protocol::Permission::parse(name).is_some() => {}
            Some(name) => {
                return Err(err(format!(
                    "unknown permission \"{name}\"; the permissions are {}",
                    known()
                )))
            }
            None => {
                return Err(err(format!(
                    "every entry must be a permission name (a string), not {item}"
                )))
            }
        }
    }
    Ok(())
}

/// Resolves `exec` the way the spec says: an absolute path as is, a path
/// with a separator relative to the manifest's directory, a bare name on
/// `PATH`. The result must exist and be executable.
pub fn resolve_exec(manifest_path: &Path, exec: &str) -> Result<PathBuf, ManifestError> {
    let dir = manifest_path.parent().unwrap_or(Path::new("."));
    let err = |msg: String| ManifestError::new(manifest_path, Some("exec"), msg);
    let candidate = Path::new(exec);
    let path = if candidate.is_absolute() {
        candidate.to_path_buf()
    } else if exec.contains('/') || exec.contains(std::path::MAIN_SEPARATOR) {
        dir.join(candidate)
    } else {
        let path_var = std::env::var_os("PATH").unwrap_or_default();
        return std::env::split_paths(&path_var)
            .map(|d| d.join(exec))
            .find(|p| is_executable(p))
            .ok_or_else(|| {
                err(format!(
                    "'{exec}' was not found on PATH; install it or give a path like ./{exec}"
                ))
            });
    };
    match std::fs::metadata(&path) {
        Err(_) => Err(err(format!(
            "'{}' does not exist; build the extension or fix the path",
            path.display()
        ))),
        Ok(m) if !m.is_file() => Err(err(format!("'{}' is not a file", path.display()))),
        Ok(_) if !is_executable(&path) => Err(err(format!(
            "'{}' is not executable; run chmod +x on it",
            path.display()
        ))),
        Ok(_) => Ok(path),
    }
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PathBuf {
        PathBuf::from("/x/extension.json")
    }

    #[test]
    fn names_that_could_escape_a_directory_are_refused() {
        for bad in ["", "a/b", "a\\b", "..", "a..b", ".hidden", "-rf", "a\nb"] {
            assert!(validate_name(bad).is_err(), "{bad:?} was accepted");
        }
        for good in ["todo", "hello-py", "a.b", "Weather_2"] {
            assert!(validate_name(good).is_ok(), "{good:?} was refused");
        }
    }

    #[test]
    fn restart_is_on_failure_never_or_a_named_error() {
        let m = parse(&p(), r#"{"name":"a"}"#).unwrap();
        assert_eq!(m.restart, zot_ext_protocol::RestartMode::OnFailure);
        let m = parse(&p(), r#"{"name":"a","restart":"never"}"#).unwrap();
        assert_eq!(m.restart, zot_ext_protocol::RestartMode::Never);
        for bad in [r#""always""#, "3", "true"] {
            let e = parse(&p(), &format!(r#"{{"name":"a","restart":{bad}}}"#)).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("restart"), "{bad}: {e}");
            assert!(e.to_string().contains("on-failure"), "{e}");
        }
    }

    #[test]
    fn permissions_are_known_names_or_a_named_error() {
        let m = parse(&p(), r#"{"name":"a"}"#).unwrap();
        assert_eq!(m.permissions, None);
        assert!(m.grant().is_unrestricted());
        let m = parse(&p(), r#"{"name":"a","permissions":["tools","notes"]}"#).unwrap();
        assert!(m.grant().allows(zot_ext_protocol::Permission::Tools));
        assert!(!m.grant().allows(zot_ext_protocol::Permission::Submit));
        let e = parse(&p(), r#"{"name":"a","permissions":["tools","fly"]}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("permissions"), "{e}");
        assert!(e.to_string().contains("\"fly\""), "{e}");
        for bad in [r#""tools""#, "[1]", "{}"] {
            let e = parse(&p(), &format!(r#"{{"name":"a","permissions":{bad}}}"#)).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("permissions"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_missing_name_names_the_field() {
        let e = parse(&p(), r#"{"exec":"./x"}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("name"));
        assert!(e.to_string().contains("/x/extension.json"), "{e}");
    }

    #[test]
    fn wrong_types_name_the_field() {
        for (text, field) in [
            (r#"{"name":1}"#, "name"),
            (r#"{"name":"a","exec":3}"#, "exec"),
            (r#"{"name":"a","args":"x"}"#, "args"),
            (r#"{"name":"a","enabled":"no"}"#, "enabled"),
            (r#"{"name":"a","exec":" "}"#, "exec"),
        ] {
            let e = parse(&p(), text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
        }
    }

    #[test]
    fn a_sandbox_is_parsed_with_defaults() {
        let m = parse(
            &p(),
            r#"{"name":"a","sandbox":{"read":["~/notes","/srv/x"]}}"#,
        )
        .unwrap();
        let s = m.sandbox.unwrap();
        assert_eq!(s.read, ["~/notes", "/srv/x"]);
        assert!(s.write.is_empty());
        assert!(!s.net);
        let m = parse(&p(), r#"{"name":"a","sandbox":{}}"#).unwrap();
        assert_eq!(m.sandbox, Some(zot_ext_protocol::Sandbox::default()));
        assert_eq!(parse(&p(), r#"{"name":"a"}"#).unwrap().sandbox, None);
        assert_eq!(
            parse(&p(), r#"{"name":"a","sandbox":null}"#)
                .unwrap()
                .sandbox,
            None
        );
    }

    #[test]
    fn a_malformed_sandbox_names_the_field() {
        for (sandbox, field) in [
            (r#"true"#, "sandbox"),
            (r#"["/x"]"#, "sandbox"),
            (r#"{"net":"yes"}"#, "sandbox.net"),
            (r#"{"read":"/x"}"#, "sandbox.read"),
            (r#"{"write":[3]}"#, "sandbox.write[0]"),
            (r#"{"read":["/ok","notes"]}"#, "sandbox.read[1]"),
            (r#"{"read":["./here"]}"#, "sandbox.read[0]"),
            (r#"{"read":["~bob/x"]}"#, "sandbox.read[0]"),
            (r#"{"write":["/a/../etc"]}"#, "sandbox.write[0]"),
            (r#"{"read":[""]}"#, "sandbox.read[0]"),
            (r#"{"network":true}"#, "sandbox.network"),
            (r#"{"read":["/proc/1/environ"]}"#, "sandbox.read[0]"),
            (r#"{"write":["/dev"]}"#, "sandbox.write[0]"),
            (r#"{"read":["/sys/kernel"]}"#, "sandbox.read[0]"),
        ] {
            let text = format!(r#"{{"name":"a","sandbox":{sandbox}}}"#);
            let e = parse(&p(), &text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
            assert!(e.to_string().contains(&format!("field '{field}'")), "{e}");
        }
    }

    #[test]
    fn loader_variables_in_env_are_refused_naming_the_field() {
        for (env, field) in [
            (r#"{"LD_PRELOAD":"./x.so"}"#, "env.LD_PRELOAD"),
            (r#"{"OK":"1","GCONV_PATH":"."}"#, "env.GCONV_PATH"),
            (r#"{"LD_LIBRARY_PATH":"/x"}"#, "env.LD_LIBRARY_PATH"),
            (r#"{"A":3}"#, "env.A"),
            (r#"{"A=B":"c"}"#, "env.A=B"),
            (r#"["A"]"#, "env"),
        ] {
            let text = format!(r#"{{"name":"a","exec":"./a","env":{env}}}"#);
            let e = parse(&p(), &text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{text}: {e}");
        }
        let m = parse(
            &p(),
            r#"{"name":"a","env":{"API_BASE":"x","PYTHONPATH":"y"}}"#,
        )
        .unwrap();
        assert_eq!(m.env.len(), 2);
    }

    #[test]
    fn unknown_fields_and_nulls_are_tolerated() {
        let m = parse(
            &p(),
            r#"{"name":"a","exec":"./a","settings":{"x":1},"version":null}"#,
        )
        .unwrap();
        assert_eq!(m.name, "a");
        assert!(m.enabled);
        assert_eq!(m.version, None);
    }

    #[test]
    fn a_bad_settings_schema_names_the_setting_and_the_problem() {
        let e = parse(
            &p(),
            r#"{"name":"a","config":{"units":{"type":"enum","title":"Units"}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("config.units"));
        assert!(e.to_string().contains("needs `enum`"), "{e}");
        let e = parse(&p(), r#"{"name":"a","config":[]}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("config"));
        let m = parse(
            &p(),
            r#"{"name":"a","config":{"b":{"type":"boolean","title":"B"},"a":{"type":"string","title":"A"}}}"#,
        )
        .unwrap();
        assert_eq!(m.config.keys().collect::<Vec<_>>(), ["b", "a"]);
    }

    #[test]
    fn invalid_json_is_reported_with_the_path() {
        let e = parse(&p(), "{").unwrap_err();
        assert!(e.message.contains("not valid JSON"), "{e}");
    }
}

#[cfg(test)]
mod activation_tests {
    use super::parse;
    use std::path::PathBuf;
    use zot_ext_protocol::Activation;

    fn p() -> PathBuf {
        PathBuf::from("/x/extension.json")
    }

    fn field_of(text: &str) -> String {
        let e = parse(&p(), text).unwrap_err();
        assert!(e.to_string().contains("/x/extension.json"), "{e}");
        e.field.unwrap_or_default()
    }

    #[test]
    fn eager_is_the_default_and_on_use_parses_with_contributes() {
        let m = parse(&p(), r#"{"name":"a"}"#).unwrap();
        assert_eq!(m.activation, Activation::Eager);
        assert_eq!(m.contributes, None);
        let m = parse(
            &p(),
            r#"{"name":"a","activation":"on_use","idle_stop_after":30,
               "contributes":{"commands":[{"name":"hi","description":"Say hi"}],
                              "tools":[{"name":"t","description":"d","schema":{"type":"object"},"deferred":true}]}}"#,
        )
        .unwrap();
        assert_eq!(m.activation, Activation::OnUse);
        assert_eq!(m.idle_stop_after, Some(30));
        let c = m.contributes.unwrap();
        assert_eq!(c.commands[0].name, "hi");
        assert_eq!(c.commands[0].description.as_deref(), Some("Say hi"));
        assert_eq!(c.tools[0].name, "t");
        assert!(c.tools[0].deferred);
    }

    #[test]
    fn bad_contributes_names_the_field() {
        let cases = [
            (r#""activation":"lazy""#, "activation"),
            (r#""idle_stop_after":0"#, "idle_stop_after"),
            (r#""idle_stop_after":"5""#, "idle_stop_after"),
            (r#""idle_stop_after":-1"#, "idle_stop_after"),
            (r#""idle_stop_after":1.5"#, "idle_stop_after"),
            // Only an on_use extension has an idle state to return to.
            (r#""idle_stop_after":30"#, "idle_stop_after"),
            (r#""contributes":[]"#, "contributes"),
            (r#""contributes":{"tools":{}}"#, "contributes.tools"),
            (
                r#""contributes":{"commands":["hi"]}"#,
                "contributes.commands[0]",
            ),
            (
                r#""contributes":{"commands":[{}]}"#,
                "contributes.commands[0].name",
            ),
            (
                r#""contributes":{"commands":[{"name":"a b"}]}"#,
                "contributes.commands[0].name",
            ),
            (
                r#""contributes":{"commands":[{"name":""}]}"#,
                "contributes.commands[0].name",
            ),
            (
                r#""contributes":{"commands":[{"name":"Hi"},{"name":"hi"}]}"#,
                "contributes.commands[1].name",
            ),
            (
                r#""contributes":{"commands":[{"name":"hi","description":3}]}"#,
                "contributes.commands[0].description",
            ),
            (
                r#""contributes":{"tools":[{"name":"t"}]}"#,
                "contributes.tools[0].schema",
            ),
            (
                r#""contributes":{"tools":[{"name":"t","schema":"object"}]}"#,
                "contributes.tools[0].schema",
            ),
            (
                r#""contributes":{"tools":[{"name":"t","schema":[]}]}"#,
                "contributes.tools[0].schema",
            ),
            (
                r#""contributes":{"tools":[{"name":"t","schema":{}},{"name":"t","schema":{}}]}"#,
                "contributes.tools[1].name",
            ),
            (
                r#""contributes":{"tools":[{"name":"t.x","schema":{}}]}"#,
                "contributes.tools[0].name",
            ),
            (
                r#""contributes":{"tools":[{"name":"t","schema":{},"deferred":"yes"}]}"#,
                "contributes.tools[0].deferred",
            ),
        ];
        for (frag, field) in cases {
            let text = format!(r#"{{"name":"a",{frag}}}"#);
            assert_eq!(field_of(&text), field, "{text}");
        }
    }

    #[test]
    fn on_use_with_events_or_intercept_is_refused_saying_why() {
        for perm in ["events", "intercept"] {
            let text =
                format!(r#"{{"name":"a","activation":"on_use","permissions":["tools","{perm}"]}}"#);
            let e = parse(&p(), &text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("activation"), "{e}");
            let msg = e.to_string();
            assert!(msg.contains(perm) && msg.contains("first use"), "{msg}");
        }
        // Eager with the same grant, and on_use with others, load.
        parse(&p(), r#"{"name":"a","permissions":["events","intercept"]}"#).unwrap();
        parse(
            &p(),
            r#"{"name":"a","activation":"on_use","permissions":["tools","panels"]}"#,
        )
        .unwrap();
    }
}

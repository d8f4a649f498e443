//! Checks a manifest's `activation`, `contributes` and `idle_stop_after`
//! (docs/host.md "Activation on first use") with field-level errors, before
//! serde builds the typed manifest: a declared name a provider would
//! reject, a schema that is not an object or a name listed twice would
//! otherwise surface only when the model sees the tool list.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{Map, Value};

use crate::limits;
use crate::manifest::ManifestError;

/// Checks the activation fields of the manifest object `obj` read from
/// `path`.
pub(crate) fn check(path: &Path, obj: &Map<String, Value>) -> Result<(), ManifestError> {
    let err = |field: &str, msg: String| ManifestError::new(path, Some(field), msg);
    let on_use = match obj.get("activation") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "eager" => false,
        Some(Value::String(s)) if s == "on_use" => true,
        Some(other) => {
            return Err(err(
                "activation",
                format!("must be \"eager\" or \"on_use\", not {other}"),
            ))
        }
    };
    if let Some(v) = obj.get("idle_stop_after") {
        if !v.is_null() && v.as_u64().is_none_or(|n| n == 0) {
            return Err(err(
                "idle_stop_after",
                format!("must be a whole number of seconds above 0, not {v}"),
            ));
        }
    }
    if let Some(c) = obj.get("contributes") {
        check_contributes(path, c)?;
    }
    if on_use {
        if let Some(Value::Array(perms)) = obj.get("permissions") {
            for p in ["events", "intercept"] {
                if perms.iter().any(|v| v.as_str() == Some(p)) {
                    return Err(err(
                        "activation",
                        format!(
                            "\"on_use\" cannot go with the permission \"{p}\": an on_use extension runs only after its first use, so it would miss the {} before that; make it eager (remove \"activation\") or drop \"{p}\"",
                            if p == "events" { "events" } else { "tool calls it is meant to guard" }
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `contributes`: `{commands: [{name, description}], tools: [{name,
/// description, schema, deferred}]}`.
fn check_contributes(path: &Path, value: &Value) -> Result<(), ManifestError> {
    let err = |field: String, msg: String| ManifestError::new(path, Some(&field), msg);
    let obj = match value {
        Value::Null => return Ok(()),
        Value::Object(o) => o,
        other => {
            return Err(err(
                "contributes".into(),
                format!("must be an object with \"commands\" and \"tools\", not {other}"),
            ))
        }
    };
    for kind in ["commands", "tools"] {
        let list = match obj.get(kind) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(err(
                    format!("contributes.{kind}"),
                    format!("must be an array, not {other}"),
                ))
            }
        };
        let max = if kind == "tools" {
            limits::MAX_TOOLS
        } else {
            limits::MAX_COMMANDS
        };
        if list.len() > max {
            return Err(err(
                format!("contributes.{kind}"),
                format!("lists {} entries (at most {max})", list.len()),
            ));
        }
        let mut seen = HashSet::new();
        for (i, item) in list.iter().enumerate() {
            let at = format!("contributes.{kind}[{i}]");
            let entry = item
                .as_object()
                .ok_or_else(|| err(at.clone(), format!("must be an object, not {item}")))?;
            let name = match entry.get("name") {
                Some(Value::String(n)) => n,
                Some(other) => {
                    return Err(err(
                        format!("{at}.name"),
                        format!("must be a string, not {other}"),
                    ))
                }
                None => return Err(err(format!("{at}.name"), "is required".into())),
            };
            if let Some(p) = limits::name_problem(name) {
                return Err(err(format!("{at}.name"), format!("\"{name}\": {p}")));
            }
            // Commands match case-insensitively, tools exactly.
            let key = if kind == "commands" {
                name.to_ascii_lowercase()
            } else {
                name.clone()
            };
            if !seen.insert(key) {
                return Err(err(
                    format!("{at}.name"),
                    format!("\"{name}\" is listed twice in contributes.{kind}"),
                ));
            }
            if let Some(d) = entry.get("description") {
                if !d.is_string() && !d.is_null() {
                    return Err(err(
                        format!("{at}.description"),
                        format!("must be a string, not {d}"),
                    ));
                }
            }
            if kind == "tools" {
                match entry.get("schema") {
                    Some(s @ Value::Object(_)) => {
                        if limits::json_size(s) > limits::MAX_SCHEMA_BYTES {
                            return Err(err(
                                format!("{at}.schema"),
                                format!("is larger than {} bytes", limits::MAX_SCHEMA_BYTES),
                            ));
                        }
                    }
                    Some(other) => {
                        return Err(err(
                            format!("{at}.schema"),
                            format!("must be a JSON Schema object, not {other}"),
                        ))
                    }
                    None => {
                        return Err(err(
                            format!("{at}.schema"),
                            "is required (a JSON Schema object, as in register_tool)".into(),
                        ))
                    }
                }
                if let Some(d) = entry.get("deferred") {
                    if !d.is_boolean() && !d.is_null() {
                        return Err(err(
                            format!("{at}.deferred"),
                            format!("must be true or false, not {d}"),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::manifest::parse;
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
            (r#""contributes":[]"#, "contributes"),
            (r#""contributes":{"tools":{}}"#, "contributes.tools"),
            (r#""contributes":{"commands":["hi"]}"#, "contributes.commands[0]"),
            (r#""contributes":{"commands":[{}]}"#, "contributes.commands[0].name"),
            (r#""contributes":{"commands":[{"name":"a b"}]}"#, "contributes.commands[0].name"),
            (r#""contributes":{"commands":[{"name":""}]}"#, "contributes.commands[0].name"),
            (r#""contributes":{"commands":[{"name":"Hi"},{"name":"hi"}]}"#, "contributes.commands[1].name"),
            (r#""contributes":{"commands":[{"name":"hi","description":3}]}"#, "contributes.commands[0].description"),
            (r#""contributes":{"tools":[{"name":"t"}]}"#, "contributes.tools[0].schema"),
            (r#""contributes":{"tools":[{"name":"t","schema":"object"}]}"#, "contributes.tools[0].schema"),
            (r#""contributes":{"tools":[{"name":"t","schema":[]}]}"#, "contributes.tools[0].schema"),
            (r#""contributes":{"tools":[{"name":"t","schema":{}},{"name":"t","schema":{}}]}"#, "contributes.tools[1].name"),
            (r#""contributes":{"tools":[{"name":"t.x","schema":{}}]}"#, "contributes.tools[0].name"),
            (r#""contributes":{"tools":[{"name":"t","schema":{},"deferred":"yes"}]}"#, "contributes.tools[0].deferred"),
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

//! Checks a manifest's `activation`, `contributes` and `idle_stop_after`
//! (docs/host.md "Activation on first use") with field-level errors, before
//! serde builds the typed manifest: a declared name a provider would
//! reject, a schema that is not an object or a name listed twice would
//! otherwise surface only when the model sees the tool list.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::io::limits;

/// A refused field (`contributes.tools[0].schema`) and why.
pub(crate) struct FieldError {
    pub field: String,
    pub message: String,
}

/// Checks the activation fields of the manifest object `obj`.
pub(crate) fn check(obj: &Map<String, Value>) -> Result<(), FieldError> {
    let err = |field: &str, message: String| FieldError {
        field: field.to_owned(),
        message,
    };
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
        if !v.is_null() && !on_use {
            return Err(err(
                "idle_stop_after",
                "applies only with \"activation\": \"on_use\": an eager extension has no idle state to return to; add \"activation\": \"on_use\" with its contributes, or remove idle_stop_after".into(),
            ));
        }
    }
    if let Some(v) = obj.get("tool_timeout_s") {
        let max = limits::TOOL_TIMEOUT_S_MAX;
        if !v.is_null() && v.as_u64().is_none_or(|n| n == 0 || n > max) {
            return Err(err(
                "tool_timeout_s",
                format!("must be a whole number of seconds from 1 to {max} (the absolute cap on one tool call; 600 when absent), not {v}"),
            ));
        }
    }
    if let Some(c) = obj.get("contributes") {
        check_contributes(c)?;
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
fn check_contributes(value: &Value) -> Result<(), FieldError> {
    let err = |field: String, message: String| FieldError { field, message };
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
mod tool_timeout_tests {
    use super::*;
    use serde_json::json;

    fn checked(v: Value) -> Result<(), String> {
        let obj = json!({"name": "x", "tool_timeout_s": v});
        check(obj.as_object().unwrap()).map_err(|e| format!("{}: {}", e.field, e.message))
    }

    #[test]
    fn tool_timeout_s_takes_whole_seconds_from_1_to_3600() {
        assert!(checked(json!(1)).is_ok());
        assert!(checked(json!(3600)).is_ok());
        assert!(checked(Value::Null).is_ok());
        for bad in [json!(0), json!(3601), json!(-5), json!(2.5), json!("600")] {
            let e = checked(bad.clone()).unwrap_err();
            assert!(
                e.starts_with("tool_timeout_s: must be a whole number of seconds from 1 to 3600"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn the_cap_defaults_to_600_seconds() {
        assert_eq!(limits::tool_timeout_s(None), 600);
    }
}

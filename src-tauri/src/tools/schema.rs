//! A deliberately small JSON Schema check: the args must be an object, every
//! `required` key present, and each known property of the declared primitive
//! type. Enough to turn a model's malformed call into a clear tool error;
//! extensions validate their own args further.

use serde_json::Value;

/// Checks `args` against `schema`; the error says what is wrong.
pub fn check(schema: &Value, args: &Value) -> Result<(), String> {
    let Some(obj) = args.as_object() else {
        return Err(format!("expected a JSON object, got {}", describe(args)));
    };
    if let Some(req) = schema.get("required").and_then(Value::as_array) {
        for k in req.iter().filter_map(Value::as_str) {
            if !obj.contains_key(k) {
                return Err(format!("missing required field {k:?}"));
            }
        }
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, v) in obj {
            let Some(ty) = props
                .get(k)
                .and_then(|p| p.get("type"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            let ok = match ty {
                "string" => v.is_string(),
                "integer" => v.is_i64() || v.is_u64(),
                "number" => v.is_number(),
                "boolean" => v.is_boolean(),
                "object" => v.is_object(),
                "array" => v.is_array(),
                _ => true,
            };
            if !ok && !v.is_null() {
                // The property's description often states the allowed range.
                let about = props
                    .get(k)
                    .and_then(|p| p.get("description"))
                    .and_then(Value::as_str)
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default();
                return Err(format!(
                    "field {k:?} must be {ty}{about}, got {}",
                    describe(v)
                ));
            }
        }
    }
    Ok(())
}

pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(_) => "a number".into(),
        Value::String(s) => format!("the text {:?}", s.chars().take(60).collect::<String>()),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]})
    }

    #[test]
    fn a_string_instead_of_an_object_is_refused() {
        let e = check(&schema(), &json!("{not json")).unwrap_err();
        assert!(e.contains("expected a JSON object"), "{e}");
    }

    #[test]
    fn a_missing_required_field_is_named() {
        let e = check(&schema(), &json!({})).unwrap_err();
        assert!(e.contains("\"path\""), "{e}");
    }

    #[test]
    fn a_wrongly_typed_field_is_named() {
        let e = check(&schema(), &json!({"path":"a","limit":"ten"})).unwrap_err();
        assert!(e.contains("\"limit\" must be integer"), "{e}");
        assert!(check(&schema(), &json!({"path":"a","limit":10})).is_ok());
    }
}

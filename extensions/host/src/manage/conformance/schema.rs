//! Tool schemas for the conformance kit: is it a usable JSON Schema object,
//! arguments that satisfy it, and arguments that violate it.

use serde_json::{json, Map, Value};

/// Why `schema` is not a JSON Schema object a model can fill in.
pub(crate) fn problem(schema: &Value) -> Option<String> {
    let Some(obj) = schema.as_object() else {
        return Some("the schema is not a JSON object".into());
    };
    if obj.get("type").and_then(Value::as_str) != Some("object") {
        return Some(r#"the schema's "type" must be "object""#.into());
    }
    let props = match obj.get("properties") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(_) => return Some(r#""properties" must be an object"#.into()),
    };
    if let Some(props) = props {
        for (name, p) in props {
            if !p.is_object() {
                return Some(format!("property `{name}` must be a schema object"));
            }
        }
    }
    match obj.get("required") {
        None => None,
        Some(Value::Array(req)) => req.iter().find_map(|r| match r.as_str() {
            None => Some(r#""required" must list property names"#.to_string()),
            Some(n) if !props.is_some_and(|p| p.contains_key(n)) => {
                Some(format!("required property `{n}` is not in \"properties\""))
            }
            Some(_) => None,
        }),
        Some(_) => Some(r#""required" must be an array"#.into()),
    }
}

/// Arguments that satisfy `schema`: every required property (and the
/// optional ones with a type) with a plausible value: the first of its
/// `enum`, else its `default`, else the first of its `examples`, else one
/// made from its type.
pub(crate) fn valid_args(schema: &Value) -> Value {
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            out.insert(name.clone(), sample(p));
        }
    }
    Value::Object(out)
}

fn sample(p: &Value) -> Value {
    if let Some(first) = p
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(v) = p.get("default").or_else(|| {
        p.get("examples")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
    }) {
        return v.clone();
    }
    match p.get("type").and_then(Value::as_str) {
        Some("string") => json!("test"),
        Some("integer") => json!(p.get("minimum").and_then(Value::as_i64).unwrap_or(1)),
        Some("number") => json!(p.get("minimum").and_then(Value::as_f64).unwrap_or(1.0)),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => valid_args(p),
        _ => json!("test"),
    }
}

/// Arguments that break `schema`, when it constrains anything: a required
/// property left out, or a typed property given the wrong type.
pub(crate) fn invalid_args(schema: &Value) -> Option<(Value, String)> {
    let mut args = valid_args(schema);
    if let Some(first) = schema
        .get("required")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_str)
    {
        if let Some(obj) = args.as_object_mut() {
            obj.remove(first);
        }
        return Some((args, format!("required `{first}` left out")));
    }
    let props = schema.get("properties").and_then(Value::as_object)?;
    let (name, wrong) = props.iter().find_map(|(n, p)| {
        let wrong = match p.get("type").and_then(Value::as_str)? {
            "string" => json!(12345),
            _ => json!("not the declared type"),
        };
        Some((n.clone(), wrong))
    })?;
    if let Some(obj) = args.as_object_mut() {
        obj.insert(name.clone(), wrong);
    }
    Some((args, format!("`{name}` given the wrong type")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_are_judged_and_arguments_generated() {
        let s = json!({"type":"object","properties":{"city":{"type":"string"},"n":{"type":"integer","minimum":2}},"required":["city"]});
        assert_eq!(problem(&s), None);
        assert_eq!(valid_args(&s), json!({"city":"test","n":2}));
        assert_eq!(invalid_args(&s).unwrap().0, json!({"n":2}));
        assert!(problem(&json!({"type":"string"})).is_some());
        assert!(problem(&json!({"type":"object","required":["x"]})).is_some());
        assert_eq!(invalid_args(&json!({"type":"object"})), None);
        let s = json!({"type":"object","properties":{"city":{"type":"string","examples":["Oslo"]},"units":{"type":"string","default":"metric","examples":["imperial"]}}});
        assert_eq!(valid_args(&s), json!({"city":"Oslo","units":"metric"}));
    }
}

//! The rules of extension settings, without I/O: whether a manifest's
//! `config` is a usable schema, whether a value fits its setting, how a
//! typed command-line word becomes a value, and how a secret is masked.
//! Every refusal names the setting and the rule, so the manifest's author
//! or the user knows what to change.

use serde_json::{Map, Value};
use zot_ext_protocol::{SettingSpec, SettingType, SettingsSchema, SECRET_MASK};

/// A schema or a value that was refused: which setting, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("setting '{key}': {rule}")]
pub struct SettingError {
    /// The setting's name.
    pub key: String,
    /// The rule it broke, in words.
    pub rule: String,
}

impl SettingError {
    fn new(key: &str, rule: impl Into<String>) -> Self {
        SettingError {
            key: key.to_owned(),
            rule: rule.into(),
        }
    }
}

const FIELDS: [&str; 10] = [
    "type",
    "title",
    "description",
    "default",
    "required",
    "sensitive",
    "enum",
    "min",
    "max",
    "must_exist",
];

/// Checks the manifest's raw `config` value and turns it into a schema.
pub fn check_schema(config: &Value) -> Result<SettingsSchema, SettingError> {
    let obj = config.as_object().ok_or_else(|| {
        SettingError::new("", "`config` must be an object of settings keyed by name")
    })?;
    let mut schema = SettingsSchema::new();
    for (key, entry) in obj {
        check_key(key)?;
        schema.insert(key.clone(), check_entry(key, entry)?);
    }
    Ok(schema)
}

/// Setting names end up in file keys, keychain accounts and CLI words.
fn check_key(key: &str) -> Result<(), SettingError> {
    let ok = !key.is_empty()
        && key.len() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(SettingError::new(
            key,
            "a setting name must be 1 to 64 of A-Z, a-z, 0-9, '_', '-', '.'",
        ))
    }
}

fn check_entry(key: &str, entry: &Value) -> Result<SettingSpec, SettingError> {
    let err = |rule: String| SettingError::new(key, rule);
    let obj = entry
        .as_object()
        .ok_or_else(|| err("must be an object with at least `type` and `title`".into()))?;
    let kind = match obj.get("type").and_then(Value::as_str) {
        Some("string") => SettingType::String,
        Some("number") => SettingType::Number,
        Some("boolean") => SettingType::Boolean,
        Some("enum") => SettingType::Enum,
        Some("path") => SettingType::Path,
        other => {
            return Err(err(format!(
                "`type` must be one of string, number, boolean, enum, path (got {})",
                other.map_or_else(|| show(obj.get("type")), |s| format!("\"{s}\""))
            )))
        }
    };
    let title = match obj.get("title") {
        Some(Value::String(t)) if !t.trim().is_empty() => t.clone(),
        _ => return Err(err("`title` is required: the label the form shows".into())),
    };
    let description = match obj.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return Err(err("`description` must be a string".into())),
    };
    let flag = |name: &str| -> Result<bool, SettingError> {
        match obj.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(err(format!("`{name}` must be true or false"))),
        }
    };
    let required = flag("required")?;
    let sensitive = flag("sensitive")?;
    let must_exist = flag("must_exist")?;
    let choices = match obj.get("enum") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out: Vec<String> = Vec::new();
            for v in a {
                let Some(s) = v.as_str() else {
                    return Err(err("`enum` must be a list of strings".into()));
                };
                if out.iter().any(|o| o == s) {
                    return Err(err(format!("`enum` lists \"{s}\" twice")));
                }
                out.push(s.to_owned());
            }
            out
        }
        Some(_) => return Err(err("`enum` must be a list of strings".into())),
    };
    let number = |name: &str| -> Result<Option<f64>, SettingError> {
        match obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| err(format!("`{name}` must be a number"))),
        }
    };
    let (min, max) = (number("min")?, number("max")?);
    if kind == SettingType::Enum && choices.is_empty() {
        return Err(err(
            "type enum needs `enum`: a non-empty list of the allowed values".into(),
        ));
    }
    if kind != SettingType::Enum && !choices.is_empty() {
        return Err(err(format!(
            "`enum` only applies to type enum, not {}",
            kind.as_str()
        )));
    }
    if kind != SettingType::Number && (min.is_some() || max.is_some()) {
        return Err(err(format!(
            "`min` and `max` only apply to type number, not {}",
            kind.as_str()
        )));
    }
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo > hi {
            return Err(err(format!("`min` ({lo}) is greater than `max` ({hi})")));
        }
    }
    if must_exist && kind != SettingType::Path {
        return Err(err("`must_exist` only applies to type path".into()));
    }
    if sensitive && !matches!(kind, SettingType::String | SettingType::Path) {
        return Err(err(format!(
            "`sensitive` only applies to type string (or path), not {}",
            kind.as_str()
        )));
    }
    let default = match obj.get("default") {
        None | Some(Value::Null) => None,
        Some(_) if sensitive => return Err(err(
            "a sensitive setting cannot have a `default`: a manifest is not a place for secrets"
                .into(),
        )),
        Some(v) => Some(v.clone()),
    };
    if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        // Tolerated like unknown manifest fields, but a typo here ("requried")
        // silently changes meaning, so the author hears about it.
        return Err(err(format!(
            "unknown field `{unknown}`; the fields are {}",
            FIELDS.join(", ")
        )));
    }
    let spec = SettingSpec {
        kind,
        title,
        description,
        default,
        required,
        sensitive,
        choices,
        min,
        max,
        must_exist,
    };
    if let Some(d) = &spec.default {
        // A default is not checked against the disk: the folder may only
        // exist on the user's machine.
        check_shape(key, &spec, d).map_err(|e| err(format!("`default` {}", e.rule)))?;
    }
    Ok(spec)
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

/// Checks a value for setting `key` (type, range, enum, and for a
/// `must_exist` path that it exists). The error names the key and the rule.
pub fn check_value(key: &str, spec: &SettingSpec, value: &Value) -> Result<(), SettingError> {
    check_shape(key, spec, value)?;
    if spec.kind == SettingType::Path && spec.must_exist {
        let p = value.as_str().unwrap_or_default();
        if !std::path::Path::new(p).exists() {
            return Err(SettingError::new(
                key,
                format!("path \"{p}\" does not exist, and this setting must name an existing path"),
            ));
        }
    }
    Ok(())
}

fn check_shape(key: &str, spec: &SettingSpec, value: &Value) -> Result<(), SettingError> {
    let err = |rule: String| Err(SettingError::new(key, rule));
    match spec.kind {
        SettingType::String | SettingType::Path => match value {
            Value::String(s) if s.chars().any(char::is_control) => {
                err("must not contain control characters (a newline, a tab, …)".into())
            }
            Value::String(_) => Ok(()),
            other => err(format!("must be text, not {}", kind_of(other))),
        },
        SettingType::Boolean => match value {
            Value::Bool(_) => Ok(()),
            other => err(format!("must be true or false, not {}", kind_of(other))),
        },
        SettingType::Enum => match value.as_str() {
            Some(s) if spec.choices.iter().any(|c| c == s) => Ok(()),
            _ => err(format!(
                "must be one of {}, not {value}",
                spec.choices
                    .iter()
                    .map(|c| format!("\"{c}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        },
        SettingType::Number => {
            let Some(n) = value.as_f64() else {
                return err(format!("must be a number, not {}", kind_of(value)));
            };
            if let Some(lo) = spec.min.filter(|lo| n < *lo) {
                return err(format!("must be at least {lo}, not {n}"));
            }
            if let Some(hi) = spec.max.filter(|hi| n > *hi) {
                return err(format!("must be at most {hi}, not {n}"));
            }
            Ok(())
        }
    }
}

/// A JSON kind in words, for "must be a number, not text".
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Turns a word typed on the command line into a value of the setting's
/// type ("12" → 12, "true" → true); the value is then checked as usual.
pub fn parse_word(key: &str, spec: &SettingSpec, word: &str) -> Result<Value, SettingError> {
    match spec.kind {
        SettingType::Number => {
            let n: f64 = word
                .trim()
                .parse()
                .map_err(|_| SettingError::new(key, format!("must be a number, not \"{word}\"")))?;
            serde_json::Number::from_f64(n)
                .map(|n| {
                    // Whole numbers stay integers so `12` reads back as 12.
                    match word.trim().parse::<i64>() {
                        Ok(i) => Value::from(i),
                        Err(_) => Value::Number(n),
                    }
                })
                .ok_or_else(|| SettingError::new(key, "must be a finite number"))
        }
        SettingType::Boolean => match word.trim() {
            "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(SettingError::new(
                key,
                format!("must be true or false, not \"{word}\""),
            )),
        },
        _ => Ok(Value::String(word.to_owned())),
    }
}

/// How a secret is shown: the mask plus at most its last 4 characters,
/// and only the mask when the secret is short enough that 4 characters
/// would give away too much of it.
pub fn mask(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 12 {
        return SECRET_MASK.to_owned();
    }
    let tail: String = chars.iter().skip(chars.len() - 4).collect();
    format!("{SECRET_MASK}{tail}")
}

/// Whether a value sent back by a form is a mask (the secret unchanged).
pub fn is_mask(value: &Value) -> bool {
    value.as_str().is_some_and(|s| s.starts_with(SECRET_MASK))
}

/// The values with every sensitive one masked, for anything a front end sees.
pub fn masked(schema: &SettingsSchema, values: &Map<String, Value>) -> Map<String, Value> {
    values
        .iter()
        .map(|(k, v)| {
            let secret = schema.get(k).is_some_and(|s| s.sensitive);
            let shown = match (secret, v.as_str()) {
                (true, Some(s)) => Value::String(mask(s)),
                _ => v.clone(),
            };
            (k.clone(), shown)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(entry: Value) -> Result<SettingSpec, SettingError> {
        check_schema(&json!({ "k": entry })).map(|s| s["k"].clone())
    }

    #[test]
    fn every_type_is_accepted_with_its_fields() {
        let s = check_schema(&json!({
            "units": {"type":"enum","title":"Units","enum":["metric","imperial"],"default":"metric"},
            "days": {"type":"number","title":"Days","min":1,"max":7,"default":3},
            "verbose": {"type":"boolean","title":"Verbose"},
            "token": {"type":"string","title":"Token","sensitive":true,"required":true},
            "dir": {"type":"path","title":"Folder","must_exist":true}
        }))
        .unwrap();
        assert_eq!(
            s.keys().collect::<Vec<_>>(),
            ["units", "days", "verbose", "token", "dir"]
        );
        assert!(s["token"].sensitive && s["token"].required);
    }

    #[test]
    fn a_bad_schema_names_the_key_and_the_problem() {
        for (entry, words) in [
            (json!({"title":"x"}), "`type` must be one of"),
            (json!({"type":"color","title":"x"}), "\"color\""),
            (json!({"type":"string"}), "`title` is required"),
            (json!({"type":"enum","title":"x"}), "needs `enum`"),
            (
                json!({"type":"string","title":"x","enum":["a"]}),
                "only applies to type enum",
            ),
            (
                json!({"type":"number","title":"x","min":5,"max":1}),
                "greater than",
            ),
            (
                json!({"type":"boolean","title":"x","min":1}),
                "only apply to type number",
            ),
            (
                json!({"type":"number","title":"x","default":"3"}),
                "`default` must be a number",
            ),
            (
                json!({"type":"enum","title":"x","enum":["a"],"default":"b"}),
                "`default` must be one of",
            ),
            (
                json!({"type":"string","title":"x","sensitive":true,"default":"s"}),
                "cannot have a `default`",
            ),
            (
                json!({"type":"string","title":"x","requried":true}),
                "unknown field `requried`",
            ),
            (
                json!({"type":"string","title":"x","required":"yes"}),
                "`required` must be true or false",
            ),
            (json!("string"), "must be an object"),
        ] {
            let e = one(entry.clone()).unwrap_err();
            assert_eq!(e.key, "k", "{entry}");
            assert!(e.rule.contains(words), "{entry}: {e}");
        }
        let e = check_schema(&json!({"bad key": {"type":"string","title":"x"}})).unwrap_err();
        assert_eq!(e.key, "bad key");
        assert!(check_schema(&json!([1])).is_err());
    }

    #[test]
    fn values_are_refused_with_the_key_and_the_rule() {
        let s = check_schema(&json!({
            "days": {"type":"number","title":"Days","min":1,"max":7},
            "units": {"type":"enum","title":"Units","enum":["metric","imperial"]},
            "on": {"type":"boolean","title":"On"},
            "dir": {"type":"path","title":"Dir","must_exist":true},
            "name": {"type":"string","title":"Name"}
        }))
        .unwrap();
        for (key, v, words) in [
            ("days", json!("3"), "must be a number"),
            ("days", json!(0), "at least 1"),
            ("days", json!(8), "at most 7"),
            (
                "units",
                json!("kelvin"),
                "must be one of \"metric\", \"imperial\"",
            ),
            ("on", json!("true"), "true or false"),
            ("dir", json!("/no/such/zot/dir"), "does not exist"),
            ("name", json!(5), "must be text"),
            ("name", json!("a\nb"), "control characters"),
        ] {
            let e = check_value(key, &s[key], &v).unwrap_err();
            assert_eq!(e.key, key);
            assert!(e.rule.contains(words), "{key}={v}: {e}");
        }
        check_value("days", &s["days"], &json!(7)).unwrap();
        check_value("dir", &s["dir"], &json!("/")).unwrap();
    }

    #[test]
    fn command_line_words_become_typed_values() {
        let s = check_schema(&json!({
            "n": {"type":"number","title":"N"},
            "b": {"type":"boolean","title":"B"}
        }))
        .unwrap();
        assert_eq!(parse_word("n", &s["n"], "12").unwrap(), json!(12));
        assert_eq!(parse_word("n", &s["n"], "1.5").unwrap(), json!(1.5));
        assert_eq!(parse_word("b", &s["b"], "yes").unwrap(), json!(true));
        assert!(parse_word("n", &s["n"], "twelve").is_err());
        assert!(parse_word("b", &s["b"], "maybe").is_err());
    }

    #[test]
    fn a_mask_shows_at_most_the_last_four_characters() {
        assert_eq!(mask("sk-live-0123456789abcd"), "••••abcd");
        assert_eq!(mask("short"), "••••");
        assert_eq!(mask(""), "••••");
        assert!(is_mask(&json!("••••abcd")));
        assert!(!is_mask(&json!("abcd")));
    }
}

//! What a valid dialog is: the checks of a `ui_request` (its kind, its
//! options, its form schema against the MCP elicitation subset, its
//! default) and of an answer (a form's value against its schema). One set
//! of rules for every path: the host refuses a bad request with them, and
//! checks every answer with them whether it comes from the window or an
//! RPC client. The window checks as the user types with a TypeScript port
//! (ui/src/lib/dialogs/rules.ts); both run the vectors of
//! `dialog_rules_vectors.json`, so the two cannot drift apart.
//!
//! The subset (docs/protocol.md "Dialogs"): a flat object whose properties
//! are `string` (`minLength`, `maxLength`, `format` email/uri/date/
//! date-time, or a single choice as `enum`, `enum`+`enumNames`, or `oneOf`
//! of `{const, title}`), `number`/`integer` (`minimum`, `maximum`),
//! `boolean`, or `array` of such choices (`items` with `enum` or `anyOf`,
//! `minItems`, `maxItems`); each with `title`/`description`/`default`;
//! plus `required`. Other annotation keys are ignored, as MCP clients do;
//! nesting and `$ref` are refused.

use serde_json::{Map, Value};
use zot_ext_protocol::{DialogKind, UiRequest};

/// The most choices a `select` (or a schema's choice) may offer, so a
/// request cannot make the window build an unbounded list.
pub const MAX_OPTIONS: usize = 1000;
/// The most fields a form may have.
pub const MAX_FIELDS: usize = 100;

/// A value or schema that does not fit, with where: `field` is the form
/// field (or the request's field, e.g. `options`), `reason` says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The field at fault.
    pub field: String,
    /// Why, in words.
    pub reason: String,
}

impl Problem {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Problem {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// Checks a request from an extension; `Ok` gives its kind.
pub fn check_request(req: &UiRequest) -> Result<DialogKind, Problem> {
    check_request_from(req, false)
}

/// Like [`check_request`]; `mcp` allows the `url` kind, which zot makes
/// for an MCP server's URL-mode elicitation (an `http(s)` address only).
pub fn check_request_from(req: &UiRequest, mcp: bool) -> Result<DialogKind, Problem> {
    if mcp && req.kind == "url" {
        let url = req.url.as_deref().unwrap_or_default();
        if !(url.starts_with("https://") || url.starts_with("http://")) || !is_uri(url) {
            return Err(Problem::new("url", "must be an http or https address"));
        }
        if req.title.trim().is_empty() {
            return Err(Problem::new("title", "is empty; say what is asked"));
        }
        return Ok(DialogKind::Url);
    }
    let kind = DialogKind::parse_ext(&req.kind).ok_or_else(|| {
        Problem::new(
            "kind",
            format!("{:?} is not one of confirm, select, input, form", req.kind),
        )
    })?;
    if req.title.trim().is_empty() {
        return Err(Problem::new("title", "is empty; say what is asked"));
    }
    match kind {
        DialogKind::Confirm => {
            if let Some(d) = req.default.as_ref().filter(|d| !d.is_boolean()) {
                return Err(Problem::new(
                    "default",
                    format!(
                        "a confirm's default must be true or false, not {}",
                        kind_of(d)
                    ),
                ));
            }
        }
        DialogKind::Select => {
            let options = req.options.as_deref().unwrap_or_default();
            if options.is_empty() {
                return Err(Problem::new(
                    "options",
                    "is empty; a select needs at least one",
                ));
            }
            if options.len() > MAX_OPTIONS {
                return Err(Problem::new(
                    "options",
                    format!("has {} entries (at most {MAX_OPTIONS})", options.len()),
                ));
            }
            if let Some(d) = &req.default {
                if !d.as_str().is_some_and(|s| options.iter().any(|o| o == s)) {
                    return Err(Problem::new("default", "is not one of the options"));
                }
            }
        }
        DialogKind::Input => {
            if let Some(d) = req.default.as_ref().filter(|d| !d.is_string()) {
                return Err(Problem::new(
                    "default",
                    format!("an input's default must be a string, not {}", kind_of(d)),
                ));
            }
        }
        DialogKind::Form => {
            let schema = req
                .schema
                .as_ref()
                .ok_or_else(|| Problem::new("schema", "is missing; a form needs one"))?;
            check_schema(schema)?;
            if let Some(d) = &req.default {
                check_partial(schema, d)
                    .map_err(|p| Problem::new(format!("default.{}", p.field), p.reason))?;
            }
        }
        DialogKind::Url => {
            return Err(Problem::new("kind", "\"url\" is for MCP servers only"));
        }
    }
    Ok(kind)
}

/// Checks that `schema` is in the elicitation subset; the problem names
/// `schema` or `schema.properties.NAME`.
pub fn check_schema(schema: &Value) -> Result<(), Problem> {
    let obj = schema.as_object().ok_or_else(|| {
        Problem::new(
            "schema",
            format!("must be an object, not {}", kind_of(schema)),
        )
    })?;
    if obj.get("type").and_then(Value::as_str) != Some("object") {
        return Err(Problem::new("schema", "its \"type\" must be \"object\""));
    }
    if obj.contains_key("$ref") || obj.contains_key("$defs") {
        return Err(Problem::new(
            "schema",
            "uses $ref, which the subset does not allow",
        ));
    }
    let props = match obj.get("properties") {
        Some(Value::Object(p)) => p,
        Some(other) => {
            return Err(Problem::new(
                "schema.properties",
                format!("must be an object, not {}", kind_of(other)),
            ))
        }
        None => return Err(Problem::new("schema.properties", "is missing")),
    };
    if props.len() > MAX_FIELDS {
        return Err(Problem::new(
            "schema.properties",
            format!("has {} fields (at most {MAX_FIELDS})", props.len()),
        ));
    }
    for (name, p) in props {
        check_property(p).map_err(|r| Problem::new(format!("schema.properties.{name}"), r))?;
    }
    match obj.get("required") {
        None => {}
        Some(Value::Array(req)) => {
            for r in req {
                match r.as_str() {
                    Some(n) if props.contains_key(n) => {}
                    Some(n) => {
                        return Err(Problem::new(
                            "schema.required",
                            format!("names {n:?}, which is not a property"),
                        ))
                    }
                    None => {
                        return Err(Problem::new("schema.required", "must list property names"))
                    }
                }
            }
        }
        Some(other) => {
            return Err(Problem::new(
                "schema.required",
                format!("must be an array, not {}", kind_of(other)),
            ))
        }
    }
    Ok(())
}

/// One property of the subset; `Err` is the reason.
fn check_property(p: &Value) -> Result<(), String> {
    let p = p
        .as_object()
        .ok_or_else(|| format!("must be an object, not {}", kind_of(p)))?;
    if p.contains_key("$ref") {
        return Err("uses $ref, which the subset does not allow".into());
    }
    let ty = p.get("type").and_then(Value::as_str).unwrap_or_default();
    match ty {
        "string" => {
            for k in ["minLength", "maxLength"] {
                if p.get(k).is_some_and(|v| v.as_u64().is_none()) {
                    return Err(format!("{k} must be a whole number"));
                }
            }
            if let Some(f) = p.get("format") {
                let f = f.as_str().unwrap_or_default();
                if !matches!(f, "email" | "uri" | "date" | "date-time") {
                    return Err(format!(
                        "format {f:?} is not one of email, uri, date, date-time"
                    ));
                }
            }
            let choices = choices_of(p)?;
            if let Some(n) = p.get("enumNames") {
                let names = n.as_array().ok_or("enumNames must be an array")?;
                if names.len() != choices.as_ref().map_or(0, Vec::len)
                    || !names.iter().all(Value::is_string)
                {
                    return Err("enumNames must name each enum value, as strings".into());
                }
            }
        }
        "number" | "integer" => {
            for k in ["minimum", "maximum"] {
                if p.get(k).is_some_and(|v| !v.is_number()) {
                    return Err(format!("{k} must be a number"));
                }
            }
        }
        "boolean" => {}
        "array" => {
            let items = p
                .get("items")
                .and_then(Value::as_object)
                .ok_or("an array needs \"items\" with its choices (enum or anyOf)")?;
            if items_choices(items)?.is_none() {
                return Err(
                    "an array's items must be a choice (enum or anyOf of {const, title})".into(),
                );
            }
            for k in ["minItems", "maxItems"] {
                if p.get(k).is_some_and(|v| v.as_u64().is_none()) {
                    return Err(format!("{k} must be a whole number"));
                }
            }
        }
        "object" => return Err("nested objects are outside the subset".into()),
        "" => return Err("has no \"type\"".into()),
        other => return Err(format!("type {other:?} is outside the subset")),
    }
    if let Some(d) = p.get("default") {
        check_field(p, d).map_err(|r| format!("its default {r}"))?;
    }
    Ok(())
}

/// A string property's choices: `enum` or `oneOf` of `{const, title}`;
/// `None` for free text.
fn choices_of(p: &Map<String, Value>) -> Result<Option<Vec<String>>, String> {
    if let Some(e) = p.get("enum") {
        let list = e.as_array().ok_or("enum must be an array")?;
        let out: Option<Vec<String>> = list.iter().map(|v| v.as_str().map(str::to_owned)).collect();
        let out = out.ok_or("enum must list strings")?;
        if out.is_empty() || out.len() > MAX_OPTIONS {
            return Err(format!("enum must list 1 to {MAX_OPTIONS} values"));
        }
        return Ok(Some(out));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(o) = p.get(key) {
            let list = o
                .as_array()
                .ok_or_else(|| format!("{key} must be an array"))?;
            let out: Option<Vec<String>> = list
                .iter()
                .map(|v| v.get("const").and_then(Value::as_str).map(str::to_owned))
                .collect();
            let out = out.ok_or_else(|| format!("{key} must list {{const, title}} objects"))?;
            if out.is_empty() || out.len() > MAX_OPTIONS {
                return Err(format!("{key} must list 1 to {MAX_OPTIONS} values"));
            }
            return Ok(Some(out));
        }
    }
    Ok(None)
}

/// An array property's `items` choices.
fn items_choices(items: &Map<String, Value>) -> Result<Option<Vec<String>>, String> {
    choices_of(items).map_err(|r| format!("items: {r}"))
}

/// Checks one field's value against its property; `Err` is the reason.
fn check_field(p: &Map<String, Value>, v: &Value) -> Result<(), String> {
    match p.get("type").and_then(Value::as_str).unwrap_or_default() {
        "string" => {
            let s = v
                .as_str()
                .ok_or_else(|| format!("must be text, not {}", kind_of(v)))?;
            if let Some(choices) = choices_of(p)? {
                if !choices.iter().any(|c| c == s) {
                    return Err("must be one of the choices".into());
                }
                return Ok(());
            }
            let n = s.chars().count() as u64;
            if let Some(min) = p.get("minLength").and_then(Value::as_u64) {
                if n < min {
                    return Err(format!("must be at least {min} characters"));
                }
            }
            if let Some(max) = p.get("maxLength").and_then(Value::as_u64) {
                if n > max {
                    return Err(format!("must be at most {max} characters"));
                }
            }
            match p.get("format").and_then(Value::as_str) {
                Some("email") if !is_email(s) => {
                    Err("must be an email address like name@example.com".into())
                }
                Some("uri") if !is_uri(s) => Err("must be a URI like https://example.com".into()),
                Some("date") if !is_date(s) => Err("must be a date like 2026-12-31".into()),
                Some("date-time") if !is_date_time(s) => {
                    Err("must be a date and time like 2026-12-31T18:00:00Z".into())
                }
                _ => Ok(()),
            }
        }
        ty @ ("number" | "integer") => {
            let x = v
                .as_f64()
                .ok_or_else(|| format!("must be a number, not {}", kind_of(v)))?;
            if ty == "integer" && x.fract() != 0.0 {
                return Err("must be a whole number".into());
            }
            if let Some(min) = p.get("minimum").and_then(Value::as_f64) {
                if x < min {
                    return Err(format!("must be at least {min}"));
                }
            }
            if let Some(max) = p.get("maximum").and_then(Value::as_f64) {
                if x > max {
                    return Err(format!("must be at most {max}"));
                }
            }
            Ok(())
        }
        "boolean" => v
            .is_boolean()
            .then_some(())
            .ok_or_else(|| format!("must be true or false, not {}", kind_of(v))),
        "array" => {
            let list = v
                .as_array()
                .ok_or_else(|| format!("must be a list, not {}", kind_of(v)))?;
            let choices = p
                .get("items")
                .and_then(Value::as_object)
                .map(items_choices)
                .transpose()?
                .flatten()
                .unwrap_or_default();
            for item in list {
                if !item
                    .as_str()
                    .is_some_and(|s| choices.iter().any(|c| c == s))
                {
                    return Err("must list only the choices".into());
                }
            }
            let n = list.len() as u64;
            if let Some(min) = p.get("minItems").and_then(Value::as_u64) {
                if n < min {
                    return Err(format!("must have at least {min} chosen"));
                }
            }
            if let Some(max) = p.get("maxItems").and_then(Value::as_u64) {
                if n > max {
                    return Err(format!("must have at most {max} chosen"));
                }
            }
            Ok(())
        }
        _ => Err("has a type outside the subset".into()),
    }
}

/// Checks a form's answer against its (already checked) schema: an object
/// with only its properties, each fitting, every required one present.
pub fn check_form_value(schema: &Value, value: &Value) -> Result<(), Problem> {
    check_object(schema, value, true)
}

/// Like [`check_form_value`], but a field may be missing (a default).
fn check_partial(schema: &Value, value: &Value) -> Result<(), Problem> {
    check_object(schema, value, false)
}

fn check_object(schema: &Value, value: &Value, whole: bool) -> Result<(), Problem> {
    let obj = value.as_object().ok_or_else(|| {
        Problem::new(
            "value",
            format!("must be an object, not {}", kind_of(value)),
        )
    })?;
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (name, v) in obj {
        let p = props
            .get(name)
            .and_then(Value::as_object)
            .ok_or_else(|| Problem::new(name, "is not a field of this form"))?;
        check_field(p, v).map_err(|r| Problem::new(name, r))?;
    }
    if whole {
        let required = schema.get("required").and_then(Value::as_array);
        for r in required.into_iter().flatten().filter_map(Value::as_str) {
            if !obj.contains_key(r) {
                return Err(Problem::new(r, "is required"));
            }
        }
    }
    Ok(())
}

/// Checks an `accept`'s value for a dialog of `kind`; the problem names
/// the field at fault (`value`, or the form's field).
pub fn check_answer(
    kind: DialogKind,
    options: &[String],
    schema: Option<&Value>,
    value: Option<&Value>,
) -> Result<(), Problem> {
    let missing = || Problem::new("value", "is missing; accept carries the answer");
    match kind {
        DialogKind::Confirm => match value {
            None | Some(Value::Bool(true)) => Ok(()),
            Some(v) => Err(Problem::new(
                "value",
                format!("a confirm is accepted with true, not {}", short(v)),
            )),
        },
        DialogKind::Url => Ok(()),
        DialogKind::Select => {
            let v = value.ok_or_else(missing)?;
            if v.as_str().is_some_and(|s| options.iter().any(|o| o == s)) {
                Ok(())
            } else {
                Err(Problem::new(
                    "value",
                    format!("{} is not one of the options", short(v)),
                ))
            }
        }
        DialogKind::Input => {
            let v = value.ok_or_else(missing)?;
            v.is_string().then_some(()).ok_or_else(|| {
                Problem::new("value", format!("must be a string, not {}", kind_of(v)))
            })
        }
        DialogKind::Form => {
            let v = value.ok_or_else(missing)?;
            check_form_value(schema.unwrap_or(&Value::Null), v)
        }
    }
}

/// A value in a few characters, for messages.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or_default()),
        None => s,
    }
}

/// What kind of JSON `v` is, in words.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// One `@`, something on each side, a dot in the domain, no spaces.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s.chars().any(char::is_whitespace)
}

/// A scheme (a letter, then letters, digits, `+`, `-`, `.`), a colon, and
/// something after it, no spaces.
fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut cs = scheme.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic())
        && cs.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !s.chars().any(char::is_whitespace)
}

/// `YYYY-MM-DD`, a real day of the calendar.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339: a date, `T`, `HH:MM:SS`, optional fraction, `Z` or `±HH:MM`.
fn is_date_time(s: &str) -> bool {
    let Some((date, time)) = s.split_once(['T', 't']) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let (clock, zone) = if let Some(c) = time.strip_suffix(['Z', 'z']) {
        (c, None)
    } else if let Some(i) = time.rfind(['+', '-']) {
        (time.get(..i).unwrap_or_default(), time.get(i + 1..))
    } else {
        return false;
    };
    let hms = |t: &str, secs: bool| -> bool {
        let parts: Vec<&str> = t.split(':').collect();
        let want = if secs { 3 } else { 2 };
        if parts.len() != want {
            return false;
        }
        let limits = [23, 59, 60];
        parts.iter().zip(limits).enumerate().all(|(i, (p, max))| {
            let p = if i == 2 {
                p.split('.').next().unwrap_or_default()
            } else {
                p
            };
            p.len() == 2
                && p.bytes().all(|c| c.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|n| n <= max)
        }) && (!secs
            || parts.get(2).is_some_and(|p| {
                p.split_once('.')
                    .is_none_or(|(_, f)| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
            }))
    };
    hms(clock, true) && zone.is_none_or(|z| hms(z, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The vectors the TypeScript port runs too.
    const VECTORS: &str = include_str!("dialog_rules_vectors.json");

    #[test]
    fn the_shared_vectors_hold() {
        let v: Value = serde_json::from_str(VECTORS).unwrap();
        for case in v["schemas"].as_array().unwrap() {
            let got = check_schema(&case["schema"]).err().map(|p| p.to_string());
            let want = case["error"].as_str().map(str::to_owned);
            assert_eq!(got, want, "schema case {}", case["name"]);
        }
        for case in v["values"].as_array().unwrap() {
            let schema = &v["forms"][case["form"].as_str().unwrap()];
            check_schema(schema).unwrap();
            let got = check_form_value(schema, &case["value"])
                .err()
                .map(|p| p.to_string());
            let want = case["error"].as_str().map(str::to_owned);
            assert_eq!(got, want, "value case {}", case["name"]);
        }
    }

    #[test]
    fn a_bad_request_names_its_field() {
        let req = |v: Value| -> UiRequest { serde_json::from_value(v).unwrap() };
        let e = check_request(&req(json!({"id":"1","kind":"pick","title":"t"}))).unwrap_err();
        assert_eq!(e.field, "kind");
        let e = check_request(&req(
            json!({"id":"1","kind":"select","title":"t","options":[]}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "options");
        let e = check_request(&req(
            json!({"id":"1","kind":"select","title":"t","options":["a"],"default":"b"}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "default");
        let e = check_request(&req(
            json!({"id":"1","kind":"confirm","title":"t","default":"yes"}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "default");
        let e = check_request(&req(json!({"id":"1","kind":"form","title":"t",
            "schema":{"type":"object","properties":{"a":{"type":"object"}}}})))
        .unwrap_err();
        assert_eq!(e.field, "schema.properties.a");
        let e = check_request(&req(json!({"id":"1","kind":"form","title":"t",
            "schema":{"type":"object","properties":{"n":{"type":"integer","maximum":3}}},
            "default":{"n":5}})))
        .unwrap_err();
        assert_eq!(e.to_string(), "default.n: must be at most 3");
        assert_eq!(
            check_request(&req(
                json!({"id":"1","kind":"input","title":"t","default":"x"})
            )),
            Ok(DialogKind::Input)
        );
    }

    #[test]
    fn only_an_mcp_entry_may_ask_with_an_address_and_only_http() {
        let req = |url: &str| -> UiRequest {
            serde_json::from_value(json!({"id":"1","kind":"url","title":"Sign in","url":url}))
                .unwrap()
        };
        assert_eq!(
            check_request_from(&req("https://x.org/a"), true),
            Ok(DialogKind::Url)
        );
        assert_eq!(
            check_request_from(&req("javascript:alert(1)"), true)
                .unwrap_err()
                .field,
            "url"
        );
        assert_eq!(
            check_request_from(&req("file:///etc/passwd"), true)
                .unwrap_err()
                .field,
            "url"
        );
        assert_eq!(
            check_request(&req("https://x.org/a")).unwrap_err().field,
            "kind"
        );
    }

    #[test]
    fn answers_fit_their_kind() {
        let opts = vec!["a".to_owned()];
        assert!(check_answer(DialogKind::Select, &opts, None, Some(&json!("a"))).is_ok());
        assert_eq!(
            check_answer(DialogKind::Select, &opts, None, Some(&json!("b")))
                .unwrap_err()
                .field,
            "value"
        );
        assert!(check_answer(DialogKind::Confirm, &[], None, Some(&json!(true))).is_ok());
        assert!(check_answer(DialogKind::Input, &[], None, Some(&json!(3))).is_err());
    }

    #[test]
    fn dates_and_times_are_real_ones() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2023-13-01"));
        assert!(is_date_time("2026-12-31T18:00:00Z"));
        assert!(is_date_time("2026-12-31T18:00:00.5+01:00"));
        assert!(!is_date_time("2026-12-31 18:00"));
        assert!(is_uri("https://example.com"));
        assert!(!is_uri("example.com"));
        assert!(is_email("a@b.co"));
        assert!(!is_email("a@b"));
    }
}

//! The user `zot ext test` plays when an extension asks (docs/protocol.md
//! "Dialogs"): each `ui_request` is checked with the very rules zot applies
//! (`dialog_rules`), and answered at once, as a patient user would: a valid
//! request is accepted with its default (a confirm with yes, a select with
//! its default or first option, an input with its default or "test", a
//! form with its defaults when they make a valid answer, else cancelled);
//! a bad one is answered `cancel` with the reason zot would give. What it
//! saw becomes the `dialogs` check of the report.

use serde_json::{json, Map, Value};
use zot_ext_protocol::{DialogKind, UiRequest};

use crate::policy::dialog_rules::{check_form_value, check_request};

/// What the scripted user saw: every request, and the bad ones' reasons.
#[derive(Default)]
pub(crate) struct Seen {
    /// Requests answered.
    pub asked: usize,
    /// `(id, field: reason)` of each request zot would refuse.
    pub bad: Vec<(String, String)>,
}

/// The `ui_response` for `frame` (a `ui_request`), noting it in `seen`.
pub(crate) fn answer(frame: &Value, seen: &mut Seen) -> Value {
    seen.asked += 1;
    let id = frame.get("id").cloned().unwrap_or(Value::Null);
    let req: UiRequest = match serde_json::from_value(frame.clone()) {
        Ok(r) => r,
        Err(e) => {
            let why = format!("not a valid ui_request: {e}");
            seen.bad.push((id.to_string(), why.clone()));
            return json!({"type":"ui_response","id":id,"action":"cancel","reason":why});
        }
    };
    let kind = match check_request(&req) {
        Ok(k) => k,
        Err(p) => {
            seen.bad.push((req.id.0.clone(), p.to_string()));
            return json!({"type":"ui_response","id":id,"action":"cancel","reason":p.to_string()});
        }
    };
    let value = match kind {
        DialogKind::Confirm | DialogKind::Url => Some(Value::Bool(true)),
        DialogKind::Select => req
            .default
            .clone()
            .or_else(|| req.options.as_ref()?.first().cloned().map(Value::String)),
        DialogKind::Input => Some(req.default.clone().unwrap_or_else(|| json!("test"))),
        DialogKind::Form => form_defaults(&req),
    };
    match value {
        Some(v) => json!({"type":"ui_response","id":id,"action":"accept","value":v}),
        None => {
            json!({"type":"ui_response","id":id,"action":"cancel","reason":"the scripted user of zot ext test cannot fill this form from its defaults"})
        }
    }
}

/// The form filled from the request's and the fields' defaults, if that is
/// a valid answer.
fn form_defaults(req: &UiRequest) -> Option<Value> {
    let schema = req.schema.as_ref()?;
    let mut out = req
        .default
        .as_ref()
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    for (name, p) in schema.get("properties")?.as_object()? {
        if let Some(d) = p.get("default") {
            out.entry(name.clone()).or_insert_with(|| d.clone());
        }
    }
    let v = Value::Object(out);
    check_form_value(schema, &v).ok().map(|()| v)
}

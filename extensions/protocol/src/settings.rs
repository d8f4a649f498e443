//! Extension settings (docs/rpc.md "Extension settings"): the manifest's
//! `config` schema, and the values map that `hello_ack.config`,
//! `config_changed` and `ext_config_get` carry. Checking a schema or a
//! value is the host's job; this is the shape.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The manifest's `config`: settings keyed by name, in the manifest's
/// order (the form shows them in that order).
pub type SettingsSchema = IndexMap<String, SettingSpec>;

/// Setting values keyed by name (the wire form of `config`).
pub type SettingValues = BTreeMap<String, Value>;

/// What a masked secret starts with in `ext_config_get`; a value sent back
/// to `ext_config_set` that starts with it means "unchanged".
pub const SECRET_MASK: &str = "••••";

/// The type of one setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SettingType {
    /// Any text.
    String,
    /// A JSON number, optionally within `min`..=`max`.
    Number,
    /// `true` or `false`.
    Boolean,
    /// One of `enum`.
    Enum,
    /// A file system path (text); with `must_exist`, it must exist.
    Path,
}

impl SettingType {
    /// The word used in the manifest and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            SettingType::String => "string",
            SettingType::Number => "number",
            SettingType::Boolean => "boolean",
            SettingType::Enum => "enum",
            SettingType::Path => "path",
        }
    }
}

/// One setting of the manifest's `config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SettingSpec {
    /// What kind of value it holds.
    #[serde(rename = "type")]
    pub kind: SettingType,
    /// The form's label.
    pub title: String,
    /// Help shown under the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// Used when the user has set nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub default: Option<Value>,
    /// The extension does not start until it has a value (or a default).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub required: bool,
    /// A secret: kept in the OS keychain, masked everywhere zot shows it.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub sensitive: bool,
    /// For `enum`: the allowed values.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    #[ts(rename = "enum", as = "Option<Vec<String>>", optional)]
    pub choices: Vec<String>,
    /// For `number`: the smallest allowed value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub min: Option<f64>,
    /// For `number`: the largest allowed value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max: Option<f64>,
    /// For `path`: the path must exist when it is set (a zot addition to
    /// the contract's fields).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub must_exist: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

//! Message blocks carried by `tool_result` (and by the agent's transcript).

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One block of tool output: text, or a base64 image.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text itself.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// For example `image/png`.
        mime_type: String,
        /// Base64 of the image bytes.
        data: String,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into() }
    }
}

// Deserialised by hand: serde's derive for an internally tagged enum first
// buffers the whole object into an intermediate tree, which was the largest
// single cost of decoding a `tool_result` on the host.
impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(BlockVisitor)
    }
}

/// The keys a block may carry; anything else is skipped.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    Type,
    Text,
    MimeType,
    Data,
    #[serde(other)]
    Other,
}

/// The `type` tag's values.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Text,
    Image,
}

/// One pass over the object, keys in any order, `type` included.
struct BlockVisitor;

impl<'de> Visitor<'de> for BlockVisitor {
    type Value = ContentBlock;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"a content block ({"type":"text",...} or {"type":"image",...})"#)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContentBlock, A::Error> {
        let mut kind = None;
        let mut text = None;
        let mut mime_type = None;
        let mut data = None;
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Type => kind = Some(map.next_value::<Kind>()?),
                Field::Text => text = Some(map.next_value::<String>()?),
                Field::MimeType => mime_type = Some(map.next_value::<String>()?),
                Field::Data => data = Some(map.next_value::<String>()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match kind.ok_or_else(|| de::Error::missing_field("type"))? {
            Kind::Text => Ok(ContentBlock::Text {
                text: text.ok_or_else(|| de::Error::missing_field("text"))?,
            }),
            Kind::Image => Ok(ContentBlock::Image {
                mime_type: mime_type.ok_or_else(|| de::Error::missing_field("mime_type"))?,
                data: data.ok_or_else(|| de::Error::missing_field("data"))?,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ContentBlock;
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<ContentBlock, String> {
        // Both from text (the host's path) and from a tree (the agent's).
        let from_text = serde_json::from_str::<ContentBlock>(&v.to_string());
        let from_tree = serde_json::from_value::<ContentBlock>(v);
        assert_eq!(
            from_text.as_ref().map_err(|e| e
                .to_string()
                .split(" at line")
                .next()
                .unwrap()
                .to_owned()),
            from_tree.as_ref().map_err(|e| e.to_string())
        );
        from_tree.map_err(|e| e.to_string())
    }

    #[test]
    fn blocks_parse_with_keys_in_any_order_and_extra_keys() {
        assert_eq!(
            parse(json!({"type":"text","text":"hi"})),
            Ok(ContentBlock::text("hi"))
        );
        assert_eq!(
            parse(json!({"text":"hi","extra":[1,{"a":2}],"type":"text"})),
            Ok(ContentBlock::text("hi"))
        );
        assert_eq!(
            parse(json!({"data":"AAAA","type":"image","mime_type":"image/png"})),
            Ok(ContentBlock::Image {
                mime_type: "image/png".into(),
                data: "AAAA".into()
            })
        );
    }

    #[test]
    fn bad_blocks_say_what_is_wrong() {
        assert!(parse(json!({"text":"hi"}))
            .unwrap_err()
            .contains("missing field `type`"));
        assert!(parse(json!({"type":"text"}))
            .unwrap_err()
            .contains("missing field `text`"));
        assert!(parse(json!({"type":"image","data":"A"}))
            .unwrap_err()
            .contains("missing field `mime_type`"));
        assert!(parse(json!({"type":"video"}))
            .unwrap_err()
            .contains("unknown variant `video`"));
        assert!(parse(json!({"type":"text","text":5}))
            .unwrap_err()
            .contains("invalid type"));
        assert!(parse(json!("text")).unwrap_err().contains("invalid type"));
    }

    #[test]
    fn serialises_with_its_tag() {
        let v = serde_json::to_value(ContentBlock::text("x")).unwrap();
        assert_eq!(v, json!({"type":"text","text":"x"}));
    }
}

//! A scanner for the commonest reply on the hot path, a `tool_result` with
//! text or image blocks, written by every SDK as compact JSON. Going through
//! serde's layers cost about 3 000 instructions per reply, a quarter of the
//! host's work per round trip.
//!
//! It accepts only the plain case: no backslash anywhere in the line (so
//! every string is its raw bytes), the known keys, and no duplicate keys.
//! Anything else returns `None` and takes the general path, which also
//! produces the precise error message.

use zot_ext_protocol::{ContentBlock, RequestId, ToolResult};

/// Parses `line` (which starts, after whitespace, with
/// `{"type":"tool_result"`) or gives up.
pub(super) fn parse(line: &[u8]) -> Option<ToolResult> {
    if memchr::memchr(b'\\', line).is_some() {
        return None;
    }
    let mut s = Scanner { b: line, i: 0 };
    s.ws();
    s.eat(b'{')?;
    let (mut kind, mut id, mut content, mut is_error, mut activate) =
        (false, None, None, None, None);
    loop {
        let key = s.string()?;
        s.eat(b':')?;
        match key {
            "type" if !kind => kind = s.string()? == "tool_result",
            "id" if id.is_none() => id = Some(s.string()?),
            "content" if content.is_none() => content = Some(s.array(Scanner::block)?),
            "is_error" if is_error.is_none() => is_error = Some(s.boolean()?),
            "activate_tools" if activate.is_none() => {
                activate = Some(s.array(|s| s.string().map(str::to_owned))?)
            }
            _ => return None,
        }
        if s.eat(b',').is_none() {
            break;
        }
    }
    s.eat(b'}')?;
    s.ws();
    if !kind || s.i != s.b.len() {
        return None;
    }
    Some(ToolResult {
        id: RequestId(id?.to_owned()),
        content: content.unwrap_or_default(),
        is_error: is_error.unwrap_or(false),
        activate_tools: activate.unwrap_or_default(),
        ..Default::default()
    })
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    /// Skips whitespace, then consumes `c`.
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// A string without escapes (the caller ruled out backslashes). One
    /// pass finds its end, refuses raw control characters (JSON forbids
    /// them) and notes whether UTF-8 needs checking at all; replies are
    /// mostly short ASCII, where this is several times cheaper than
    /// `memchr` plus `from_utf8`.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let mut ascii = true;
        loop {
            let c = *self.b.get(self.i)?;
            self.i += 1;
            match c {
                b'"' => break,
                0..=0x1f => return None,
                0x80.. => ascii = false,
                _ => {}
            }
        }
        let raw = self.b.get(start..self.i.checked_sub(1)?)?;
        if ascii {
            // SAFETY: every byte is below 0x80, and ASCII is valid UTF-8.
            Some(unsafe { std::str::from_utf8_unchecked(raw) })
        } else {
            std::str::from_utf8(raw).ok()
        }
    }

    fn boolean(&mut self) -> Option<bool> {
        self.ws();
        let rest = self.b.get(self.i..)?;
        let (v, n) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.i += n;
        Some(v)
    }

    fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        if self.eat(b']').is_some() {
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.eat(b']')?;
        Some(out)
    }

    fn block(&mut self) -> Option<ContentBlock> {
        self.eat(b'{')?;
        let (mut kind, mut text, mut mime_type, mut data) = (None, None, None, None);
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            let slot = match key {
                "type" => &mut kind,
                "text" => &mut text,
                "mime_type" => &mut mime_type,
                "data" => &mut data,
                _ => return None,
            };
            if slot.replace(self.string()?).is_some() {
                return None;
            }
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.eat(b'}')?;
        match (kind?, text, mime_type, data) {
            ("text", Some(text), None, None) => Some(ContentBlock::text(text)),
            ("image", None, Some(mime_type), Some(data)) => Some(ContentBlock::Image {
                mime_type: mime_type.to_owned(),
                data: data.to_owned(),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use zot_ext_protocol::{ExtToHost, ToolResult};

    fn serde(line: &str) -> Option<ToolResult> {
        match serde_json::from_str::<ExtToHost>(line) {
            Ok(ExtToHost::ToolResult(r)) => Some(r),
            _ => None,
        }
    }

    #[test]
    fn plain_results_are_scanned_exactly_as_serde_reads_them() {
        for line in [
            r#"{"type":"tool_result","id":"7","content":[{"type":"text","text":"ok"}]}"#,
            r#"{"type":"tool_result","id":"7","content":[]}"#,
            r#"{"type":"tool_result","id":"7"}"#,
            r#" { "type" : "tool_result" , "id" : "8" , "content" : [ { "text" : "a ✓" , "type" : "text" } ] , "is_error" : true } "#,
            r#"{"type":"tool_result","id":"9","content":[{"type":"image","mime_type":"image/png","data":"AAAA"},{"type":"text","text":""}],"is_error":false,"activate_tools":["x","y"]}"#,
            r#"{"type":"tool_result","activate_tools":[],"id":"10","content":[{"type":"text","text":"t"}]}"#,
        ] {
            let fast = parse(line.as_bytes());
            assert!(fast.is_some(), "not scanned: {line}");
            assert_eq!(fast, serde(line), "{line}");
        }
    }

    #[test]
    fn anything_unusual_is_left_to_serde() {
        for line in [
            // Escapes, unknown keys, duplicates, bad shapes and bad JSON.
            r#"{"type":"tool_result","id":"7","content":[{"type":"text","text":"a\"b"}]}"#,
            r#"{"type":"tool_result","id":"7","extra":1}"#,
            r#"{"type":"tool_result","id":"7","id":"8"}"#,
            r#"{"type":"tool_result","id":"7","content":[{"type":"text","text":"a","text":"b"}]}"#,
            r#"{"type":"tool_result","id":"7","content":[{"type":"text"}]}"#,
            r#"{"type":"tool_result","id":"7","content":[{"type":"video","text":"a"}]}"#,
            r#"{"type":"tool_result","id":7}"#,
            r#"{"type":"tool_result","content":[]}"#,
            r#"{"type":"tool_result","id":"7","is_error":1}"#,
            r#"{"type":"tool_result","id":"7"} x"#,
            r#"{"type":"tool_result","id":"7","content":[{"type":"text","text":"a"},]}"#,
            "{\"type\":\"tool_result\",\"id\":\"a\tb\"}",
            r#"{"type":"notify","id":"7"}"#,
        ] {
            assert_eq!(parse(line.as_bytes()), None, "{line}");
        }
        assert_eq!(parse(b"{\"type\":\"tool_result\",\"id\":\"\xff\"}"), None);
    }
}

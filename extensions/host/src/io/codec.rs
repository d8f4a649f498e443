//! Newline-delimited JSON, bounded. The reader never holds more than one
//! maximum-length line plus one read chunk, so a runaway extension cannot
//! grow host memory; a bad line is a [`DecodeError`] the caller logs, never
//! a panic.

use serde_json::Value;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use zot_ext_protocol::{EventFields, ExtToHost, HostToExt, LifecycleEvent};

mod tool_result;

/// How much is read from the pipe at once.
const CHUNK: usize = 64 * 1024;

/// A stream-level failure: the connection cannot go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// A line longer than the cap, without its newline.
    #[error("sent a line longer than {max} bytes (the limit is {} MiB)", max / (1024 * 1024))]
    MaxLineLengthExceeded {
        /// The cap in bytes.
        max: usize,
    },
    /// Reading the pipe failed.
    #[error("reading its stdout failed: {0}")]
    Io(#[from] std::io::Error),
    /// A transport that is not a pipe (WebSocket, MCP) broke; says how.
    #[error("{0}")]
    Transport(String),
}

/// A line that is not a frame; the connection goes on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The bytes are not UTF-8.
    #[error("a line is not valid UTF-8")]
    InvalidUtf8,
    /// The text is not JSON.
    #[error("a line is not JSON ({0})")]
    NotJson(String),
    /// A JSON value without a known `type`.
    #[error("unknown frame type {0}")]
    UnknownType(String),
    /// A known `type` with missing or wrong fields.
    #[error("invalid '{kind}' frame: {message}")]
    Invalid {
        /// The frame's `type`.
        kind: String,
        /// What serde said.
        message: String,
    },
}

/// Splits a byte stream into lines of at most `max` bytes.
#[derive(Debug)]
pub struct LineReader<R> {
    /// The pipe.
    inner: R,
    /// Bytes read and not yet handed out; lines start at `start`.
    buf: Vec<u8>,
    /// Where the next line begins in `buf`.
    start: usize,
    /// Up to here `buf` is known to hold no newline, so scans never repeat.
    scanned: usize,
    /// The line cap.
    max: usize,
    /// The pipe reached its end.
    eof: bool,
    /// A whole line over the cap arrived in one read; the stream is over.
    too_long: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// A reader with a cap of `max` bytes per line.
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(CHUNK),
            start: 0,
            scanned: 0,
            max,
            eof: false,
            too_long: false,
        }
    }

    /// Waits until a whole line is buffered (`Ok(true)`) or the stream has
    /// ended with nothing left (`Ok(false)`). Cancel-safe: state lives in
    /// `self`, so it can sit in a `select!`.
    pub async fn fill(&mut self) -> Result<bool, CodecError> {
        std::future::poll_fn(|cx| self.poll_fill(cx)).await
    }

    /// The poll form of [`LineReader::fill`], so a caller can wait on it
    /// without allocating a future per wait.
    pub fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, CodecError>> {
        loop {
            if self.too_long {
                return Poll::Ready(Err(CodecError::MaxLineLengthExceeded { max: self.max }));
            }
            if self.has_line() {
                return Poll::Ready(Ok(true));
            }
            if self.eof {
                return Poll::Ready(Ok(false));
            }
            if self.buf.len() - self.start > self.max {
                return Poll::Ready(Err(CodecError::MaxLineLengthExceeded { max: self.max }));
            }
            if self.start > 0
                && (self.start == self.buf.len() || self.buf.capacity() - self.buf.len() < CHUNK)
            {
                // Reclaim the consumed prefix before reading more.
                self.buf.drain(..self.start);
                self.scanned -= self.start;
                self.start = 0;
            }
            self.buf.reserve(CHUNK);
            let n = {
                let mut rb = ReadBuf::uninit(self.buf.spare_capacity_mut());
                match Pin::new(&mut self.inner).poll_read(cx, &mut rb) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e.into())),
                    Poll::Ready(Ok(())) => rb.filled().len(),
                }
            };
            // SAFETY: `poll_read` initialised the first `n` spare bytes.
            unsafe { self.buf.set_len(self.buf.len() + n) };
            if n == 0 {
                self.eof = true;
                if self.start < self.buf.len() {
                    // A last line without its newline still counts.
                    self.buf.push(b'\n');
                }
            }
        }
    }

    fn has_line(&mut self) -> bool {
        let from = self.scanned.max(self.start);
        match memchr::memchr(b'\n', self.buf.get(from..).unwrap_or_default()) {
            Some(_) => true,
            None => {
                self.scanned = self.buf.len();
                false
            }
        }
    }

    /// The next buffered line, without its newline (and `\r`), if any.
    pub fn take_line(&mut self) -> Option<&[u8]> {
        let from = self.scanned.max(self.start);
        let i = from + memchr::memchr(b'\n', self.buf.get(from..)?)?;
        let begin = self.start;
        self.start = i + 1;
        self.scanned = self.start;
        let end = if i > begin && self.buf.get(i - 1) == Some(&b'\r') {
            i - 1
        } else {
            i
        };
        if end - begin > self.max {
            // Longer than allowed even though it arrived whole; the caller
            // sees the same error as for a partial one on the next fill.
            self.too_long = true;
            self.buf.clear();
            self.start = 0;
            self.scanned = 0;
            return None;
        }
        self.buf.get(begin..end)
    }
}

/// Parses one line into a frame, saying precisely what is wrong if it is not.
pub fn decode(line: &[u8]) -> Result<ExtToHost, DecodeError> {
    if let Some(frame) = fast_decode(line) {
        return Ok(frame);
    }
    match serde_json::from_slice::<ExtToHost>(line) {
        Ok(frame) => Ok(frame),
        Err(e) => Err(classify(line, e)),
    }
}

/// The common case, `{"type":"<name>",…}` with `type` first (as every SDK
/// and the spec's examples write it, and Python's plain `json.dumps` as
/// `{"type": "<name>", …}`): the tag is read by hand and the body parsed
/// straight into its struct (which ignores the `type` key), skipping
/// serde's buffering of internally tagged enums. `None` means "use the
/// general path", which also produces the precise error.
fn fast_decode(line: &[u8]) -> Option<ExtToHost> {
    fn skip_ws(b: &[u8]) -> &[u8] {
        let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
        b.get(n..).unwrap_or_default()
    }
    let rest = skip_ws(line).strip_prefix(b"{")?;
    let rest = skip_ws(rest).strip_prefix(b"\"type\"")?;
    let rest = skip_ws(rest).strip_prefix(b":")?;
    let rest = skip_ws(rest).strip_prefix(b"\"")?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    let (tag, after) = rest.split_at_checked(end)?;
    if after.first() != Some(&b'"') {
        return None;
    }
    fn parse<T: serde::de::DeserializeOwned>(
        line: &[u8],
        wrap: fn(T) -> ExtToHost,
    ) -> Option<ExtToHost> {
        serde_json::from_slice::<T>(line).ok().map(wrap)
    }
    match tag {
        b"notify" => parse(line, ExtToHost::Notify),
        b"tool_result" => tool_result::parse(line)
            .map(ExtToHost::ToolResult)
            .or_else(|| parse(line, ExtToHost::ToolResult)),
        b"tool_progress" => parse(line, ExtToHost::ToolProgress),
        b"event_intercept_response" => parse(line, ExtToHost::EventInterceptResponse),
        b"command_response" => parse(line, ExtToHost::CommandResponse),
        b"panel_render" => parse(line, ExtToHost::PanelRender),
        b"register_command" => parse(line, ExtToHost::RegisterCommand),
        b"register_tool" => parse(line, ExtToHost::RegisterTool),
        b"hello" => parse(line, ExtToHost::Hello),
        _ => None,
    }
}

fn classify(line: &[u8], err: serde_json::Error) -> DecodeError {
    let Ok(text) = std::str::from_utf8(line) else {
        return DecodeError::InvalidUtf8;
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return DecodeError::NotJson(e.to_string()),
    };
    match value.get("type").and_then(Value::as_str) {
        None => DecodeError::UnknownType("(no \"type\" field)".into()),
        Some(kind) if !KNOWN.contains(&kind) => DecodeError::UnknownType(format!("'{kind}'")),
        Some(kind) => DecodeError::Invalid {
            kind: kind.to_owned(),
            message: err.to_string(),
        },
    }
}

/// One host frame as a line, newline included.
pub fn encode(frame: &HostToExt) -> Vec<u8> {
    match frame {
        HostToExt::ToolCall(c) => tool_call_line(c.id.as_str(), &c.name, &c.args),
        HostToExt::EventIntercept(e) => match e.event.kind() {
            Some(event) => event_intercept_line(e.id.as_str(), event, &e.fields),
            None => serde_line(frame),
        },
        _ => serde_line(frame),
    }
}

/// One extension frame as a line, newline included: for the transports
/// that translate another protocol into zot frames (`mcp.rs`).
pub fn encode_ext(frame: &zot_ext_protocol::ExtToHost) -> Vec<u8> {
    let mut line = serde_json::to_vec(frame).unwrap_or_default();
    line.push(b'\n');
    line
}

// Host frames are our own types (string keys, no maps with non-string
// keys, no failing `Serialize` impls): serde_json cannot fail on them.
#[allow(clippy::expect_used)]
fn serde_line(frame: &HostToExt) -> Vec<u8> {
    let mut line = serde_json::to_vec(frame).expect("host frames always serialise");
    line.push(b'\n');
    line
}

// The two requests of the hot paths (a tool round trip, a step of an
// interception chain) are written from borrowed parts, without serde's
// tagged-enum and flatten layers and with their constant keys unescaped:
// together with not cloning the args per interceptor this was most of the
// host's own work per request. Tests check the bytes equal serde's.

/// A `tool_call` line.
pub fn tool_call_line(id: &str, name: &str, args: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + name.len());
    out.extend_from_slice(br#"{"type":"tool_call","id":"#);
    write_json(&mut out, id);
    out.extend_from_slice(br#","name":"#);
    write_json(&mut out, name);
    out.extend_from_slice(br#","args":"#);
    write_json(&mut out, args);
    out.extend_from_slice(b"}\n");
    out
}

/// An `event_intercept` line: the fields in `EventFields`' order, absent
/// ones left out.
pub fn event_intercept_line(id: &str, event: LifecycleEvent, f: &EventFields) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"type":"event_intercept","id":"#);
    write_json(&mut out, id);
    out.extend_from_slice(br#","event":"#);
    write_json(&mut out, event.as_str());
    if let Some(step) = f.step {
        out.extend_from_slice(br#","step":"#);
        out.extend_from_slice(itoa::Buffer::new().format(step).as_bytes());
    }
    field(&mut out, br#","tool_id":"#, &f.tool_id);
    field(&mut out, br#","tool_name":"#, &f.tool_name);
    field(&mut out, br#","tool_args":"#, &f.tool_args);
    field(&mut out, br#","stop":"#, &f.stop);
    field(&mut out, br#","text":"#, &f.text);
    out.extend_from_slice(b"}\n");
    out
}

/// `key` and the value, when there is one.
fn field<T: serde::Serialize>(out: &mut Vec<u8>, key: &[u8], value: &Option<T>) {
    if let Some(v) = value {
        out.extend_from_slice(key);
        write_json(out, v);
    }
}

// Writing JSON into a `Vec` cannot fail for `Value`s, strings and the
// host's own field types (see `serde_line`).
#[allow(clippy::expect_used)]
fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    serde_json::to_writer(out, v).expect("host frames always serialise");
}

/// Every `type` an extension may send.
const KNOWN: [&str; 15] = [
    "hello",
    "tool_progress",
    "register_command",
    "register_tool",
    "ready",
    "tool_result",
    "subscribe",
    "event_intercept_response",
    "command_response",
    "submit",
    "panel_render",
    "panel_close",
    "notify",
    "clear_notes",
    "shutdown_ack",
];

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> (Vec<Vec<u8>>, Option<String>) {
        let mut r = LineReader::new(input, max);
        let mut out = Vec::new();
        loop {
            match r.fill().await {
                Ok(true) => {
                    while let Some(l) = r.take_line() {
                        out.push(l.to_vec());
                    }
                }
                Ok(false) => return (out, None),
                Err(e) => return (out, Some(e.to_string())),
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_keeps_a_last_unterminated_one() {
        let (l, e) = lines(b"a\r\nbb\n\nccc", 10).await;
        assert_eq!(
            l,
            vec![b"a".to_vec(), b"bb".to_vec(), b"".to_vec(), b"ccc".to_vec()]
        );
        assert!(e.is_none());
    }

    #[tokio::test]
    async fn a_line_over_the_cap_is_an_error_after_the_good_ones() {
        let mut input = b"ok\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 300_000));
        input.push(b'\n');
        let (l, e) = lines(&input, 1000).await;
        assert_eq!(l, vec![b"ok".to_vec()]);
        assert!(e.unwrap().contains("longer than"));
    }

    #[test]
    fn the_fast_path_agrees_with_the_general_one() {
        let lines: [&[u8]; 9] = [
            br#"{"type":"notify","level":"warn","message":"x \"q\""}"#,
            // Python's json.dumps with its default separators.
            br#"{"type": "tool_progress", "id": "3", "message": "step 1", "progress": 1, "total": 9}"#,
            br#"{ "type" : "notify", "message": "m"}"#,
            br#"{"type":"tool_result","id":"7","content":[{"type":"text","text":"t"}],"activate_tools":["a"]}"#,
            br#"{"type":"event_intercept_response","id":"1","block":true,"reason":"r"}"#,
            br#"{"type":"command_response","id":"2","action":"display","display":"d"}"#,
            br#"{"type":"panel_render","panel_id":"p","lines":["a"]}"#,
            br#"{"type":"register_tool","name":"t","schema":{"type":"object"},"deferred":true}"#,
            br#"  {"type":"hello","name":"n","capabilities":["tools"]}"#,
        ];
        for l in lines {
            let fast = fast_decode(l)
                .unwrap_or_else(|| panic!("no fast path for {}", String::from_utf8_lossy(l)));
            assert_eq!(fast, serde_json::from_slice::<ExtToHost>(l).unwrap());
        }
        // Not first, escaped, or broken: left to the general path.
        assert!(fast_decode(br#"{"id":"1","type":"notify","message":"m"}"#).is_none());
        assert!(fast_decode(br#"{"type":"not\u0069fy","message":"m"}"#).is_none());
        assert!(fast_decode(br#"{"type":"notify"}"#).is_none());
        assert!(decode(br#"{"id":"1","type":"notify","message":"m"}"#).is_ok());
    }

    #[test]
    fn hand_written_requests_are_byte_for_byte_what_serde_writes() {
        use serde_json::json;
        use zot_ext_protocol::{EventIntercept, RequestId, ToolCall};
        let tricky = "q\"b\\c\n\u{1} ✓";
        let mut frames = Vec::new();
        for args in [
            json!({"x": 1, "path": tricky, "nested": {"k": [1, 2.5, null]}}),
            json!({}),
            json!(null),
        ] {
            frames.push(HostToExt::ToolCall(ToolCall {
                id: RequestId("42".into()),
                name: tricky.into(),
                args: args.clone(),
            }));
            frames.push(HostToExt::EventIntercept(EventIntercept {
                id: RequestId(tricky.into()),
                event: LifecycleEvent::ToolCall.into(),
                fields: EventFields {
                    tool_id: Some("t1".into()),
                    tool_name: Some(tricky.into()),
                    tool_args: Some(args),
                    ..Default::default()
                },
            }));
        }
        for fields in [
            EventFields::default(),
            EventFields {
                step: Some(3),
                ..Default::default()
            },
            EventFields {
                text: Some(tricky.into()),
                stop: Some("end".into()),
                ..Default::default()
            },
        ] {
            frames.push(HostToExt::EventIntercept(EventIntercept {
                id: RequestId("7".into()),
                event: LifecycleEvent::TurnStart.into(),
                fields,
            }));
        }
        for frame in frames {
            assert_eq!(
                String::from_utf8(encode(&frame)).unwrap(),
                String::from_utf8(serde_line(&frame)).unwrap()
            );
        }
    }

    #[test]
    fn decode_errors_are_classified() {
        assert_eq!(decode(b"\xff\xfe"), Err(DecodeError::InvalidUtf8));
        assert!(matches!(decode(b"not json"), Err(DecodeError::NotJson(_))));
        assert!(matches!(
            decode(br#"{"type":"bogus"}"#),
            Err(DecodeError::UnknownType(_))
        ));
        assert!(matches!(
            decode(br#"{"x":1}"#),
            Err(DecodeError::UnknownType(_))
        ));
        assert!(matches!(
            decode(br#"{"type":"notify"}"#),
            Err(DecodeError::Invalid { .. })
        ));
        assert!(decode(br#"{"type":"ready","extra":1}"#).is_ok());
    }
}

//! Turns a streamed HTTP body into SSE events with `eventsource-stream`,
//! mapping transport and parse failures to a [`ProviderError`], and holds
//! the bounds every parser applies to what a server sends: a server (or
//! anything steering it) must not make zot allocate by naming a huge block
//! index or by streaming without end.

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};

use super::ProviderError;

/// The longest SSE line accepted, in bytes. Real events are a few KiB; the
/// parser re-scans its buffer for every chunk of an unfinished line, so a
/// line without end would cost quadratic time as well as memory.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// What can go wrong below the SSE parser.
#[derive(Debug)]
enum Wire {
    /// The HTTP body broke off.
    Http(reqwest::Error),
    /// A line passed [`MAX_LINE_BYTES`].
    LineTooLong,
}

impl std::fmt::Display for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Wire::Http(e) => e.fmt(f),
            Wire::LineTooLong => write!(f, "a line longer than {MAX_LINE_BYTES} bytes"),
        }
    }
}

/// The SSE events of a response, in order; a line longer than
/// [`MAX_LINE_BYTES`] ends the stream with an error.
pub fn events(
    provider: &str,
    resp: reqwest::Response,
) -> impl Stream<Item = Result<Event, ProviderError>> + Send + Unpin {
    let provider = provider.to_owned();
    // Bytes since the last line break, across chunks.
    let mut line = 0usize;
    let guarded = resp.bytes_stream().map(move |chunk| {
        let chunk = chunk.map_err(Wire::Http)?;
        line = match chunk.iter().rposition(|b| *b == b'\n' || *b == b'\r') {
            Some(i) => chunk.len().saturating_sub(i).saturating_sub(1),
            None => line.saturating_add(chunk.len()),
        };
        if line > MAX_LINE_BYTES {
            return Err(Wire::LineTooLong);
        }
        Ok(chunk)
    });
    Box::pin(guarded.eventsource().map(move |r| {
        r.map_err(|e| match e {
            EventStreamError::Transport(Wire::LineTooLong) => ProviderError::fatal(format!(
                "{provider} sent a malformed stream: an event line longer than {} MiB; zot stopped reading it",
                MAX_LINE_BYTES / 1024 / 1024
            )),
            e => ProviderError {
                message: format!("the {provider} stream broke off: {e}"),
                retryable: false,
                retry_after: None,
            },
        })
    }))
}

/// The error for a stream that ended before the model finished.
pub fn truncated(provider: &str) -> ProviderError {
    ProviderError::fatal(format!(
        "the {provider} stream ended before the model finished (truncated response); try again"
    ))
}

/// The error for an event whose JSON does not parse.
pub fn malformed(provider: &str, data: &str, e: serde_json::Error) -> ProviderError {
    let snippet: String = data.chars().take(120).collect();
    ProviderError::fatal(format!(
        "{provider} sent a malformed stream event ({e}): {snippet}"
    ))
}

/// How long a stream may stay silent before zot gives up on it.
pub const IDLE: std::time::Duration = std::time::Duration::from_secs(300);

/// The next event, or an error once the stream has been silent for [`IDLE`]
/// (a stalled server must not hang the agent until the user aborts).
pub async fn next(
    provider: &str,
    events: &mut (impl Stream<Item = Result<Event, ProviderError>> + Unpin),
) -> Option<Result<Event, ProviderError>> {
    match tokio::time::timeout(IDLE, events.next()).await {
        Ok(ev) => ev,
        Err(_) => Some(Err(ProviderError::fatal(format!(
            "the {provider} stream sent nothing for {} s; giving up on this answer",
            IDLE.as_secs()
        )))),
    }
}

/// The most content blocks (Anthropic) or tool calls (OpenAI) one answer
/// may have; an `index` at or past it is a stream error, not an allocation.
pub const MAX_INDEX: usize = 128;

/// The most text plus tool-argument bytes one answer may stream; past it
/// the answer is a stream error (a real answer is a few hundred KiB at
/// most).
pub const MAX_ANSWER_BYTES: usize = 32 * 1024 * 1024;

/// A block or tool-call `index` from the stream, checked against
/// [`MAX_INDEX`]; `None` when the field is absent.
pub fn index(provider: &str, v: &serde_json::Value) -> Result<Option<usize>, ProviderError> {
    let Some(raw) = v.get("index").filter(|i| !i.is_null()) else {
        return Ok(None);
    };
    match raw.as_u64().and_then(|i| usize::try_from(i).ok()) {
        Some(i) if i < MAX_INDEX => Ok(Some(i)),
        _ => Err(ProviderError::fatal(format!(
            "{provider} sent a malformed stream: block index {raw} is not a number below {MAX_INDEX}; try again"
        ))),
    }
}

/// Counts the bytes an answer streamed, failing past [`MAX_ANSWER_BYTES`].
#[derive(Debug, Default)]
pub struct Budget {
    /// Bytes so far.
    used: usize,
}

impl Budget {
    /// Adds `n` bytes; an error once the answer is too large.
    pub fn take(&mut self, provider: &str, n: usize) -> Result<(), ProviderError> {
        self.used = self.used.saturating_add(n);
        if self.used > MAX_ANSWER_BYTES {
            return Err(ProviderError::fatal(format!(
                "{provider} streamed more than {} MiB in one answer; zot stopped reading it (a runaway or malformed stream)",
                MAX_ANSWER_BYTES / 1024 / 1024
            )));
        }
        Ok(())
    }
}

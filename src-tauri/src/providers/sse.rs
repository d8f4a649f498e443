//! Turns a streamed HTTP body into SSE events with `eventsource-stream`,
//! mapping transport and parse failures to a [`ProviderError`].

use eventsource_stream::{Event, Eventsource};
use futures::{Stream, StreamExt};

use super::ProviderError;

/// The SSE events of a response, in order.
pub fn events(
    provider: &str,
    resp: reqwest::Response,
) -> impl Stream<Item = Result<Event, ProviderError>> + Send + Unpin {
    let provider = provider.to_owned();
    Box::pin(resp.bytes_stream().eventsource().map(move |r| {
        r.map_err(|e| ProviderError {
            message: format!("the {provider} stream broke off: {e}"),
            retryable: false,
            retry_after: None,
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

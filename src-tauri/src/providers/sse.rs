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

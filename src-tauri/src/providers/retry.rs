//! Retries 429 and 5xx answers (and connection failures) with exponential
//! backoff and jitter, honouring the server's `retry-after`.

use std::time::Duration;

use super::{retry_after, status_error, transport_error, ProviderError};

/// Attempts in all, the first included.
pub const MAX_ATTEMPTS: u32 = 4;

/// The first backoff step. `ZOT_RETRY_BASE_MS` overrides it so tests and
/// impatient users need not wait seconds.
fn base_delay() -> Duration {
    std::env::var("ZOT_RETRY_BASE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_millis(500))
}

/// The wait before attempt `attempt + 1`: `retry-after` when given (capped at
/// a minute), else base × 2^attempt with ±50 % jitter so many clients do not
/// retry in lockstep.
pub fn delay(attempt: u32, retry_after: Option<f64>) -> Duration {
    if let Some(s) = retry_after.filter(|s| s.is_finite() && *s >= 0.0) {
        return Duration::from_secs_f64(s.min(60.0));
    }
    let exp = base_delay().saturating_mul(1 << attempt.min(6));
    exp.mul_f64(0.5 + fastrand::f64())
        .min(Duration::from_secs(30))
}

/// Sends the request built by `build` until it answers with success, a
/// non-retryable error, or the attempts run out.
pub async fn send(
    provider: &str,
    url: &str,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response, ProviderError> {
    let mut attempt = 0;
    loop {
        let err = match build().send().await {
            Ok(resp) if resp.status().is_success() => return Ok(resp),
            Ok(resp) => {
                let status = resp.status();
                let after = retry_after(resp.headers());
                let body = resp.text().await.unwrap_or_default();
                status_error(provider, status, after, &body)
            }
            Err(e) => transport_error(provider, url, e),
        };
        attempt += 1;
        if !err.retryable || attempt >= MAX_ATTEMPTS {
            return Err(if err.retryable {
                ProviderError {
                    message: format!("{} (gave up after {attempt} attempts)", err.message),
                    ..err
                }
            } else {
                err
            });
        }
        tracing_log(&format!(
            "{} ; retrying (attempt {})",
            err.message,
            attempt + 1
        ));
        tokio::time::sleep(delay(attempt - 1, err.retry_after)).await;
    }
}

/// Retries are worth a line on stderr (never stdout, which carries frames).
fn tracing_log(msg: &str) {
    eprintln!("zot: {msg}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_wins_over_backoff() {
        assert_eq!(delay(3, Some(2.0)), Duration::from_secs(2));
    }

    #[test]
    fn backoff_grows_and_stays_within_jitter_bounds() {
        let base = base_delay();
        for attempt in 0..4 {
            let d = delay(attempt, None);
            let nominal = base * (1 << attempt);
            assert!(
                d >= nominal / 2 && d <= nominal * 3 / 2,
                "{d:?} vs {nominal:?}"
            );
        }
    }
}

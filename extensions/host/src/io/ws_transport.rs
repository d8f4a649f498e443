//! The WebSocket transport for native zot extensions (`"transport":
//! {"type":"websocket","url":"ws://…"}`): the host connects as a client and
//! speaks the same frames as over stdio, one JSON object per text message.
//! Two small tasks turn the socket into the [`FrameSink`] / [`FrameSource`]
//! pair the supervisor already serves, so timeouts, the registration
//! window, shutdown and the restart budget (which is the reconnect policy)
//! are those of a spawned extension. Each connection carries a fresh
//! challenge that the endpoint must answer in its `hello` (`ws_auth.rs`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use crate::config::MAX_LINE_BYTES;
use crate::io::channel_transport::{ChannelSink, ChannelSource, Outgoing};
use crate::io::connection::{FrameSink, FrameSource};

/// A connection: the pair that speaks zot frames, and the challenge its
/// endpoint must answer in `hello.auth`.
pub(crate) type Connected = (Arc<dyn FrameSink>, Box<dyn FrameSource>, String);

/// Connects to `url` within `timeout`, sending a fresh challenge.
pub(crate) async fn connect(url: &str, timeout: Duration) -> Result<Connected, String> {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_LINE_BYTES))
        .max_frame_size(Some(MAX_LINE_BYTES));
    let challenge = crate::io::ws_auth::challenge()?;
    let mut request = url
        .into_client_request()
        .map_err(|e| format!("could not connect to {url}: {e}"))?;
    let value = HeaderValue::from_str(&challenge).map_err(|e| e.to_string())?;
    request
        .headers_mut()
        .insert(crate::io::ws_auth::CHALLENGE_HEADER, value);
    let connecting = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    let (ws, _) = match tokio::time::timeout(timeout, connecting).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => return Err(format!("could not connect to {url}: {e}")),
        Err(_) => {
            return Err(format!(
                "could not connect to {url} within {} s",
                timeout.as_secs_f32()
            ))
        }
    };
    let (mut write, mut read) = ws.split();
    let (sink, mut out, queued) = ChannelSink::new();
    let (tx, source) = ChannelSource::new();
    tokio::spawn(async move {
        while let Some(msg) = out.recv().await {
            match msg {
                Outgoing::Frame(frame) => {
                    queued.fetch_sub(frame.len(), Ordering::AcqRel);
                    let text = String::from_utf8_lossy(&frame).into_owned();
                    if write.send(Message::text(text)).await.is_err() {
                        return;
                    }
                }
                Outgoing::Close => break,
            }
        }
        // A clean close: the extension reads the end of its input, as a
        // spawned one reads the end of stdin after `shutdown`.
        let _ = write.send(Message::Close(None)).await;
        let _ = write.close().await;
    });
    tokio::spawn(async move {
        while let Some(msg) = read.next().await {
            let line = match msg {
                Ok(Message::Text(t)) => t.as_bytes().to_vec(),
                Ok(Message::Binary(b)) => b.to_vec(),
                Ok(Message::Close(_)) => break,
                Ok(_) => continue,
                Err(e) => {
                    let _ = tx.send(Err(format!("the WebSocket connection broke: {e}")));
                    return;
                }
            };
            if tx.send(Ok(line)).is_err() {
                return;
            }
        }
    });
    Ok((sink, Box::new(source), challenge))
}

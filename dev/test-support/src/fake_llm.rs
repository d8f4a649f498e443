//! A fake LLM server for the tests: real HTTP on 127.0.0.1:0 speaking real
//! SSE in both wire formats (Anthropic Messages and OpenAI chat
//! completions). Replies are scripted in order; every request is recorded.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// `200 text/event-stream`: the chunks, written one by one with a short
    /// pause, then the connection closes.
    Sse(Vec<String>),
    /// Like `Sse`, but the connection then stays open until the client goes.
    SseThenHang(Vec<String>),
    /// `200 text/event-stream` whose chunks the test hands over one at a
    /// time through the [`LiveStream`] made with it ([`live`]), for
    /// measuring what happens to each one.
    Live(LiveFeed),
    /// A plain response.
    Status {
        /// HTTP status.
        code: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// Body.
        body: String,
    },
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// `POST`, `GET`.
    pub method: String,
    /// Path with query.
    pub path: String,
    /// Lowercased header names.
    pub headers: Vec<(String, String)>,
    /// The JSON body (Null when empty).
    pub body: Value,
    /// With [`FakeLlm::start_caching`], an Anthropic request's usage as the
    /// prompt cache billed it.
    pub cache: Option<CacheUsage>,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The running server.
#[derive(Clone)]
pub struct FakeLlm {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    replies: Arc<Mutex<VecDeque<Reply>>>,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    cache: Option<Arc<Mutex<CacheSim>>>,
}

impl FakeLlm {
    /// Starts the server on a free loopback port.
    pub async fn start() -> FakeLlm {
        Self::start_with(None).await
    }

    /// Like [`FakeLlm::start`], and Anthropic requests are billed by a
    /// prompt cache that works the way the API documents (see
    /// [`CacheSim`]): the usage in each scripted `message_start` is
    /// replaced by what the cache computed.
    pub async fn start_caching() -> FakeLlm {
        Self::start_with(Some(Arc::default())).await
    }

    async fn start_with(cache: Option<Arc<Mutex<CacheSim>>>) -> FakeLlm {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let s = FakeLlm {
            url,
            replies: Arc::default(),
            recorded: Arc::default(),
            cache,
        };
        let me = s.clone();
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let me = me.clone();
                tokio::spawn(async move { me.serve(sock).await });
            }
        });
        s
    }

    /// Queues replies, answered in order.
    pub fn push(&self, r: Reply) {
        self.replies.lock().unwrap().push_back(r);
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.recorded.lock().unwrap().clone()
    }

    async fn serve(&self, mut sock: TcpStream) {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let head_end = loop {
            if let Some(i) = find(&buf, b"\r\n\r\n") {
                break i;
            }
            match sock.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut first = lines.next().unwrap_or("").split(' ');
        let method = first.next().unwrap_or("").to_owned();
        let path = first.next().unwrap_or("").to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let len: usize = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = buf[head_end + 4..].to_vec();
        while body.len() < len {
            match sock.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => body.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let cache = match &self.cache {
            Some(sim) if path.ends_with("/v1/messages") => Some(sim.lock().unwrap().bill(&body)),
            _ => None,
        };
        self.recorded.lock().unwrap().push(Recorded {
            method: method.clone(),
            path: path.clone(),
            headers,
            body,
            cache,
        });
        if method == "GET" && path.ends_with("/models") {
            let b = json!({"data":[{"id":"fake-model-1"},{"id":"fake-model-2"}]}).to_string();
            let _ = write_plain(&mut sock, 200, &[], &b).await;
            return;
        }
        let reply = self.replies.lock().unwrap().pop_front();
        match reply {
            None => {
                let _ = write_plain(
                    &mut sock,
                    500,
                    &[],
                    r#"{"error":{"message":"the fake server has no scripted reply left"}}"#,
                )
                .await;
            }
            Some(Reply::Status {
                code,
                headers,
                body,
            }) => {
                let _ = write_plain(&mut sock, code, &headers, &body).await;
            }
            Some(Reply::Sse(chunks)) => {
                let chunks = match cache {
                    Some(u) => chunks.into_iter().map(|c| with_usage(c, u)).collect(),
                    None => chunks,
                };
                let _ = write_sse(&mut sock, &chunks).await;
            }
            Some(Reply::Live(feed)) => {
                let _ = feed.serve(&mut sock).await;
            }
            Some(Reply::SseThenHang(chunks)) => {
                if write_sse(&mut sock, &chunks).await.is_ok() {
                    // Wait for the client to hang up.
                    let mut b = [0u8; 16];
                    let _ = tokio::time::timeout(Duration::from_secs(60), sock.read(&mut b)).await;
                }
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

async fn write_plain(
    sock: &mut TcpStream,
    code: u16,
    headers: &[(String, String)],
    body: &str,
) -> std::io::Result<()> {
    let mut h = format!("HTTP/1.1 {code} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
    for (k, v) in headers {
        h.push_str(&format!("{k}: {v}\r\n"));
    }
    h.push_str("\r\n");
    sock.write_all(h.as_bytes()).await?;
    sock.write_all(body.as_bytes()).await?;
    sock.shutdown().await
}

const SSE_HEAD: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";

async fn write_sse(sock: &mut TcpStream, chunks: &[String]) -> std::io::Result<()> {
    sock.write_all(SSE_HEAD).await?;
    for c in chunks {
        sock.write_all(c.as_bytes()).await?;
        sock.flush().await?;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Ok(())
}

/// The server's end of a [`Reply::Live`] (taken by the one request that
/// gets the reply).
#[derive(Debug, Clone)]
pub struct LiveFeed {
    chunks: Arc<Mutex<Option<UnboundedReceiver<String>>>>,
    sent: UnboundedSender<Instant>,
}

impl LiveFeed {
    async fn serve(&self, sock: &mut TcpStream) -> std::io::Result<()> {
        let Some(mut chunks) = self.chunks.lock().unwrap().take() else {
            return Ok(());
        };
        sock.write_all(SSE_HEAD).await?;
        while let Some(c) = chunks.recv().await {
            let t = Instant::now();
            sock.write_all(c.as_bytes()).await?;
            let _ = self.sent.send(t);
        }
        Ok(())
    }
}

/// The test's end of a [`Reply::Live`]: chunks go out as they are sent, and
/// the reply ends when this is dropped.
pub struct LiveStream {
    chunks: UnboundedSender<String>,
    sent: UnboundedReceiver<Instant>,
}

impl LiveStream {
    /// Hands the server the next chunk.
    pub fn send(&self, chunk: String) {
        let _ = self.chunks.send(chunk);
    }

    /// When the oldest chunk not asked about yet started leaving the socket.
    pub async fn sent(&mut self) -> Instant {
        self.sent
            .recv()
            .await
            .expect("the live reply was never served")
    }
}

/// A reply streamed chunk by chunk as the test decides, and its handle.
pub fn live() -> (Reply, LiveStream) {
    let (chunks_tx, chunks_rx) = unbounded_channel();
    let (sent_tx, sent_rx) = unbounded_channel();
    let feed = LiveFeed {
        chunks: Arc::new(Mutex::new(Some(chunks_rx))),
        sent: sent_tx,
    };
    let stream = LiveStream {
        chunks: chunks_tx,
        sent: sent_rx,
    };
    (Reply::Live(feed), stream)
}

/// One SSE event in Anthropic's style (named event + data).
pub fn ev(name: &str, data: Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// One SSE `data:` line in OpenAI's style.
pub fn data(v: Value) -> String {
    format!("data: {v}\n\n")
}

/// Anthropic: streamed text in pieces, then `end_turn`.
pub fn anthropic_text(pieces: &[&str]) -> Reply {
    let mut c = vec![ev(
        "message_start",
        json!({"type":"message_start","message":{"id":"m1","usage":{"input_tokens":11,"output_tokens":1}}}),
    )];
    c.push(ev(
        "content_block_start",
        json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
    ));
    for p in pieces {
        c.push(ev(
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":p}}),
        ));
    }
    c.push(ev(
        "content_block_stop",
        json!({"type":"content_block_stop","index":0}),
    ));
    c.push(ev("message_delta", json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}})));
    c.push(ev("message_stop", json!({"type":"message_stop"})));
    Reply::Sse(c)
}

/// Anthropic: optional text, then one tool call whose args arrive in pieces.
pub fn anthropic_tool(text: &str, id: &str, name: &str, arg_pieces: &[&str]) -> Reply {
    let mut c = vec![ev(
        "message_start",
        json!({"type":"message_start","message":{"usage":{"input_tokens":20}}}),
    )];
    let mut i = 0;
    if !text.is_empty() {
        c.push(ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})));
        c.push(ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":text}})));
        c.push(ev(
            "content_block_stop",
            json!({"type":"content_block_stop","index":0}),
        ));
        i = 1;
    }
    c.push(ev("content_block_start", json!({"type":"content_block_start","index":i,"content_block":{"type":"tool_use","id":id,"name":name,"input":{}}})));
    for p in arg_pieces {
        c.push(ev("content_block_delta", json!({"type":"content_block_delta","index":i,"delta":{"type":"input_json_delta","partial_json":p}})));
    }
    c.push(ev(
        "content_block_stop",
        json!({"type":"content_block_stop","index":i}),
    ));
    c.push(ev("message_delta", json!({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}})));
    c.push(ev("message_stop", json!({"type":"message_stop"})));
    Reply::Sse(c)
}

/// OpenAI: streamed text in pieces, then `stop`, then usage and `[DONE]`.
pub fn openai_text(pieces: &[&str]) -> Reply {
    let mut c = vec![data(
        json!({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}),
    )];
    for p in pieces {
        c.push(data(json!({"choices":[{"index":0,"delta":{"content":p}}]})));
    }
    c.push(data(
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
    ));
    c.push(data(
        json!({"choices":[],"usage":{"prompt_tokens":13,"completion_tokens":4}}),
    ));
    c.push("data: [DONE]\n\n".into());
    Reply::Sse(c)
}

/// OpenAI: one tool call whose argument JSON arrives in pieces.
pub fn openai_tool(id: &str, name: &str, arg_pieces: &[&str]) -> Reply {
    let mut c = vec![data(
        json!({"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":id,"type":"function","function":{"name":name,"arguments":""}}]}}]}),
    )];
    for p in arg_pieces {
        c.push(data(json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":p}}]}}]})));
    }
    c.push(data(
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ));
    c.push(data(
        json!({"choices":[],"usage":{"prompt_tokens":30,"completion_tokens":9}}),
    ));
    c.push("data: [DONE]\n\n".into());
    Reply::Sse(c)
}

/// A status reply with a JSON error body in the shared `{error:{message}}` shape.
pub fn error_status(code: u16, message: &str, retry_after: Option<&str>) -> Reply {
    Reply::Status {
        code,
        headers: retry_after
            .map(|r| vec![("retry-after".to_owned(), r.to_owned())])
            .unwrap_or_default(),
        body: json!({"error":{"type":"x","message":message}}).to_string(),
    }
}

/// Anthropic: the model runs the tool search (`server_tool_use` with its
/// input streamed), the API answers with `tool_reference`s to `found`, and
/// the model calls `name` in the same answer.
pub fn anthropic_search_then_tool(
    pattern: &str,
    found: &str,
    id: &str,
    name: &str,
    args: &str,
) -> Reply {
    let mut c = vec![ev(
        "message_start",
        json!({"type":"message_start","message":{"usage":{"input_tokens":20}}}),
    )];
    c.push(ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_regex","input":{}}})));
    c.push(ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":json!({"pattern": pattern}).to_string()}})));
    c.push(ev(
        "content_block_stop",
        json!({"type":"content_block_stop","index":0}),
    ));
    c.push(ev("content_block_start", json!({"type":"content_block_start","index":1,"content_block":{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":found}]}}})));
    c.push(ev(
        "content_block_stop",
        json!({"type":"content_block_stop","index":1}),
    ));
    c.push(ev("content_block_start", json!({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":id,"name":name,"input":{}}})));
    c.push(ev("content_block_delta", json!({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":args}})));
    c.push(ev(
        "content_block_stop",
        json!({"type":"content_block_stop","index":2}),
    ));
    c.push(ev("message_delta", json!({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}})));
    c.push(ev("message_stop", json!({"type":"message_stop"})));
    Reply::Sse(c)
}

/// What the prompt cache billed for one request, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheUsage {
    /// Not from the cache, not written to it.
    pub input: u64,
    /// Read from the cache.
    pub cache_read: u64,
    /// Written to the cache.
    pub cache_write: u64,
}

impl CacheUsage {
    /// Every prompt token, however billed.
    pub fn total(&self) -> u64 {
        self.input + self.cache_read + self.cache_write
    }
}

/// Anthropic's prompt cache as its documentation describes it: the prompt
/// is a sequence of blocks in the order tools → system → messages (deferred
/// tools are not part of it); a block with `cache_control` is a breakpoint,
/// and the prefix up to it is written to the cache when it has at least
/// [`CacheSim::MIN_TOKENS`] tokens. A later request reads from the cache
/// the longest prefix that ends at one of its breakpoints, or up to
/// [`CacheSim::LOOKBACK`] blocks before one, and equals a prefix written
/// before; the part after that up to its last breakpoint is written; the
/// rest is plain input. Tokens are estimated as JSON bytes / 4, and
/// `cache_control` itself is not part of the content.
#[derive(Default)]
pub struct CacheSim {
    written: std::collections::HashSet<u64>,
}

impl CacheSim {
    /// The smallest cacheable prefix (Claude Sonnet's).
    pub const MIN_TOKENS: u64 = 1024;
    /// How many blocks before a breakpoint the API looks for a hit.
    pub const LOOKBACK: usize = 20;

    /// Bills one request body and remembers what it wrote.
    pub fn bill(&mut self, body: &Value) -> CacheUsage {
        use std::hash::{Hash, Hasher};
        let mut blocks: Vec<(String, bool)> = Vec::new();
        let mut take = |prefix: &str, v: &Value| {
            let mut v = v.clone();
            let marked = v
                .as_object_mut()
                .and_then(|o| o.remove("cache_control"))
                .is_some();
            blocks.push((format!("{prefix}{v}"), marked));
        };
        for t in body["tools"].as_array().into_iter().flatten() {
            if t["defer_loading"] != true {
                take("tool:", t);
            }
        }
        match &body["system"] {
            Value::String(s) => take("system:", &json!({"type":"text","text":s})),
            Value::Array(a) => a.iter().for_each(|b| take("system:", b)),
            _ => {}
        }
        for (i, m) in body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let role = m["role"].as_str().unwrap_or("");
            for b in m["content"].as_array().into_iter().flatten() {
                take(&format!("msg{i}:{role}:"), b);
            }
        }
        let mut hashes = Vec::with_capacity(blocks.len());
        let mut cum = Vec::with_capacity(blocks.len());
        let (mut h, mut tokens) = (std::collections::hash_map::DefaultHasher::new(), 0u64);
        for (text, _) in &blocks {
            text.hash(&mut h);
            hashes.push(h.finish());
            tokens += (text.len() as u64).div_ceil(4);
            cum.push(tokens);
        }
        let marks: Vec<usize> = blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.1)
            .map(|(i, _)| i)
            .collect();
        let mut read_to: Option<usize> = None;
        for &m in &marks {
            for j in (m.saturating_sub(Self::LOOKBACK)..=m).rev() {
                if self.written.contains(&hashes[j]) {
                    read_to = read_to.max(Some(j));
                    break;
                }
            }
        }
        let read = read_to.map_or(0, |j| cum[j]);
        let last = marks
            .last()
            .copied()
            .filter(|&m| cum[m] >= Self::MIN_TOKENS);
        let write = match last {
            Some(m) if read_to.is_none_or(|r| m > r) => cum[m] - read,
            _ => 0,
        };
        for &m in &marks {
            if cum[m] >= Self::MIN_TOKENS {
                self.written.insert(hashes[m]);
            }
        }
        CacheUsage {
            input: tokens - read - write,
            cache_read: read,
            cache_write: write,
        }
    }
}

/// A scripted SSE chunk with the cache's usage in its `message_start`.
fn with_usage(chunk: String, u: CacheUsage) -> String {
    let Some(data) = chunk
        .strip_prefix("event: message_start\ndata: ")
        .map(str::trim_end)
    else {
        return chunk;
    };
    let Ok(mut v) = serde_json::from_str::<Value>(data) else {
        return chunk;
    };
    v["message"]["usage"]["input_tokens"] = json!(u.input);
    v["message"]["usage"]["cache_read_input_tokens"] = json!(u.cache_read);
    v["message"]["usage"]["cache_creation_input_tokens"] = json!(u.cache_write);
    ev("message_start", v)
}

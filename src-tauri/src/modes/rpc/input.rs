//! RPC stdin, read without trusting it. A client (or whatever is piped in)
//! may send bytes that are not UTF-8 or a line with no end: `lines()` would
//! end the loop on the first and buffer the second whole. Here a line is
//! read in the reader's chunks, kept only up to [`MAX_LINE`] bytes and then
//! discarded up to its newline, and its bytes are checked for UTF-8 only
//! after it ended, so each bad line becomes one `success:false` answer and
//! the process keeps serving.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The longest command line zot accepts: far above any prompt with images a
/// client sends, far below what would hurt the machine.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// What the line buffer shrinks back to after a long line, so one big
/// prompt does not pin megabytes for the rest of the run.
const KEEP_CAPACITY: usize = 64 * 1024;

/// One line of input, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A UTF-8 line without its `\n` (or `\r\n`).
    Text(String),
    /// The line's bytes are not UTF-8; `at` is the first bad byte's offset.
    NotUtf8 {
        /// Offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// The line was longer than the limit; its bytes were dropped as they
    /// came. `len` counts them all (without the newline).
    TooLong {
        /// The whole line's length in bytes.
        len: u64,
    },
}

/// Splits a byte stream into [`Line`]s, holding at most `max` bytes of one.
pub struct LineReader<R> {
    /// The stream.
    inner: R,
    /// The limit in bytes.
    max: usize,
    /// The line being read.
    buf: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// A reader that refuses lines over `max` bytes.
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of the stream. A last line
    /// without a newline still counts.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        self.buf.clear();
        if self.buf.capacity() > KEEP_CAPACITY {
            self.buf.shrink_to(KEEP_CAPACITY);
        }
        // Once over the limit: how many bytes the line had.
        let mut dropped: Option<u64> = None;
        let mut read_any = false;
        loop {
            // A signal landing on the thread blocked in read(2) interrupts
            // it; that is not the end of input (the signal is handled
            // elsewhere), so read again without losing the line so far.
            let chunk = match self.inner.fill_buf().await {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                break;
            }
            read_any = true;
            let newline = memchr::memchr(b'\n', chunk);
            let used = newline.map_or(chunk.len(), |i| i + 1);
            let content = chunk.get(..newline.unwrap_or(chunk.len())).unwrap_or(&[]);
            match dropped.as_mut() {
                Some(n) => *n = n.saturating_add(content.len() as u64),
                None if self.buf.len().saturating_add(content.len()) > self.max => {
                    dropped = Some((self.buf.len() + content.len()) as u64);
                    self.buf.clear();
                    self.buf.shrink_to(KEEP_CAPACITY);
                }
                None => self.buf.extend_from_slice(content),
            }
            self.inner.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if let Some(len) = dropped {
            return Ok(Some(Line::TooLong { len }));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(judge(std::mem::take(&mut self.buf))))
    }
}

/// A complete line's bytes as text, or where they stop being UTF-8.
pub fn judge(bytes: Vec<u8>) -> Line {
    match String::from_utf8(bytes) {
        Ok(s) => Line::Text(s),
        Err(e) => Line::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], max: usize, chunk: usize) -> Vec<Line> {
        let r = tokio::io::BufReader::with_capacity(chunk, input);
        let mut lr = LineReader::new(r, max);
        let mut out = Vec::new();
        while let Some(l) = lr.next_line().await.unwrap() {
            out.push(l);
        }
        out
    }

    #[tokio::test]
    async fn lines_split_on_newlines_whatever_the_chunk_size() {
        for chunk in [1, 2, 3, 7, 64] {
            let got = all(b"ab\r\n\ncd\nlast", 100, chunk).await;
            assert_eq!(
                got,
                vec![
                    Line::Text("ab".into()),
                    Line::Text(String::new()),
                    Line::Text("cd".into()),
                    Line::Text("last".into()),
                ],
                "chunk {chunk}"
            );
        }
    }

    #[tokio::test]
    async fn a_bad_byte_spoils_only_its_own_line() {
        let got = all(b"ok\nx\xffy\n\xe2\x82\nok2\n", 100, 4).await;
        assert_eq!(
            got,
            vec![
                Line::Text("ok".into()),
                Line::NotUtf8 { at: 1 },
                Line::NotUtf8 { at: 0 },
                Line::Text("ok2".into()),
            ]
        );
    }

    #[tokio::test]
    async fn an_over_long_line_is_counted_and_dropped_and_the_next_one_read() {
        let mut input = vec![b'a'; 50];
        input.extend_from_slice(b"\nshort\n");
        input.extend(vec![b'b'; 11]);
        for chunk in [1, 4, 16, 1000] {
            let got = all(&input, 10, chunk).await;
            assert_eq!(
                got,
                vec![
                    Line::TooLong { len: 50 },
                    Line::Text("short".into()),
                    Line::TooLong { len: 11 },
                ],
                "chunk {chunk}"
            );
        }
        // Exactly at the limit is fine.
        assert_eq!(
            all(b"0123456789\n", 10, 3).await,
            vec![Line::Text("0123456789".into())]
        );
    }
}

//! `read`: a text file's lines (with offset and limit), or an image as an
//! image block the model can look at. Only regular files are read (see
//! `files.rs`), the file is streamed rather than loaded whole, and each
//! call returns at most [`MAX_LINES`] lines or [`MAX_BYTES`] of text, ending
//! with a line that says how to continue.

use std::io::Read as _;
use std::path::Path;

use async_trait::async_trait;
use base64::Engine;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::ContentBlock;

use super::{files, str_arg, Tool, ToolCtx, ToolOutput};
use crate::providers::ToolDef;

/// Lines returned per call, and when no `limit` is given.
pub const MAX_LINES: u64 = 2000;
/// Text returned per call, in bytes (the numbered lines as sent).
pub const MAX_BYTES: usize = 256 * 1024;
/// The largest image sent to the model, in bytes.
pub const MAX_IMAGE_BYTES: u64 = zot_ext_protocol::prompt_images::PROMPT_IMAGE_MAX_BYTES;
/// Longer lines are cut, so one minified file cannot flood the context.
const MAX_LINE: usize = 2000;
/// Bytes of one line kept before cutting (a char is at most 4 bytes).
const KEEP_LINE_BYTES: usize = MAX_LINE * 4;
/// After the returned lines, how far the rest is scanned to count its
/// lines; past this the last line says only that more follows.
const COUNT_BUDGET: u64 = 64 * 1024 * 1024;
/// Read size.
const CHUNK: usize = 64 * 1024;

/// The `read` tool.
pub struct Read;

/// The image MIME type for a file name, if it is an image.
fn image_mime(path: &str) -> Option<&'static str> {
    let ext = path.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        _ => return None,
    })
}

/// The first line (from 1) and how many lines, from the call's args; bad
/// values are an error for the model, huge ones are clamped.
fn window(args: &Value) -> Result<(u64, u64), String> {
    let offset = match args.get("offset") {
        None | Some(Value::Null) => 1,
        Some(v) => match v.as_u64() {
            // 0 reads as "from the start", as most callers mean it.
            Some(o) => o.max(1),
            None => {
                return Err(format!(
                "offset must be a line number from 1 (got {v}); leave it out to start at the top"
            ))
            }
        },
    };
    let limit = match args.get("limit") {
        None | Some(Value::Null) => MAX_LINES,
        Some(v) => match v.as_u64() {
            Some(l) if l >= 1 => l.min(MAX_LINES),
            _ => {
                return Err(format!(
                    "limit must be a number of lines from 1 to {MAX_LINES} (got {v}); leave it out for {MAX_LINES}"
                ))
            }
        },
    };
    Ok((offset, limit))
}

#[async_trait]
impl Tool for Read {
    fn def(&self) -> ToolDef {
        ToolDef {
            name: "read".into(),
            description: format!("Read a regular file. Text comes back as numbered lines, at most {MAX_LINES} lines or {} KiB per call; use offset (1-based first line) and limit to read further. Images (png, jpeg, gif, webp, up to {} MiB) come back as images.", MAX_BYTES / 1024, MAX_IMAGE_BYTES / 1024 / 1024),
            schema: json!({"type":"object","properties":{
                "path":{"type":"string","description":"file path, relative to the project directory or absolute"},
                "offset":{"type":"integer","description":"first line to return, from 1"},
                "limit":{"type":"integer","description":format!("how many lines to return, 1 to {MAX_LINES}")}},
                "required":["path"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let path = str_arg(&args, "path").to_owned();
        let full = ctx.path(&path);
        let (offset, limit) = match window(&args) {
            Ok(w) => w,
            Err(e) => return ToolOutput::err(e),
        };
        let cancel = ctx.cancel.clone();
        // Blocking reads on a blocking thread; the cancel token stops a
        // long scan early, and the caller races the call against abort.
        let r = tokio::task::spawn_blocking(move || {
            if let Some(mime) = image_mime(&path) {
                read_image(&full, mime)
            } else {
                read_text(&full, offset, limit, &cancel)
            }
        })
        .await;
        match r {
            Ok(Ok(out)) => out,
            Ok(Err(e)) => ToolOutput::err(e),
            Err(e) => ToolOutput::err(format!("read failed: {e}")),
        }
    }
}

/// An image file as one image block, if it is small enough.
fn read_image(full: &Path, mime: &str) -> Result<ToolOutput, String> {
    let (file, len) = files::open_read(full)?;
    let too_big = || {
        format!(
            "cannot read {}: the image is larger than {} MiB, the most sent to the model; make a smaller copy (e.g. with bash) and read that",
            full.display(),
            MAX_IMAGE_BYTES / 1024 / 1024
        )
    };
    if len > MAX_IMAGE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    // The file may grow after the size check.
    file.take(MAX_IMAGE_BYTES.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", full.display()))?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > MAX_IMAGE_BYTES) {
        return Err(too_big());
    }
    Ok(ToolOutput {
        content: vec![ContentBlock::Image {
            mime_type: mime.into(),
            data: base64::engine::general_purpose::STANDARD.encode(&bytes),
        }],
        is_error: false,
    })
}

/// The lines being collected while the file streams past.
struct Window {
    /// First line wanted (from 1).
    offset: u64,
    /// Last line wanted, inclusive.
    last: u64,
    /// The numbered lines so far.
    out: String,
    /// The line after the last one returned, once output stopped.
    stopped_at: Option<u64>,
    /// Whether output stopped at [`MAX_BYTES`] rather than the line limit.
    byte_capped: bool,
}

impl Window {
    /// Adds line `n` (its first bytes) if it is wanted and fits.
    fn line(&mut self, n: u64, bytes: &[u8], cut: bool) {
        if self.stopped_at.is_some() || n < self.offset {
            return;
        }
        if n > self.last {
            self.stopped_at = Some(n);
            return;
        }
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let text = String::from_utf8_lossy(bytes);
        let text: String = if cut || text.chars().count() > MAX_LINE {
            format!(
                "{}… [line cut]",
                text.chars().take(MAX_LINE).collect::<String>()
            )
        } else {
            text.into_owned()
        };
        let formatted = format!("{n:>6}\t{text}\n");
        if self.out.len().saturating_add(formatted.len()) > MAX_BYTES {
            self.stopped_at = Some(n);
            self.byte_capped = true;
            return;
        }
        self.out.push_str(&formatted);
    }
}

/// Streams a text file, keeping lines `offset..offset+limit` and counting
/// the rest (up to [`COUNT_BUDGET`]); memory stays bounded whatever the
/// file's size or line lengths.
fn read_text(
    full: &Path,
    offset: u64,
    limit: u64,
    cancel: &CancellationToken,
) -> Result<ToolOutput, String> {
    let (mut file, _) = files::open_read(full)?;
    let mut w = Window {
        offset,
        last: offset.saturating_add(limit.saturating_sub(1)),
        out: String::new(),
        stopped_at: None,
        byte_capped: false,
    };
    let mut chunk = vec![0u8; CHUNK];
    // The current line: its number, its kept bytes, whether it was cut and
    // whether any byte of it has been seen.
    let mut n: u64 = 1;
    let mut cur: Vec<u8> = Vec::new();
    let mut cut = false;
    let mut open = false;
    let mut scanned_after: u64 = 0;
    let mut complete = true;
    loop {
        if cancel.is_cancelled() {
            return Err("aborted by the user".into());
        }
        let got = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", full.display())),
        };
        if w.stopped_at.is_some() {
            scanned_after = scanned_after.saturating_add(u64::try_from(got).unwrap_or(u64::MAX));
            if scanned_after > COUNT_BUDGET {
                complete = false;
                break;
            }
        }
        let mut rest = chunk.get(..got).unwrap_or_default();
        while !rest.is_empty() {
            let (piece, ended) = match rest.iter().position(|b| *b == b'\n') {
                Some(i) => (rest.get(..i).unwrap_or_default(), true),
                None => (rest, false),
            };
            rest = rest
                .get(piece.len().saturating_add(usize::from(ended))..)
                .unwrap_or_default();
            open = true;
            if w.stopped_at.is_none() && n >= w.offset {
                let room = KEEP_LINE_BYTES.saturating_sub(cur.len());
                cur.extend_from_slice(piece.get(..room.min(piece.len())).unwrap_or_default());
                cut |= piece.len() > room;
            }
            if ended {
                w.line(n, &cur, cut);
                cur.clear();
                cut = false;
                open = false;
                n = n.saturating_add(1);
            }
        }
    }
    if open {
        w.line(n, &cur, cut);
        n = n.saturating_add(1);
    }
    // Lines seen in all (exact when the scan was complete).
    let total = n.saturating_sub(1);
    if complete && offset > total.max(1) {
        return Err(format!(
            "offset {offset} is past the end of {} ({total} lines)",
            full.display()
        ));
    }
    let mut out = w.out;
    if let Some(next) = w.stopped_at.filter(|next| !complete || *next <= total) {
        let why = if w.byte_capped {
            format!(" (this call stopped at the {} KiB cap)", MAX_BYTES / 1024)
        } else {
            String::new()
        };
        if complete {
            let more = total.saturating_sub(next).saturating_add(1);
            out.push_str(&format!(
                "[{more} more lines; continue with offset {next}{why}]\n"
            ));
        } else {
            out.push_str(&format!(
                "[more lines follow; continue with offset {next}{why}]\n"
            ));
        }
    }
    Ok(ToolOutput::ok(out))
}

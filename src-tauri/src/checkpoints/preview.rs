//! The preview of a rewind of code: each file that would change, its
//! content now and at the checkpoint (for the window's diff card), and
//! whether it was changed outside zot. A change is zot's when it happened
//! while one of zot's prompts ran (between a checkpoint and the tree
//! recorded after that prompt); anything else since the checkpoint (the
//! user's editor, a build between prompts) is marked `outside`, so the
//! user sees that the rewind undoes it too.

use std::collections::HashSet;

use zot_ext_protocol::checkpoints::{FileChange, FileChangeKind};

use super::shadow::{Change, Shadow};

/// Largest file whose text the preview carries (256 KiB).
pub const TEXT_MAX: usize = 256 * 1024;

/// The preview of rewinding to `id`; `later` are the checkpoints after it
/// in the transcript, oldest first.
pub fn build(shadow: &Shadow, id: &str, later: &[String]) -> anyhow::Result<Vec<FileChange>> {
    let now = shadow.tree()?.id;
    let changes = shadow.changes(&now, id)?;
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    let outside = outside_paths(shadow, id, later, &now)?;
    let mut wanted = Vec::with_capacity(changes.len() * 2);
    for (path, _) in &changes {
        wanted.push((now.clone(), path.clone()));
        wanted.push((id.to_owned(), path.clone()));
    }
    let contents = shadow.contents(&wanted)?;
    let mut out = Vec::with_capacity(changes.len());
    for (i, (path, change)) in changes.into_iter().enumerate() {
        let now_bytes = contents.get(2 * i).cloned().flatten();
        let then_bytes = contents.get(2 * i + 1).cloned().flatten();
        let (now_text, n1) = text(now_bytes);
        let (then_text, n2) = text(then_bytes);
        out.push(FileChange {
            outside: outside.contains(&path),
            path,
            change: match change {
                Change::Added => FileChangeKind::Added,
                Change::Modified => FileChangeKind::Modified,
                Change::Deleted => FileChangeKind::Deleted,
            },
            now: now_text,
            then: then_text,
            note: n1.or(n2),
        });
    }
    Ok(out)
}

/// Paths changed outside zot's prompts since checkpoint `id`: between the
/// tree after each prompt and the next checkpoint, and since the last
/// prompt ended.
fn outside_paths(
    shadow: &Shadow,
    id: &str,
    later: &[String],
    now: &str,
) -> anyhow::Result<HashSet<String>> {
    let mut out = HashSet::new();
    let chain: Vec<&str> = std::iter::once(id)
        .chain(later.iter().map(String::as_str))
        .collect();
    for (i, cp) in chain.iter().enumerate() {
        let next = chain.get(i + 1).copied().unwrap_or(now);
        if let Some(after) = shadow.after(cp) {
            for (p, _) in shadow.changes(&after, next)? {
                out.insert(p);
            }
        }
    }
    Ok(out)
}

/// The text of a file for the diff card, or why there is none.
fn text(bytes: Option<Vec<u8>>) -> (Option<String>, Option<String>) {
    match bytes {
        None => (None, None),
        Some(b) if b.len() > TEXT_MAX => (None, Some("too large to show".into())),
        Some(b) if b.contains(&0) => (None, Some("binary".into())),
        Some(b) => match String::from_utf8(b) {
            Ok(s) => (Some(s), None),
            Err(_) => (None, Some("binary".into())),
        },
    }
}

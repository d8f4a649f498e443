//! One project's shadow repository: snapshots of the working tree as git
//! commits in `$ZOT_HOME/checkpoints/<project>/repo`, with the index in
//! `…/index`, never in the project's own `.git`. What a snapshot holds is
//! what `git add -A` would stage (tracked and untracked files, minus what
//! `.gitignore`, `.git/info/exclude` and the global excludes ignore; git
//! never descends into `.git`). A nested repository is recorded as a
//! gitlink (its commit), not its files.
//!
//! Each checkpoint is a commit with a loose ref `refs/zot/cp/<id>`, so it
//! survives `git prune` until `checkpoints::prune` drops the ref. The
//! working tree after a prompt is kept as `refs/zot/after/<id>` (a tree):
//! a change between that and the next snapshot was made outside zot.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

use super::git::{self, Git};

/// The shadow repository of one project.
#[derive(Debug, Clone)]
pub struct Shadow {
    /// `$ZOT_HOME/checkpoints/<project key>`.
    dir: PathBuf,
    /// Commands bound to it.
    git: Git,
}

/// A snapshot of the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The commit (a checkpoint) or tree id.
    pub id: String,
    /// Files git could not read, left out of it.
    pub unreadable: Vec<String>,
}

/// How a file differs between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Only in the second.
    Added,
    /// In both, different.
    Modified,
    /// Only in the first.
    Deleted,
}

/// The directory name of a project's shadow repository: readable, and
/// unique by a hash of the whole path (two paths that read alike after
/// making them safe for a file name still get two repositories).
pub fn project_key(cwd: &Path) -> String {
    let raw = cwd.to_string_lossy();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in raw.as_bytes() {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let name: String = cwd
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(40)
        .collect();
    format!(
        "{}-{hash:016x}",
        if name.is_empty() { "root" } else { &name }
    )
}

/// Whether `id` looks like a full object id (what the RPC accepts).
pub fn is_object_id(id: &str) -> bool {
    matches!(id.len(), 40 | 64) && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Shadow {
    /// Opens (creating if missing, 0700) the shadow repository of `cwd`.
    pub fn open(zot_home: &Path, cwd: &Path) -> anyhow::Result<Shadow> {
        let dir = zot_home.join("checkpoints").join(project_key(cwd));
        create_private(&zot_home.join("checkpoints"))?;
        create_private(&dir)?;
        let git_dir = dir.join("repo");
        git::init(&git_dir)?;
        // Which project this is, for `zot checkpoints prune` over every
        // project (the key hashes the path; this says it plainly).
        let project = dir.join("project");
        if !project.is_file() {
            std::fs::write(&project, cwd.to_string_lossy().as_bytes())
                .with_context(|| format!("cannot write {}", project.display()))?;
        }
        Ok(Shadow {
            git: Git {
                git_dir,
                work_tree: cwd.to_path_buf(),
                index: dir.join("index"),
            },
            dir,
        })
    }

    /// Where it lives.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The git commands bound to it.
    pub fn git(&self) -> &Git {
        &self.git
    }

    /// Stages the working tree into the shadow index and writes it as a
    /// tree. Files git cannot read are skipped (`--ignore-errors`) and
    /// named in [`Snapshot::unreadable`].
    pub fn tree(&self) -> anyhow::Result<Snapshot> {
        let add = self
            .git
            .command(["add", "-A", "--ignore-errors", "--", "."])
            .output()
            .context("cannot run git add for a checkpoint (is git installed and on PATH?)")?;
        let stderr = String::from_utf8_lossy(&add.stderr);
        let unreadable = unreadable_paths(&stderr);
        if !add.status.success() && unreadable.is_empty() {
            anyhow::bail!(
                "git add failed in the checkpoint repository: {}",
                stderr.trim()
            );
        }
        let id = self.git.text(["write-tree"])?;
        Ok(Snapshot { id, unreadable })
    }

    /// A checkpoint: a snapshot as a commit, kept by its own ref. Two
    /// checkpoints of the same tree in the same second still get two ids
    /// (a prompt that changed nothing is followed by one with the same
    /// files): the message carries this process and a counter.
    pub fn checkpoint(&self, note: &str) -> anyhow::Result<Snapshot> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let tree = self.tree()?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let message = format!(
            "{note}\n\nzot {} {nanos} {}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        let id = self.git.text(["commit-tree", &tree.id, "-m", &message])?;
        self.write_ref(&format!("refs/zot/cp/{id}"), &id)?;
        Ok(Snapshot {
            id,
            unreadable: tree.unreadable,
        })
    }

    /// Records the working tree as it is after the prompt of checkpoint
    /// `id` (a tree under `refs/zot/after/<id>`).
    pub fn mark_after(&self, id: &str) -> anyhow::Result<()> {
        let tree = self.tree()?;
        self.write_ref(&format!("refs/zot/after/{id}"), &tree.id)
    }

    /// The tree recorded after checkpoint `id`'s prompt, if any.
    pub fn after(&self, id: &str) -> Option<String> {
        self.read_ref(&format!("refs/zot/after/{id}"))
    }

    /// Whether checkpoint `id` is in this repository.
    pub fn has(&self, id: &str) -> bool {
        is_object_id(id) && self.read_ref(&format!("refs/zot/cp/{id}")).is_some()
    }

    /// Every checkpoint's creation time (RFC 3339), by id.
    pub fn created(&self) -> anyhow::Result<HashMap<String, String>> {
        let out = self.git.text([
            "for-each-ref",
            "--format=%(objectname) %(committerdate:iso-strict)",
            "refs/zot/cp/",
        ])?;
        Ok(out
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(id, at)| (id.to_owned(), at.to_owned()))
            .collect())
    }

    /// What differs between two snapshots (commits or trees), by path.
    pub fn changes(&self, from: &str, to: &str) -> anyhow::Result<Vec<(String, Change)>> {
        let out = self.git.run([
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--name-status",
            from,
            to,
        ])?;
        let mut parts = out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty());
        let mut changes = Vec::new();
        while let (Some(status), Some(path)) = (parts.next(), parts.next()) {
            let change = match status.first() {
                Some(b'A') => Change::Added,
                Some(b'D') => Change::Deleted,
                _ => Change::Modified,
            };
            changes.push((String::from_utf8_lossy(path).into_owned(), change));
        }
        Ok(changes)
    }

    /// The contents of `path` in each snapshot asked for (`None` where it
    /// is absent), read with one `git cat-file --batch`.
    pub fn contents(&self, wanted: &[(String, String)]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let mut child = self
            .git
            .command(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot run git cat-file in the checkpoint repository")?;
        let mut input = Vec::new();
        for (rev, path) in wanted {
            input.extend_from_slice(format!("{rev}:{path}\n").as_bytes());
        }
        let mut stdin = child.stdin.take().context("git cat-file has no stdin")?;
        // Written from a thread: git answers while it reads, and a full
        // stdout pipe would otherwise stall both.
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output()?;
        let _ = writer.join();
        parse_batch(&out.stdout, wanted.len())
    }

    /// Makes the working tree match checkpoint `id`: first a checkpoint of
    /// the tree as it is now (so the rewind itself can be undone), then
    /// git writes the files that differ and removes the ones `id` did not
    /// have. Ignored files are never touched. Answers the undo checkpoint
    /// and the paths changed.
    pub fn restore(&self, id: &str) -> anyhow::Result<(String, Vec<String>)> {
        let undo = self.checkpoint(&format!("before rewind to {id}"))?;
        let changes = self.changes(&undo.id, id)?;
        self.git
            .run(["read-tree", "-m", "-u", &undo.id, id])
            .with_context(|| format!("cannot restore checkpoint {id}"))?;
        for (path, change) in &changes {
            if *change == Change::Deleted {
                remove_empty_parents(&self.git.work_tree, Path::new(path));
            }
        }
        Ok((undo.id, changes.into_iter().map(|(p, _)| p).collect()))
    }

    /// Every checkpoint id with a ref.
    pub fn ids(&self) -> Vec<String> {
        let d = self.git.git_dir.join("refs/zot/cp");
        std::fs::read_dir(d)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| is_object_id(n))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Drops checkpoint `id` (its ref and its after-tree); the objects go
    /// at the next `git prune`.
    pub fn drop_ref(&self, id: &str) {
        for kind in ["cp", "after"] {
            let _ = std::fs::remove_file(self.git.git_dir.join(format!("refs/zot/{kind}/{id}")));
        }
    }

    /// Deletes unreachable objects now.
    pub fn prune_objects(&self) -> anyhow::Result<()> {
        self.git.run(["prune", "--expire=now"]).map(|_| ())
    }

    fn write_ref(&self, name: &str, id: &str) -> anyhow::Result<()> {
        let path = self.git.git_dir.join(name);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).with_context(|| format!("cannot create {}", p.display()))?;
        }
        // Written whole then renamed: a kill never leaves half a ref.
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, format!("{id}\n"))
            .and_then(|()| std::fs::rename(&tmp, &path))
            .with_context(|| format!("cannot write checkpoint ref {}", path.display()))
    }

    fn read_ref(&self, name: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.git.git_dir.join(name)).ok()?;
        let id = text.trim();
        is_object_id(id).then(|| id.to_owned())
    }
}

/// The paths git named in `error: open("…"): …` or `unable to index file
/// '…'` lines of `git add --ignore-errors`.
pub fn unreadable_paths(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let found = line
            .strip_prefix("error: open(\"")
            .and_then(|r| r.split_once("\")").map(|(p, _)| p))
            .or_else(|| {
                line.strip_prefix("error: unable to index file '")
                    .and_then(|r| r.strip_suffix('\''))
            })
            .or_else(|| {
                line.strip_prefix("error: unable to index file ")
                    .map(str::trim)
            });
        if let Some(p) = found {
            if !out.iter().any(|q| q == p) {
                out.push(p.to_owned());
            }
        }
    }
    out
}

/// Splits `git cat-file --batch` output into one entry per request.
fn parse_batch(mut out: &[u8], n: usize) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
    let mut res = Vec::with_capacity(n);
    for _ in 0..n {
        let nl = memchr::memchr(b'\n', out).context("git cat-file: short answer")?;
        let (head, rest) = out.split_at(nl);
        let head = String::from_utf8_lossy(head);
        let rest = rest.get(1..).unwrap_or_default();
        if head.ends_with(" missing") || head.ends_with(" ambiguous") {
            res.push(None);
            out = rest;
            continue;
        }
        let size: usize = head
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("git cat-file: unexpected header {head}"))?;
        let body = rest.get(..size).context("git cat-file: short body")?;
        res.push(Some(body.to_vec()));
        out = rest.get(size + 1..).unwrap_or_default();
    }
    Ok(res)
}

/// Removes the directories a deleted file leaves empty, up to the project.
fn remove_empty_parents(root: &Path, rel: &Path) {
    let mut dir = rel.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if std::fs::remove_dir(root.join(d)).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Creates `d` (0700) if missing.
fn create_private(d: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(crate::state_dir::DIR_MODE)
        .create(d)
        .with_context(|| format!("cannot create checkpoint directory {}", d.display()))
}

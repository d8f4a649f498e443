//! `zot ext enable|disable`: flip `enabled` in an `extension.json` without
//! disturbing anything else. Every other field and the key order survive
//! (serde_json keeps insertion order in this workspace), and the file is
//! replaced atomically, so a crash never leaves half a manifest.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

use crate::manage::ext_ops::{OpsError, OpsResult};

/// Sets `enabled` in the manifest at `manifest`. Returns `false` when it
/// already had that value (the file is then left untouched).
pub fn set_enabled(manifest: &Path, enabled: bool) -> OpsResult<bool> {
    let text = std::fs::read_to_string(manifest).map_err(OpsError::io("read", manifest))?;
    let mut value: Value = serde_json::from_str(&text).map_err(|e| OpsError::BadManifest {
        file: manifest.to_path_buf(),
        reason: format!("{e}; fix the JSON before enabling or disabling"),
    })?;
    let Value::Object(fields) = &mut value else {
        return Err(OpsError::BadManifest {
            file: manifest.to_path_buf(),
            reason: "the top level is not a JSON object".into(),
        });
    };
    // A missing `enabled` means true.
    let current = match fields.get("enabled") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(OpsError::BadManifest {
                file: manifest.to_path_buf(),
                reason: format!("field `enabled` must be true or false, not {other}"),
            })
        }
    };
    if current == enabled && fields.contains_key("enabled") {
        return Ok(false);
    }
    // Replacing an existing key keeps its position; a new one goes last.
    fields.insert("enabled".into(), Value::Bool(enabled));
    let mut out = serde_json::to_string_pretty(&value)
        .map_err(|e| std::io::Error::other(e.to_string()))
        .map_err(OpsError::io("write", manifest))?;
    out.push('\n');
    write_atomically(manifest, out.as_bytes())?;
    Ok(current != enabled)
}

/// Writes `bytes` to a temp file beside `path`, flushes it to disk and
/// renames it over `path`, keeping the file's permissions.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> OpsResult<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Unique per call, so two writers in one process never share a temp file.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(OpsError::io("write", path)(e));
    }
    Ok(())
}

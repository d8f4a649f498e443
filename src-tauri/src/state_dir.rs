//! `$ZOT_HOME` holds API keys (`auth.json`), settings, transcripts and
//! extension logs that quote prompts and tool output: none of it is anyone
//! else's business on a shared machine. zot creates the directory and its
//! `logs/` at mode 0700 and the files it writes there at 0600, and
//! tightens ones an older zot left readable by others. Sessions are the
//! agent's (`agent::session`), extension logs are opened by the host; both
//! land in directories made here.

use std::path::Path;

use anyhow::Context;

/// Mode of every directory zot makes under `$ZOT_HOME`.
pub const DIR_MODE: u32 = 0o700;
/// Mode of every file zot writes there.
pub const FILE_MODE: u32 = 0o600;

/// Files directly under `$ZOT_HOME` that hold secrets or settings.
const PRIVATE_FILES: [&str; 2] = ["auth.json", "config.json"];

/// Makes `$ZOT_HOME` and `$ZOT_HOME/logs` (0700) and tightens what is
/// already there: the two directories, `auth.json`, `config.json` and
/// every log file. A file zot cannot tighten (another owner) is reported
/// on stderr and left alone; a directory it cannot create is an error.
pub fn prepare(home: &Path) -> anyhow::Result<()> {
    for dir in [home.to_path_buf(), home.join("logs")] {
        create_private_dir(&dir).with_context(|| {
            format!(
                "cannot create zot's state directory {}; set ZOT_HOME to a directory you can write",
                dir.display()
            )
        })?;
        tighten(&dir, DIR_MODE);
    }
    for f in PRIVATE_FILES {
        tighten(&home.join(f), FILE_MODE);
    }
    if let Ok(entries) = std::fs::read_dir(home.join("logs")) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_file()) {
                tighten(&e.path(), FILE_MODE);
            }
        }
    }
    Ok(())
}

/// `mkdir -p` where every directory it makes is 0700 (existing ones keep
/// their mode).
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(DIR_MODE);
    }
    b.create(dir)
}

/// Writes `path` whole or not at all, readable only by its owner: the
/// host crate's one implementation (a 0600 temp file, synced, renamed).
pub use zot_ext_host::private_file::write as write_private;

/// Narrows `path` to `mode` when it allows more; missing files are fine.
fn tighten(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return;
        };
        // A symlink's target may be anyone's file; leave it be.
        if meta.file_type().is_symlink() || meta.permissions().mode() & 0o777 & !mode == 0 {
            return;
        }
        if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
            eprintln!(
                "zot: {} is readable by other users and could not be restricted to {mode:o} ({e}); fix it with chmod {mode:o}",
                path.display()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_fresh_home_and_its_logs_are_private() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("a/b/zot");
        prepare(&home).unwrap();
        assert_eq!(mode(&home), 0o700);
        assert_eq!(mode(&home.join("logs")), 0o700);
        assert_eq!(mode(&t.path().join("a")), 0o700);
    }

    #[test]
    fn an_old_readable_home_is_tightened() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("zot");
        std::fs::create_dir_all(home.join("logs")).unwrap();
        for p in ["auth.json", "config.json", "logs/ext-x.log"] {
            std::fs::write(home.join(p), "{}").unwrap();
            std::fs::set_permissions(home.join(p), std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        for d in [&home, &home.join("logs")] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        prepare(&home).unwrap();
        assert_eq!(mode(&home), 0o700);
        assert_eq!(mode(&home.join("logs")), 0o700);
        for p in ["auth.json", "config.json", "logs/ext-x.log"] {
            assert_eq!(mode(&home.join(p)), 0o600, "{p}");
        }
    }

    #[test]
    fn private_writes_replace_whole_files_at_0600() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("new/config.json");
        write_private(&p, b"one").unwrap();
        write_private(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(p.parent().unwrap()), 0o700);
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }
}

//! Whether a path a tool will write lies inside the project: resolved the
//! way the OS will resolve it at write time (symlinks followed, `..`
//! applied after them), not by looking at the string. A link inside the
//! project that points outside is outside.

use std::path::{Component, Path, PathBuf};

/// Symlinks followed through a path before it is judged outside (a loop).
const MAX_LINKS: u32 = 40;

/// Where `path` (relative to `cwd` unless absolute) really points, as far
/// as it exists; `None` when it cannot be told (a dangling or looping
/// link), which the caller treats as outside.
pub fn resolve(cwd: &Path, path: &str) -> Option<PathBuf> {
    let p = Path::new(path);
    let full = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    let mut links = 0;
    walk(&full, &mut links)
}

/// Resolves `full` component by component.
fn walk(full: &Path, links: &mut u32) -> Option<PathBuf> {
    let mut cur = PathBuf::from("/");
    // Whether `cur` exists so far: past a missing component nothing can be
    // a link, and `..` is applied to the name (as the OS will once the
    // directories are created).
    let mut exists = true;
    for c in full.components() {
        match c {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                cur.pop();
            }
            Component::Normal(name) => {
                cur.push(name);
                if !exists {
                    continue;
                }
                match std::fs::symlink_metadata(&cur) {
                    Err(_) => exists = false,
                    Ok(m) if m.file_type().is_symlink() => {
                        *links += 1;
                        if *links > MAX_LINKS {
                            return None;
                        }
                        let target = std::fs::read_link(&cur).ok()?;
                        cur.pop();
                        let next = if target.is_absolute() {
                            target
                        } else {
                            cur.join(target)
                        };
                        cur = walk(&next, links)?;
                        // A link to nothing: the write would create its
                        // target, wherever it points.
                        exists = std::fs::symlink_metadata(&cur).is_ok();
                    }
                    Ok(_) => {}
                }
            }
        }
    }
    Some(cur)
}

/// Whether `path` resolves inside the project `cwd` (itself canonical).
/// Returns the resolved path for the reason shown to the user.
pub fn inside(cwd: &Path, path: &str) -> (bool, Option<PathBuf>) {
    let root = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    match resolve(&root, path) {
        Some(r) => (r.starts_with(&root), Some(r)),
        None => (false, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_judged_where_they_really_point() {
        let outer = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(outer.path()).unwrap();
        let cwd = root.join("proj");
        std::fs::create_dir_all(cwd.join("src")).unwrap();
        std::fs::create_dir_all(root.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere"), cwd.join("out")).unwrap();
        std::os::unix::fs::symlink("../elsewhere/f", cwd.join("dangling")).unwrap();
        std::os::unix::fs::symlink("loop", cwd.join("loop")).unwrap();
        let yes = |p: &str| assert!(inside(&cwd, p).0, "{p} should be inside");
        let no = |p: &str| assert!(!inside(&cwd, p).0, "{p} should be outside");
        yes("a.txt");
        yes("src/new/deeper/x.rs");
        yes("src/../b.txt");
        yes(cwd.join("src/x").to_str().unwrap());
        yes("new/../../proj/c.txt");
        no("../x.txt");
        no("src/../../x.txt");
        no("/etc/passwd");
        no("out/x.txt");
        // `..` applies after the link, as the OS does: back into the project.
        yes("out/../proj/x.txt");
        no("dangling");
        no("loop/x");
        no("new/../../x");
        assert_eq!(
            inside(&cwd, "out/x.txt").1.unwrap(),
            root.join("elsewhere/x.txt")
        );
    }
}

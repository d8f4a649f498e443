//! Where a path a tool will read or write really lies: resolved the way
//! the OS will resolve it at that time (symlinks followed, `..` applied
//! after them), not by looking at the string. A link inside the project
//! that points outside is outside. [`place`] sorts the result into what
//! the approval policy treats differently: the kernel's views of processes
//! and devices, zot's own state, outside the project, the project's
//! `.zot/` and `.git/` (which zot and git run code from), and the rest of
//! the project.

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

/// The kernel's views of processes, devices and its own settings: under
/// them lie zot's own environment, memory maps and open files.
pub const SYSTEM_DIRS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// Folders of a project that programs run code from: zot loads the
/// project's extensions from `.zot/`, git runs hooks from `.git/`.
pub const CODE_DIRS: [&str; 2] = [".zot", ".git"];

/// Where a path lies, for the approval policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// It goes through a dangling or looping link: zot cannot tell.
    Unknown,
    /// Under `/proc`, `/sys` or `/dev`.
    System(PathBuf),
    /// Under `$ZOT_HOME` (keys, settings, approval rules, sessions).
    ZotHome(PathBuf),
    /// Outside the project.
    Outside(PathBuf),
    /// Inside the project, under a folder named like one of
    /// [`CODE_DIRS`] (at any depth: a nested repository's hooks run too).
    CodeDir(PathBuf, String),
    /// Inside the project, nowhere special.
    Inside,
}

/// Sorts `path` (relative to the project `cwd` unless absolute) by where it
/// really points. `$ZOT_HOME` is `home`; both are canonicalised here.
pub fn place(cwd: &Path, home: &Path, path: &str) -> Place {
    let root = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let Some(real) = resolve(&root, path) else {
        return Place::Unknown;
    };
    if SYSTEM_DIRS.iter().any(|d| real.starts_with(d)) {
        return Place::System(real);
    }
    let home = home
        .to_str()
        .and_then(|h| resolve(Path::new("/"), h))
        .unwrap_or_else(|| home.to_path_buf());
    if real.starts_with(&home) {
        return Place::ZotHome(real);
    }
    let Ok(rel) = real.strip_prefix(&root) else {
        return Place::Outside(real);
    };
    let code = rel.components().find_map(|c| {
        let name = c.as_os_str().to_str()?;
        // Case-insensitive: on macOS's and Windows' file systems `.Git`
        // is `.git`.
        CODE_DIRS
            .iter()
            .any(|d| d.eq_ignore_ascii_case(name))
            .then(|| name.to_owned())
    });
    match code {
        Some(dir) => Place::CodeDir(real, dir),
        None => Place::Inside,
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
        let home = root.join("zot-home");
        let at = |p: &str| place(&cwd, &home, p);
        let yes = |p: &str| assert_eq!(at(p), Place::Inside, "{p} should be inside");
        let no = |p: &str| assert_ne!(at(p), Place::Inside, "{p} should be outside");
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
            at("out/x.txt"),
            Place::Outside(root.join("elsewhere/x.txt"))
        );
        assert_eq!(at("loop/x"), Place::Unknown);
    }

    #[test]
    fn places_sort_system_dirs_zot_home_outside_and_code_dirs() {
        let outer = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(outer.path()).unwrap();
        let cwd = root.join("proj");
        let home = root.join("home");
        std::fs::create_dir_all(cwd.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::os::unix::fs::symlink("/proc/self/environ", cwd.join("env")).unwrap();
        std::os::unix::fs::symlink(&home, cwd.join("state")).unwrap();
        std::os::unix::fs::symlink(".git/hooks", cwd.join("hooks")).unwrap();
        let at = |p: &str| place(&cwd, &home, p);
        let pid = std::process::id();
        assert_eq!(
            at("/proc/self/environ"),
            Place::System(PathBuf::from(format!("/proc/{pid}/environ")))
        );
        assert!(matches!(at("env"), Place::System(_)));
        assert!(matches!(at("/sys/kernel/x"), Place::System(_)));
        assert!(matches!(at("/dev/shm/x"), Place::System(_)));
        assert_eq!(
            at("state/auth.json"),
            Place::ZotHome(home.join("auth.json"))
        );
        assert!(matches!(
            at(home.join("config.json").to_str().unwrap()),
            Place::ZotHome(_)
        ));
        assert_eq!(at("../x"), Place::Outside(root.join("x")));
        assert_eq!(
            at(".git/hooks/pre-commit"),
            Place::CodeDir(cwd.join(".git/hooks/pre-commit"), ".git".into())
        );
        assert!(matches!(at("hooks/pre-commit"), Place::CodeDir(_, d) if d == ".git"));
        assert!(
            matches!(at(".zot/extensions/x/extension.json"), Place::CodeDir(_, d) if d == ".zot")
        );
        assert!(matches!(at("sub/.GIT/hooks/x"), Place::CodeDir(_, d) if d == ".GIT"));
        assert!(matches!(at("sub/x/../.zot/y"), Place::CodeDir(..)));
        assert_eq!(at("src/main.rs"), Place::Inside);
        assert_eq!(at(".gitignore"), Place::Inside);
        assert_eq!(at(".zotrc"), Place::Inside);
    }
}

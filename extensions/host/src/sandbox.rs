//! The OS sandbox for extensions whose manifest declares `sandbox`
//! (docs/security.md): the process runs under bubblewrap (`bwrap`) in new
//! user, mount, pid, ipc, uts and (unless `net` is true) network
//! namespaces. Its filesystem is built from nothing: the system's
//! read-only runtime, a private `/tmp`, a fresh `/proc` and a minimal
//! `/dev`, zot's SDKs read-only, its own directory read-write (also its
//! `data_dir`), and the paths its manifest grants. Nothing else exists in
//! there: not the user's home, not `$ZOT_HOME`, not the project.
//!
//! When no sandbox can be made (bwrap missing, user namespaces off), the
//! extension must not run at all: [`probe`] finds out once per bwrap path
//! and says how to fix it.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use zot_ext_protocol::Sandbox;

/// Environment variable naming the bwrap binary (a path, or a name looked
/// up on `PATH`); `bwrap` when unset. Also `HostConfig::bwrap`.
pub const BWRAP_ENV: &str = "ZOT_BWRAP";

/// The bwrap zot uses unless the host config says otherwise.
pub fn default_bwrap() -> PathBuf {
    std::env::var_os(BWRAP_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("bwrap"))
}

/// The system's runtime, seen read-only (or as the same symlink on a
/// merged-`/usr` system), so interpreters and shared libraries work.
const RUNTIME: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The parts of `/etc` a runtime needs (dynamic linker, users and groups
/// for `~` and `getpwuid`, name resolution, time zone, TLS roots, Debian's
/// alternatives and Python's config), not all of it: `/etc` also holds
/// machine secrets a root-run zot could otherwise show an extension.
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/host.conf",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/services",
    "/etc/protocols",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
    "/etc/mime.types",
    "/etc/os-release",
    "/etc/locale.alias",
    "/etc/python3",
    "/etc/python3.11",
    "/etc/python3.12",
    "/etc/python3.13",
];

/// Where one sandboxed extension's view comes from.
pub struct Plan<'a> {
    /// The manifest's grants.
    pub spec: &'a Sandbox,
    /// Its directory: its cwd, `extension_dir` and `data_dir`, read-write.
    pub ext_dir: &'a Path,
    /// zot's unpacked SDKs (`$ZOT_HOME/sdk/<ver>-<hash>`), read-only.
    pub sdk: Option<&'a Path>,
    /// `$ZOT_HOME`: never visible beyond `ext_dir` and `sdk`.
    pub zot_home: &'a Path,
    /// What `~` means (the home of the user running zot).
    pub home: Option<&'a Path>,
}

/// bwrap's arguments for one start, and notes for the extension's log.
#[derive(Debug, Default)]
pub struct Args {
    /// Everything after `bwrap` up to and including `--`.
    pub args: Vec<OsString>,
    /// What was skipped (granted paths that do not exist).
    pub notes: Vec<String>,
}

/// Builds bwrap's arguments for `plan`. Fails when a grant reaches into
/// `$ZOT_HOME` (an extension sees only its own directory there) or `~` is
/// used without a known home.
pub fn bwrap_args(plan: &Plan) -> Result<Args, String> {
    let mut out = Args::default();
    let a = &mut out.args;
    push(a, ["--unshare-all"]);
    if plan.spec.net {
        push(a, ["--share-net"]);
    }
    // The sandboxed process dies with bwrap; bwrap itself is in the
    // process group the reaper and shutdown signal (see process.rs).
    push(a, ["--die-with-parent"]);
    // Unprivileged bwrap drops every capability anyway; run as root it
    // would keep them inside the sandbox (and could remount its view).
    push(a, ["--cap-drop", "ALL"]);
    for dir in RUNTIME {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(
                        a,
                        [
                            OsStr::new("--symlink"),
                            target.as_os_str(),
                            path.as_os_str(),
                        ],
                    );
                }
            }
            Ok(m) if m.is_dir() => bind(a, "--ro-bind", path, path),
            _ => {}
        }
    }
    for file in ETC {
        let path = Path::new(file);
        if path.exists() {
            bind(a, "--ro-bind-try", path, path);
        }
    }
    push(a, ["--tmpfs", "/tmp"]);

    let zot_home = canonical(plan.zot_home);
    let mut hide_home_under: Vec<PathBuf> = Vec::new();
    for (kind, list, flag) in [
        ("read", &plan.spec.read, "--ro-bind"),
        ("write", &plan.spec.write, "--bind"),
    ] {
        for raw in list {
            let dest =
                expand(raw, plan.home).map_err(|e| format!("sandbox.{kind}: '{raw}': {e}"))?;
            if !dest.exists() {
                out.notes.push(format!(
                    "sandbox.{kind}: {} does not exist, so it is not granted",
                    dest.display()
                ));
                continue;
            }
            let source = canonical(&dest);
            if source.starts_with(&zot_home) {
                return Err(format!(
                    "sandbox.{kind}: '{raw}' is inside zot's home {}; an extension sees only its own directory there, so remove this grant",
                    zot_home.display()
                ));
            }
            if let Ok(rest) = zot_home.strip_prefix(&source) {
                hide_home_under.push(dest.join(rest));
            }
            bind(a, flag, &source, &dest);
        }
    }
    // After the grants, so a grant of `/` (binds are recursive) cannot
    // bring the host's /proc back: that would show zot's environment and
    // `/proc/<zot>/root`, the whole filesystem.
    push(a, ["--proc", "/proc", "--dev", "/dev"]);
    // A grant of a parent (`~`, `/`) would show `$ZOT_HOME` (keys, other
    // extensions, sessions): an empty tmpfs covers it again.
    for dest in &hide_home_under {
        push(a, [OsStr::new("--tmpfs"), dest.as_os_str()]);
    }
    bind(a, "--bind", &canonical(plan.ext_dir), plan.ext_dir);
    if let Some(sdk) = plan.sdk.filter(|p| p.is_dir()) {
        bind(a, "--ro-bind", &canonical(sdk), sdk);
    }
    // The skeleton bwrap made the mount points in (`/home/u/…` above a
    // grant) becomes read-only, so a write outside every grant fails
    // instead of landing in a throwaway directory.
    push(a, ["--remount-ro", "/"]);
    push(
        a,
        [
            OsStr::new("--chdir"),
            plan.ext_dir.as_os_str(),
            OsStr::new("--setenv"),
            OsStr::new("TMPDIR"),
            OsStr::new("/tmp"),
            OsStr::new("--"),
        ],
    );
    Ok(out)
}

/// What the sandbox runs for `exec`: a bare name is looked up on `PATH`
/// inside the sandbox (a `PATH` entry it cannot see, like a pyenv shim in
/// the home, is skipped there); a path must be one it can see.
pub fn exec_inside(plan: &Plan, raw_exec: &str, resolved: &Path) -> Result<OsString, String> {
    if !raw_exec.contains('/') {
        return Ok(OsString::from(raw_exec));
    }
    let mut visible: Vec<PathBuf> = vec![plan.ext_dir.to_path_buf()];
    visible.extend(RUNTIME.iter().map(PathBuf::from));
    visible.extend(plan.sdk.map(Path::to_path_buf));
    for raw in plan.spec.read.iter().chain(&plan.spec.write) {
        if let Ok(p) = expand(raw, plan.home) {
            visible.push(p);
        }
    }
    if visible.iter().any(|v| resolved.starts_with(v)) {
        Ok(resolved.as_os_str().to_owned())
    } else {
        Err(format!(
            "its exec {} is outside its sandbox; move it into the extension's directory or add its directory to sandbox.read",
            resolved.display()
        ))
    }
}

/// bwrap reports an extension killed by signal N as exit status 128+N;
/// turned back into "killed by N" so `last_exit` and crash messages read
/// `signal 9 (SIGKILL)` for a sandboxed extension too.
pub fn unwrap_status(
    status: std::process::ExitStatus,
    sandboxed: bool,
) -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    match status.code() {
        Some(code) if sandboxed && (129..=128 + 64).contains(&code) => {
            std::process::ExitStatus::from_raw(code - 128)
        }
        _ => status,
    }
}

/// `~` and `~/x` become the user's home; other paths are kept (the
/// manifest check already refused relative ones and `..`).
fn expand(raw: &str, home: Option<&Path>) -> Result<PathBuf, String> {
    let rest = if raw == "~" {
        Some("")
    } else {
        raw.strip_prefix("~/")
    };
    match rest {
        None => Ok(PathBuf::from(raw)),
        Some(rest) => match home {
            Some(h) => Ok(h.join(rest)),
            None => Err("'~' needs HOME to be set".into()),
        },
    }
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn bind(a: &mut Vec<OsString>, flag: &str, source: &Path, dest: &Path) {
    push(a, [OsStr::new(flag), source.as_os_str(), dest.as_os_str()]);
}

fn push<S: AsRef<OsStr>>(a: &mut Vec<OsString>, items: impl IntoIterator<Item = S>) {
    a.extend(items.into_iter().map(|s| s.as_ref().to_owned()));
}

/// Results of [`probe`] per bwrap path (a list: one or two paths per
/// process): a probe is a process start, and the answer does not change
/// while zot runs.
static PROBED: Mutex<Vec<(PathBuf, Result<PathBuf, String>)>> = Mutex::new(Vec::new());

/// Finds `bwrap` and checks, once per path and process, that it can make a
/// sandbox here (it runs `true` in the same namespaces an extension gets).
/// The error says why not and how to fix it.
pub async fn probe(bwrap: &Path) -> Result<PathBuf, String> {
    if let Some((_, r)) = lock().iter().find(|(p, _)| p == bwrap) {
        return r.clone();
    }
    let r = run_probe(bwrap).await;
    let mut cache = lock();
    if !cache.iter().any(|(p, _)| p == bwrap) {
        cache.push((bwrap.to_path_buf(), r.clone()));
    }
    r
}

fn lock() -> std::sync::MutexGuard<'static, Vec<(PathBuf, Result<PathBuf, String>)>> {
    PROBED.lock().unwrap_or_else(|e| e.into_inner())
}

async fn run_probe(bwrap: &Path) -> Result<PathBuf, String> {
    if !cfg!(target_os = "linux") {
        return Err(
            "its manifest asks for a sandbox, and zot's sandbox (bubblewrap) exists only on Linux; remove \"sandbox\" from extension.json to run it unsandboxed"
                .into(),
        );
    }
    let path = find(bwrap).ok_or_else(|| {
        if bwrap.components().count() > 1 {
            format!(
                "its manifest asks for a sandbox, and the bubblewrap binary {} (from ${BWRAP_ENV}) does not exist; install bubblewrap (sudo apt install bubblewrap) or fix ${BWRAP_ENV}",
                bwrap.display()
            )
        } else {
            format!(
                "its manifest asks for a sandbox, and bubblewrap ('{}') is not on PATH; install it: sudo apt install bubblewrap (Fedora: sudo dnf install bubblewrap), or set ${BWRAP_ENV} to its path",
                bwrap.display()
            )
        }
    })?;
    let out = tokio::process::Command::new(&path)
        .args([
            "--unshare-all",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "--",
            "true",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| {
            format!(
                "its manifest asks for a sandbox, and {} could not be started: {e}",
                path.display()
            )
        })?;
    if out.status.success() {
        return Ok(path);
    }
    let said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    Err(format!(
        "its manifest asks for a sandbox, and {} cannot make one here ({}); enable unprivileged user namespaces (Debian: sudo sysctl -w kernel.unprivileged_userns_clone=1; Ubuntu 24.04+: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap), or run it in a container that allows them",
        path.display(),
        if said.is_empty() { crate::process::describe_status(out.status) } else { said }
    ))
}

/// `bwrap` as given when it has a separator, else the first executable of
/// that name on `PATH`.
fn find(bwrap: &Path) -> Option<PathBuf> {
    let executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if bwrap.components().count() > 1 {
        return executable(bwrap).then(|| bwrap.to_path_buf());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(bwrap))
        .find(|p| executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &Args) -> Vec<String> {
        a.args
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect()
    }

    fn window(v: &[String], w: &[&str]) -> bool {
        v.windows(w.len())
            .any(|x| x.iter().zip(w).all(|(a, b)| a == b))
    }

    #[test]
    fn the_view_is_built_in_order_and_net_is_off_unless_asked() {
        let t = tempfile::TempDir::new().unwrap();
        let home = t.path().join("home");
        let zot = home.join(".zot");
        let ext = zot.join("extensions/x");
        let notes = home.join("notes");
        for d in [&ext, &notes] {
            std::fs::create_dir_all(d).unwrap();
        }
        let spec = Sandbox {
            read: vec!["~/notes".into(), "~/missing".into()],
            write: vec![],
            net: false,
        };
        let plan = Plan {
            spec: &spec,
            ext_dir: &ext,
            sdk: None,
            zot_home: &zot,
            home: Some(&home),
        };
        let a = bwrap_args(&plan).unwrap();
        let v = strings(&a);
        assert!(!v.contains(&"--share-net".to_string()), "{v:?}");
        let n = notes.canonicalize().unwrap();
        assert!(
            window(
                &v,
                &["--ro-bind", n.to_str().unwrap(), notes.to_str().unwrap()]
            ),
            "{v:?}"
        );
        assert_eq!(a.notes.len(), 1, "{:?}", a.notes);
        assert!(a.notes[0].contains("missing"), "{:?}", a.notes);
        // /tmp is private and comes before the grants and the ext dir.
        let tmp = v.iter().position(|s| s == "/tmp").unwrap();
        let e = v.iter().position(|s| s == ext.to_str().unwrap()).unwrap();
        assert!(tmp < e);
        assert_eq!(v.last().map(String::as_str), Some("--"));
    }

    #[test]
    fn a_grant_of_the_home_still_hides_zot_home_and_a_grant_inside_it_is_refused() {
        let t = tempfile::TempDir::new().unwrap();
        let home = t.path().canonicalize().unwrap();
        let zot = home.join(".zot");
        let ext = zot.join("extensions/x");
        std::fs::create_dir_all(&ext).unwrap();
        let spec = Sandbox {
            read: vec!["~".into()],
            write: vec![],
            net: true,
        };
        let plan = Plan {
            spec: &spec,
            ext_dir: &ext,
            sdk: None,
            zot_home: &zot,
            home: Some(&home),
        };
        let v = strings(&bwrap_args(&plan).unwrap());
        assert!(v.contains(&"--share-net".to_string()));
        let hide = v.iter().position(|s| s == zot.to_str().unwrap()).unwrap();
        assert_eq!(v[hide - 1], "--tmpfs");
        let e = v.iter().rposition(|s| s == ext.to_str().unwrap()).unwrap();
        assert!(hide < e, "the ext dir is bound after the cover: {v:?}");

        let spec = Sandbox {
            write: vec!["~/.zot/extensions".into()],
            ..Sandbox::default()
        };
        let plan = Plan {
            spec: &spec,
            ..plan
        };
        let err = bwrap_args(&plan).unwrap_err();
        assert!(
            err.contains("sandbox.write") && err.contains("inside zot's home"),
            "{err}"
        );
    }

    #[test]
    fn bwraps_128_plus_n_reads_as_the_signal_again() {
        use std::os::unix::process::ExitStatusExt;
        let exited = |code: i32| std::process::ExitStatus::from_raw(code << 8);
        let s = unwrap_status(exited(137), true);
        assert_eq!(s.signal(), Some(9));
        assert_eq!(crate::process::describe_status(s), "signal 9 (SIGKILL)");
        assert_eq!(unwrap_status(exited(137), false).code(), Some(137));
        assert_eq!(unwrap_status(exited(3), true).code(), Some(3));
        assert_eq!(unwrap_status(exited(128), true).code(), Some(128));
    }

    #[test]
    fn an_exec_outside_the_view_is_refused_and_a_bare_name_is_looked_up_inside() {
        let spec = Sandbox::default();
        let plan = Plan {
            spec: &spec,
            ext_dir: Path::new("/e/x"),
            sdk: None,
            zot_home: Path::new("/z"),
            home: None,
        };
        assert_eq!(
            exec_inside(&plan, "python3", Path::new("/root/.pyenv/shims/python3")).unwrap(),
            "python3"
        );
        assert!(exec_inside(&plan, "./run", Path::new("/e/x/run")).is_ok());
        assert!(exec_inside(&plan, "/usr/bin/node", Path::new("/usr/bin/node")).is_ok());
        let e = exec_inside(&plan, "/home/u/bin/tool", Path::new("/home/u/bin/tool")).unwrap_err();
        assert!(e.contains("outside its sandbox"), "{e}");
    }
}

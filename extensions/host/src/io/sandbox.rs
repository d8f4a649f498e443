//! The OS sandbox for extensions whose manifest declares `sandbox`
//! (docs/security.md): the process runs under bubblewrap (`bwrap`) in new
//! user, mount, pid, ipc, uts and network namespaces (with `net: true`,
//! a network of its own through slirp4netns: `net.rs`), under seccomp
//! filters that refuse Unix sockets (`seccomp.rs`), with an environment
//! built from an allowlist. Its filesystem is built from nothing: the
//! system's read-only runtime, a private `/tmp`, a fresh `/proc` and a
//! minimal `/dev`, zot's SDKs read-only, its own directory read-write (its
//! manifest read-only), and the paths its manifest grants, with the
//! session's runtime directories covered again. Nothing else exists in
//! there: not the user's home, not `$ZOT_HOME`, not the project.
//!
//! When no sandbox can be made (bwrap missing, user namespaces off), the
//! extension must not run at all: [`probe`] finds out once per bwrap path
//! and says how to fix it.

pub mod fds;
pub mod net;
#[cfg(target_os = "linux")]
pub mod seccomp;

/// Elsewhere there is no sandbox at all ([`probe`] says so first).
#[cfg(not(target_os = "linux"))]
pub mod seccomp {
    /// Never a filter: no sandbox is made off Linux.
    pub fn programs() -> Result<Vec<Vec<u8>>, String> {
        Err("zot's sandbox exists only on Linux".into())
    }
}

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

/// Where the session's services listen, never shown in a sandbox: after
/// the grants, each one a grant would show is covered again (an empty
/// tmpfs, or `/dev/null` over a socket file), and a grant inside one is
/// refused. `/sys` is covered the same way. [`runtime_dirs`] adds
/// `$XDG_RUNTIME_DIR` and the SSH agent's directory.
const SESSION_DIRS: &[&str] = &[
    "/run/user",
    "/run/dbus",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/tmp/.X11-unix",
    "/tmp/.ICE-unix",
    "/sys",
];

/// The directories (and socket files) a sandbox never shows, from
/// [`SESSION_DIRS`] and zot's environment, canonical and existing.
pub fn runtime_dirs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = SESSION_DIRS.iter().map(PathBuf::from).collect();
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        out.push(dir.into());
    }
    if let Some(sock) = std::env::var_os("SSH_AUTH_SOCK").filter(|d| !d.is_empty()) {
        if let Some(parent) = Path::new(&sock).parent() {
            out.push(parent.to_path_buf());
        }
    }
    let mut seen: Vec<PathBuf> = Vec::new();
    for p in out {
        if p.is_absolute() && p.exists() && p != Path::new("/") && p != Path::new("/tmp") {
            let c = canonical(&p);
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
    }
    seen
}

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
    /// Never shown: [`runtime_dirs`].
    pub runtime_dirs: &'a [PathBuf],
    /// The extension's whole environment (bwrap starts with `--clearenv`).
    pub env: &'a [(OsString, OsString)],
    /// With `net: true`, the descriptor bwrap reads the sandbox's
    /// `/etc/resolv.conf` from ([`net::RESOLV_CONF`]).
    pub resolv_conf_fd: Option<i32>,
    /// The binary its launcher runs from outside its directory (a Rust
    /// extension's build in its workspace's `target/`: `program.rs`),
    /// shown read-only at its own path, that one file only.
    pub program: Option<&'a Path>,
}

/// bwrap's arguments for one start, and notes for the extension's log.
#[derive(Debug, Default)]
pub struct Args {
    /// Everything after `bwrap` up to (not including) `--`.
    pub args: Vec<OsString>,
    /// What was skipped (granted paths that do not exist).
    pub notes: Vec<String>,
}

/// One granted path, resolved.
struct Grant {
    flag: &'static str,
    source: PathBuf,
    dest: PathBuf,
}

/// Builds bwrap's arguments for `plan`. Fails when a grant reaches into
/// `$ZOT_HOME` (an extension sees only its own directory there), into the
/// host's `/proc`, `/dev` or `/sys`, or into a runtime directory, whatever
/// symlink leads there (checked at every start, on the resolved path), or
/// `~` is used without a known home.
pub fn bwrap_args(plan: &Plan) -> Result<Args, String> {
    let mut out = Args::default();
    let grants = resolve_grants(plan, &mut out.notes)?;
    let a = &mut out.args;
    // Every namespace, the network's included: `net: true` gets a network
    // of its own (net.rs), never the host's.
    push(a, ["--unshare-all"]);
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
        let ours = plan.spec.net && *file == "/etc/resolv.conf";
        if path.exists() && !ours {
            bind(a, "--ro-bind-try", path, path);
        }
    }
    if let (true, Some(fd)) = (plan.spec.net, plan.resolv_conf_fd) {
        push(
            a,
            [
                "--ro-bind-data".to_owned(),
                fd.to_string(),
                "/etc/resolv.conf".to_owned(),
            ],
        );
    }
    // The private /tmp comes after every grant outside it, so a grant of
    // `/` cannot swap it for the host's; grants inside /tmp come after it.
    let in_tmp = |g: &&Grant| g.dest.starts_with("/tmp");
    for g in grants.iter().filter(|g| !in_tmp(g)) {
        bind(a, g.flag, &g.source, &g.dest);
    }
    push(a, ["--tmpfs", "/tmp"]);
    for g in grants.iter().filter(in_tmp) {
        bind(a, g.flag, &g.source, &g.dest);
    }
    // After the grants, so a grant of `/` (binds are recursive) cannot
    // bring the host's /proc back: that would show zot's environment and
    // `/proc/<zot>/root`, the whole filesystem.
    push(a, ["--proc", "/proc", "--dev", "/dev"]);
    // What a grant of a parent (`/`, `/run`, `/tmp`) would show of the
    // session's services and of /sys is covered again.
    for dir in plan.runtime_dirs {
        for g in &grants {
            let Ok(rest) = dir.strip_prefix(&g.source) else {
                continue;
            };
            let shown = g.dest.join(rest);
            if dir.is_dir() {
                push(a, [OsStr::new("--tmpfs"), shown.as_os_str()]);
            } else {
                bind(a, "--ro-bind", Path::new("/dev/null"), &shown);
            }
        }
    }
    // A grant of a parent (`~`, `/`) would show `$ZOT_HOME` (keys, other
    // extensions, sessions): an empty tmpfs covers it again.
    let zot_home = canonical(plan.zot_home);
    for g in &grants {
        if let Ok(rest) = zot_home.strip_prefix(&g.source) {
            push(a, [OsStr::new("--tmpfs"), g.dest.join(rest).as_os_str()]);
        }
    }
    bind(a, "--bind", &canonical(plan.ext_dir), plan.ext_dir);
    // Its manifest decides what it may do: read-only from inside, so it
    // cannot widen its own grants for the next start.
    let manifest = plan.ext_dir.join(crate::manifest::MANIFEST_FILE);
    if manifest.is_file() {
        bind(a, "--ro-bind", &canonical(&manifest), &manifest);
    }
    if let Some(sdk) = plan.sdk.filter(|p| p.is_dir()) {
        bind(a, "--ro-bind", &canonical(sdk), sdk);
    }
    if let Some(program) = plan.program.filter(|p| p.is_file()) {
        let source = canonical(program);
        // Never a way into zot's home or the session's services.
        let hidden = source.starts_with(&zot_home)
            || plan.runtime_dirs.iter().any(|d| source.starts_with(d));
        if hidden {
            out.notes.push(format!(
                "its program {} is inside a folder a sandbox never shows, so it is not shown",
                source.display()
            ));
        } else {
            bind(a, "--ro-bind", &source, program);
        }
    }
    // The skeleton bwrap made the mount points in (`/home/u/…` above a
    // grant) becomes read-only, so a write outside every grant fails
    // instead of landing in a throwaway directory.
    push(a, ["--remount-ro", "/"]);
    push(a, [OsStr::new("--chdir"), plan.ext_dir.as_os_str()]);
    // Nothing of zot's environment reaches the sandbox but what the plan
    // says (launch.rs builds it from an allowlist).
    push(a, ["--clearenv"]);
    for (k, v) in plan.env {
        push(a, [OsStr::new("--setenv"), k.as_os_str(), v.as_os_str()]);
    }
    Ok(out)
}

/// The manifest's grants, expanded and resolved, in manifest order
/// (`read`, then `write`); missing paths are noted and skipped.
fn resolve_grants(plan: &Plan, notes: &mut Vec<String>) -> Result<Vec<Grant>, String> {
    let zot_home = canonical(plan.zot_home);
    let mut out = Vec::new();
    for (kind, list, flag) in [
        ("read", &plan.spec.read, "--ro-bind"),
        ("write", &plan.spec.write, "--bind"),
    ] {
        for raw in list {
            let refuse = |why: String| format!("sandbox.{kind}: '{raw}' {why}");
            let dest = expand(raw, plan.home).map_err(refuse)?;
            if !dest.exists() {
                notes.push(format!(
                    "sandbox.{kind}: {} does not exist, so it is not granted",
                    dest.display()
                ));
                continue;
            }
            let source = canonical(&dest);
            for p in [&dest, &source] {
                if let Some(why) = crate::manifest::kernel_fs(p) {
                    return Err(refuse(format!(
                        "resolves to {}: {why}; remove this grant",
                        source.display()
                    )));
                }
            }
            if source.starts_with(&zot_home) {
                return Err(refuse(format!(
                    "is inside zot's home {}; an extension sees only its own directory there, so remove this grant",
                    zot_home.display()
                )));
            }
            if let Some(dir) = plan.runtime_dirs.iter().find(|d| source.starts_with(d)) {
                return Err(refuse(format!(
                    "is inside {}, where the session's services listen (the bus, the display, the SSH agent, docker); a sandbox never sees it, so remove this grant",
                    dir.display()
                )));
            }
            out.push(Grant { flag, source, dest });
        }
    }
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
    let bwrap = bwrap.to_path_buf();
    tokio::task::spawn_blocking(move || probe_blocking(&bwrap))
        .await
        .unwrap_or_else(|e| Err(format!("the sandbox probe failed: {e}")))
}

/// [`probe`] for a caller with no runtime (`zot ext test`).
pub fn probe_blocking(bwrap: &Path) -> Result<PathBuf, String> {
    if let Some((_, r)) = lock().iter().find(|(p, _)| p == bwrap) {
        return r.clone();
    }
    let r = run_probe(bwrap);
    let mut cache = lock();
    if !cache.iter().any(|(p, _)| p == bwrap) {
        cache.push((bwrap.to_path_buf(), r.clone()));
    }
    r
}

fn lock() -> std::sync::MutexGuard<'static, Vec<(PathBuf, Result<PathBuf, String>)>> {
    PROBED.lock().unwrap_or_else(|e| e.into_inner())
}

fn run_probe(bwrap: &Path) -> Result<PathBuf, String> {
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
    let out = std::process::Command::new(&path)
        .args([
            "--unshare-all",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "--",
            "true",
        ])
        .env_clear()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
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
        if said.is_empty() { crate::io::process::describe_status(out.status) } else { said }
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

    fn plan<'a>(spec: &'a Sandbox, ext: &'a Path, zot: &'a Path, home: &'a Path) -> Plan<'a> {
        Plan {
            spec,
            ext_dir: ext,
            sdk: None,
            zot_home: zot,
            home: Some(home),
            runtime_dirs: &[],
            env: &[],
            resolv_conf_fd: None,
            program: None,
        }
    }

    #[test]
    fn the_view_is_built_in_order_and_the_network_is_never_shared() {
        let t = tempfile::TempDir::new().unwrap();
        let home = t.path().join("home");
        let zot = home.join(".zot");
        let ext = zot.join("extensions/x");
        let notes = home.join("notes");
        for d in [&ext, &notes] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(ext.join("extension.json"), "{}").unwrap();
        let spec = Sandbox {
            read: vec!["~/notes".into(), "~/missing".into(), "/usr/share".into()],
            write: vec![],
            net: true,
        };
        let env = [(OsString::from("PATH"), OsString::from("/usr/bin"))];
        let p = Plan {
            env: &env,
            resolv_conf_fd: Some(7),
            program: None,
            ..plan(&spec, &ext, &zot, &home)
        };
        let a = bwrap_args(&p).unwrap();
        let v = strings(&a);
        assert!(!v.contains(&"--share-net".to_string()), "{v:?}");
        assert!(
            window(&v, &["--ro-bind-data", "7", "/etc/resolv.conf"]),
            "{v:?}"
        );
        assert!(!window(&v, &["--ro-bind-try", "/etc/resolv.conf"]), "{v:?}");
        let n = notes.canonicalize().unwrap();
        let granted = ["--ro-bind", n.to_str().unwrap(), notes.to_str().unwrap()];
        assert!(window(&v, &granted), "{v:?}");
        assert_eq!(a.notes.len(), 1, "{:?}", a.notes);
        assert!(a.notes[0].contains("missing"), "{:?}", a.notes);
        // The private /tmp comes after a grant outside it and before one
        // inside it (the test's home is under /tmp).
        let at = |w: &[&str]| {
            v.windows(w.len())
                .position(|x| x.iter().zip(w).all(|(a, b)| a == b))
        };
        let tmp = at(&["--tmpfs", "/tmp"]).unwrap();
        let usr = at(&["--ro-bind", "/usr/share", "/usr/share"]).unwrap();
        let inside = at(&granted).unwrap();
        assert!(
            usr < tmp && (tmp < inside) == notes.starts_with("/tmp"),
            "{v:?}"
        );
        let e = v.iter().position(|s| s == ext.to_str().unwrap()).unwrap();
        assert!(tmp < e);
        // The manifest is read-only over the writable directory.
        let m = ext.join("extension.json");
        let m = m.to_str().unwrap();
        let mc = ext.join("extension.json").canonicalize().unwrap();
        let ro = at(&["--ro-bind", mc.to_str().unwrap(), m]).unwrap();
        assert!(e < ro, "{v:?}");
        assert!(
            window(&v, &["--clearenv", "--setenv", "PATH", "/usr/bin"]),
            "{v:?}"
        );
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
            net: false,
        };
        let v = strings(&bwrap_args(&plan(&spec, &ext, &zot, &home)).unwrap());
        let hide = v.iter().position(|s| s == zot.to_str().unwrap()).unwrap();
        assert_eq!(v[hide - 1], "--tmpfs");
        let e = v.iter().rposition(|s| s == ext.to_str().unwrap()).unwrap();
        assert!(hide < e, "the ext dir is bound after the cover: {v:?}");

        let spec = Sandbox {
            write: vec!["~/.zot/extensions".into()],
            ..Sandbox::default()
        };
        let err = bwrap_args(&plan(&spec, &ext, &zot, &home)).unwrap_err();
        assert!(
            err.contains("sandbox.write") && err.contains("inside zot's home"),
            "{err}"
        );
    }

    #[test]
    fn a_symlink_to_proc_or_sys_is_refused_at_start_and_runtime_dirs_are_covered() {
        let t = tempfile::TempDir::new().unwrap();
        let home = t.path().canonicalize().unwrap();
        let zot = home.join(".zot");
        let ext = zot.join("extensions/x");
        std::fs::create_dir_all(&ext).unwrap();
        for (link, to) in [("p", "/proc/self"), ("s", "/sys"), ("d", "/dev")] {
            std::os::unix::fs::symlink(to, home.join(link)).unwrap();
            let spec = Sandbox {
                read: vec![format!("~/{link}")],
                ..Sandbox::default()
            };
            let err = bwrap_args(&plan(&spec, &ext, &zot, &home)).unwrap_err();
            assert!(
                err.contains("sandbox.read") && err.contains("never granted"),
                "{err}"
            );
        }
        // A runtime directory under a grant is covered after it; a grant
        // inside one is refused.
        let run = home.join("run");
        let bus = run.join("user/1000");
        std::fs::create_dir_all(&bus).unwrap();
        let runtime = [bus.clone()];
        let spec = Sandbox {
            read: vec!["~/run".into()],
            ..Sandbox::default()
        };
        let p = Plan {
            runtime_dirs: &runtime,
            ..plan(&spec, &ext, &zot, &home)
        };
        let v = strings(&bwrap_args(&p).unwrap());
        let grant = v.iter().position(|s| s == run.to_str().unwrap()).unwrap();
        let cover = v.iter().position(|s| s == bus.to_str().unwrap()).unwrap();
        assert!(grant < cover && v[cover - 1] == "--tmpfs", "{v:?}");
        let spec = Sandbox {
            read: vec!["~/run/user/1000".into()],
            ..Sandbox::default()
        };
        let p = Plan {
            runtime_dirs: &runtime,
            ..plan(&spec, &ext, &zot, &home)
        };
        let err = bwrap_args(&p).unwrap_err();
        assert!(err.contains("session's services"), "{err}");
    }

    #[test]
    fn the_program_a_launcher_runs_is_shown_read_only_that_file_only() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (ext, zot, home) = (root.join("ws/ext"), root.join("zot"), root.join("home"));
        std::fs::create_dir_all(&ext).unwrap();
        let bin = root.join("ws/target/debug/zot-example-x");
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::write(&bin, "").unwrap();
        let spec = Sandbox::default();
        let p = Plan {
            program: Some(&bin),
            ..plan(&spec, &ext, &zot, &home)
        };
        let v = strings(&bwrap_args(&p).unwrap());
        let b = bin.to_str().unwrap();
        assert!(window(&v, &["--ro-bind", b, b]), "{v:?}");
        assert!(!v
            .iter()
            .any(|a| a == root.join("ws/target").to_str().unwrap()));
        // One inside zot's home is never shown.
        let inside = zot.join("bin/x");
        std::fs::create_dir_all(inside.parent().unwrap()).unwrap();
        std::fs::write(&inside, "").unwrap();
        let p = Plan {
            program: Some(&inside),
            ..plan(&spec, &ext, &zot, &home)
        };
        let out = bwrap_args(&p).unwrap();
        assert!(!strings(&out).iter().any(|a| a == inside.to_str().unwrap()));
        assert_eq!(out.notes.len(), 1, "{:?}", out.notes);
    }

    #[test]
    fn bwraps_128_plus_n_reads_as_the_signal_again() {
        use std::os::unix::process::ExitStatusExt;
        let exited = |code: i32| std::process::ExitStatus::from_raw(code << 8);
        let s = unwrap_status(exited(137), true);
        assert_eq!(s.signal(), Some(9));
        assert_eq!(crate::io::process::describe_status(s), "signal 9 (SIGKILL)");
        assert_eq!(unwrap_status(exited(137), false).code(), Some(137));
        assert_eq!(unwrap_status(exited(3), true).code(), Some(3));
        assert_eq!(unwrap_status(exited(128), true).code(), Some(128));
    }

    #[test]
    fn an_exec_outside_the_view_is_refused_and_a_bare_name_is_looked_up_inside() {
        let spec = Sandbox::default();
        let plan = Plan {
            home: None,
            ..plan(&spec, Path::new("/e/x"), Path::new("/z"), Path::new("/h"))
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

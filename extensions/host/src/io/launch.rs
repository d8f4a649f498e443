//! How an extension's process is started, one way for zot and for
//! `zot ext test` (docs/security.md): the command, its environment, its
//! sandbox. Unsandboxed, the program runs as is, in a process group of its
//! own, without the variables [`Scrub`] drops, under a keeper that ends
//! whatever it leaves behind (`subreaper.rs`). Sandboxed, bwrap runs with
//! an empty environment of its own (nothing of a manifest reaches the
//! launcher) and reads its options from a descriptor; the extension's
//! environment is an allowlist of zot's ([`SANDBOX_ALLOW`]), zot's SDK
//! variables, `TMPDIR=/tmp` and the manifest's `env`, passed inside with
//! `--clearenv`/`--setenv`; seccomp filters refuse Unix sockets; a
//! networked sandbox gets slirp4netns (`sandbox/net.rs`).
//!
//! [`SANDBOX_ALLOW`]: crate::io::child_env::SANDBOX_ALLOW

use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use zot_ext_protocol::Sandbox;

use crate::io::child_env::{sandbox_allows, Scrub};
use crate::io::sandbox::{self, fds, net};

/// What to start.
pub struct Request<'a> {
    /// The program, resolved on zot's side (`manifest::resolve_exec`).
    pub exec: &'a Path,
    /// The program as the manifest names it (`exec`, or an MCP server's
    /// `command`): a bare name is looked up again inside a sandbox.
    pub raw_exec: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Its directory (and cwd).
    pub dir: &'a Path,
    /// What zot's environment loses.
    pub scrub: &'a Scrub,
    /// Variables set on top: zot's SDK variables, then the manifest's `env`.
    pub envs: &'a [(OsString, OsString)],
    /// The sandbox, when the manifest declares one.
    pub sandbox: Option<Sandboxed<'a>>,
    /// Whether an unsandboxed extension runs under a keeper that sweeps
    /// what it leaves behind (`subreaper.rs`). zot always wants one; `zot
    /// ext test` goes without, to tell the author what would be left.
    pub keeper: bool,
}

/// How to sandbox it.
pub struct Sandboxed<'a> {
    /// The manifest's grants.
    pub spec: &'a Sandbox,
    /// bwrap, already probed ([`sandbox::probe`]).
    pub bwrap: &'a Path,
    /// slirp4netns as configured (found here when `net` is true).
    pub slirp4netns: &'a Path,
    /// zot's unpacked SDKs.
    pub sdk: Option<&'a Path>,
    /// `$ZOT_HOME`.
    pub zot_home: &'a Path,
    /// What `~` means.
    pub home: Option<&'a Path>,
}

/// A command ready to spawn, and what must happen around the spawn.
pub struct Prepared {
    /// The command: program, arguments, environment, directory, hooks.
    /// Standard streams are the caller's to set.
    pub cmd: Command,
    /// Descriptors the child inherits; drop them right after the spawn
    /// (bwrap sees the end-of-file of its info pipe only once zot's copies
    /// are gone).
    pub passed: Vec<OwnedFd>,
    /// A networked sandbox's remaining steps, to run after the spawn
    /// ([`net::Pending::finish`]).
    pub net: Option<net::Pending>,
    /// Notes for the extension's log (grants that were skipped).
    pub notes: Vec<String>,
    /// Whether zot's child is its keeper, which must never be killed
    /// directly.
    pub kept: bool,
}

/// Prepares one start. Errors say what is wrong and how to fix it.
pub fn prepare(req: &Request) -> Result<Prepared, String> {
    match &req.sandbox {
        None => Ok(plain(req)),
        Some(sb) => sandboxed(req, sb),
    }
}

fn plain(req: &Request) -> Prepared {
    let mut cmd = Command::new(req.exec);
    cmd.args(req.args).current_dir(req.dir).process_group(0);
    for name in req.scrub.to_remove_from_current() {
        cmd.env_remove(name);
    }
    cmd.envs(req.envs.iter().map(|(k, v)| (k, v)));
    if req.keeper {
        // SAFETY: getpgid has no preconditions.
        let zot_pgid = unsafe { libc::getpgid(0) };
        // SAFETY: `split` is async-signal-safe and made for this hook
        // (after std has set the process group).
        unsafe {
            cmd.pre_exec(move || crate::io::subreaper::split(zot_pgid));
        }
    }
    Prepared {
        cmd,
        passed: Vec::new(),
        net: None,
        notes: Vec::new(),
        kept: req.keeper,
    }
}

fn sandboxed(req: &Request, sb: &Sandboxed) -> Result<Prepared, String> {
    let fail =
        |what: &str, e: std::io::Error| format!("could not prepare its sandbox ({what}: {e})");
    let mut passed: Vec<OwnedFd> = Vec::new();
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, v)| sandbox_allows(k) && !req.scrub.drops(k, v))
        .collect();
    env.push(("TMPDIR".into(), "/tmp".into()));
    env.extend(req.envs.iter().cloned());
    let resolv = if sb.spec.net {
        let fd = fds::memfd("resolv.conf", net::RESOLV_CONF.as_bytes())
            .map_err(|e| fail("resolv.conf", e))?;
        let raw = fd.as_raw_fd();
        passed.push(fd);
        Some(raw)
    } else {
        None
    };
    // A Rust extension's launcher runs a build from outside its folder
    // (the workspace's `target/`): that one binary is shown, and the
    // launcher is told where it is (`CARGO_TARGET_DIR`, which it reads).
    let dir = std::fs::canonicalize(req.dir).unwrap_or_else(|_| req.dir.to_path_buf());
    let program = crate::io::program::rust_program(req.dir)
        .and_then(|p| p.found)
        .filter(|b| !b.starts_with(&dir));
    if let Some(target) = program
        .as_deref()
        .and_then(Path::parent)
        .and_then(Path::parent)
    {
        env.push(("CARGO_TARGET_DIR".into(), target.as_os_str().to_owned()));
    }
    let runtime_dirs = sandbox::runtime_dirs();
    let plan = sandbox::Plan {
        spec: sb.spec,
        ext_dir: req.dir,
        sdk: sb.sdk,
        zot_home: sb.zot_home,
        home: sb.home,
        runtime_dirs: &runtime_dirs,
        env: &env,
        resolv_conf_fd: resolv,
        program: program.as_deref(),
    };
    let built = sandbox::bwrap_args(&plan)?;
    let mut args = built.args;
    for prog in sandbox::seccomp::programs()? {
        let fd = fds::memfd("seccomp", &prog).map_err(|e| fail("seccomp", e))?;
        args.push("--add-seccomp-fd".into());
        args.push(fd.as_raw_fd().to_string().into());
        passed.push(fd);
    }
    let pending = if sb.spec.net {
        let slirp = net::find(sb.slirp4netns)?;
        let (pending, ends) = net::pipes(slirp).map_err(|e| fail("pipes", e))?;
        args.extend(ends.args());
        passed.extend(ends.into_fds());
        Some(pending)
    } else {
        None
    };
    let inside = sandbox::exec_inside(&plan, req.raw_exec, req.exec)?;
    let mut list = Vec::new();
    for a in &args {
        list.extend_from_slice(std::os::unix::ffi::OsStrExt::as_bytes(a.as_os_str()));
        list.push(0);
    }
    let args_fd = fds::memfd("bwrap-args", &list).map_err(|e| fail("arguments", e))?;
    let mut cmd = Command::new(sb.bwrap);
    // The options come from the descriptor; the command itself must be on
    // the command line (bwrap reads only options through `--args`).
    cmd.arg("--args")
        .arg(args_fd.as_raw_fd().to_string())
        .arg("--")
        .arg(inside)
        .args(req.args)
        .current_dir(req.dir)
        .env_clear();
    passed.push(args_fd);
    let raw: Vec<i32> = passed.iter().map(AsRawFd::as_raw_fd).collect();
    // SAFETY: `setsid` and `fcntl` are async-signal-safe and touch no
    // memory of the parent's; they run in the forked child before exec.
    unsafe {
        cmd.pre_exec(move || {
            // A session of its own: no controlling terminal, so nothing
            // inside can inject keystrokes into zot's (TIOCSTI). Its
            // session id is its pid, also its process group id, so the
            // group signals, the guard and the reaper reach bwrap and all
            // inside (bwrap is not given `--new-session`, which would move
            // the extension to a group of its own).
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            fds::inherit(&raw)
        });
    }
    Ok(Prepared {
        cmd,
        passed,
        net: pending,
        notes: built.notes,
        kept: false,
    })
}

/// What `~` means for a sandbox: zot's `$HOME`.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

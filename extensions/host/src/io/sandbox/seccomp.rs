//! The seccomp filters every sandboxed extension runs under, handed to
//! bwrap with `--add-seccomp-fd`: a read grant is not a socket grant. A
//! read-only bind does not stop `connect()` on a Unix socket inside it, so
//! a grant of a folder holding one (the session bus, docker, an agent)
//! would reach the service behind it. The filters therefore refuse to make
//! a Unix socket at all:
//!
//! - `socket(AF_UNIX, …)` fails with `EACCES`, so nothing can `connect()`
//!   or `bind()` to a socket path or an abstract name;
//! - `socketpair(AF_UNIX, SOCK_STREAM | SOCK_SEQPACKET, …)` still works (a
//!   connected pair reaches nothing but itself; Python's asyncio and Node
//!   use it for their event loops), but `SOCK_DGRAM` pairs fail with
//!   `EACCES`: a datagram socket may `sendto()` any path;
//! - on x86-64, the x32 numbers of those two calls fail with `EACCES`;
//! - `io_uring_setup` fails with `ENOSYS` (runtimes then fall back to
//!   epoll): io_uring can make sockets without the `socket` call.
//!
//! Everything else is allowed; the namespaces do the rest. A program that
//! needs a listening Unix socket of its own (Python's multiprocessing
//! `forkserver`) fails inside the sandbox; `fork` and `spawn` work.

use std::collections::BTreeMap;

use seccompiler::{
    BackendError, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The x32 ABI's bit in a syscall number on x86-64.
const X32_BIT: i64 = 0x4000_0000;

/// The filters as bwrap reads them (one `--add-seccomp-fd` each): compiled
/// classic-BPF programs, 8 bytes per instruction in the machine's byte
/// order. A process of another architecture is killed. Fails on an
/// architecture seccompiler does not know, and then no sandbox is made:
/// never one without the filters.
pub fn programs() -> Result<Vec<Vec<u8>>, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| {
        format!(
            "zot has no seccomp filter for this architecture ({}): {e}",
            std::env::consts::ARCH
        )
    })?;
    let unix = libc::AF_UNIX as u64;
    let mut eacces: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    eacces.insert(libc::SYS_socket, vec![rule(vec![arg_eq(0, unix)])?]);
    eacces.insert(
        libc::SYS_socketpair,
        vec![rule(vec![
            arg_eq(0, unix),
            // The low bits of `type`: SOCK_NONBLOCK and SOCK_CLOEXEC are
            // flags above them.
            SeccompCondition::new(
                1,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(0xf),
                libc::SOCK_DGRAM as u64,
            ),
        ])?],
    );
    if cfg!(target_arch = "x86_64") {
        for nr in [libc::SYS_socket, libc::SYS_socketpair] {
            eacces.insert(nr | X32_BIT, vec![]);
        }
    }
    let mut enosys: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    enosys.insert(libc::SYS_io_uring_setup, vec![]);
    Ok(vec![
        compile(eacces, libc::EACCES, arch)?,
        compile(enosys, libc::ENOSYS, arch)?,
    ])
}

fn arg_eq(arg: u8, value: u64) -> Result<SeccompCondition, BackendError> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
}

fn rule(conds: Vec<Result<SeccompCondition, BackendError>>) -> Result<SeccompRule, String> {
    let conds = conds
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(built)?;
    SeccompRule::new(conds).map_err(built)
}

fn built(e: BackendError) -> String {
    format!("could not build the sandbox's seccomp filter: {e}")
}

/// One program: `errno` for a matching call, allow for the rest.
fn compile(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
    arch: TargetArch,
) -> Result<Vec<u8>, String> {
    let errno = u32::try_from(errno).map_err(|_| built(BackendError::IdenticalActions))?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno),
        arch,
    )
    .map_err(built)?;
    let prog: seccompiler::BpfProgram = filter.try_into().map_err(built)?;
    let mut out = Vec::with_capacity(prog.len() * 8);
    for ins in prog {
        out.extend_from_slice(&ins.code.to_ne_bytes());
        out.push(ins.jt);
        out.push(ins.jf);
        out.extend_from_slice(&ins.k.to_ne_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_programs_compile_to_whole_instructions() {
        let progs = super::programs().unwrap();
        assert_eq!(progs.len(), 2);
        for p in progs {
            assert!(!p.is_empty() && p.len() % 8 == 0, "{}", p.len());
        }
    }
}

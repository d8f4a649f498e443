//! The process table, read from /proc/PID/stat in one pass, for the two
//! questions the host asks of processes it did not spawn directly: how much
//! memory an extension's whole tree holds (`proc_usage.rs`), and whether
//! anything of an extension's process group still runs (`process.rs`).
//! Where there is no /proc the answer is None, never a guess.

/// The fields of one /proc/PID/stat line the host reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcStat {
    /// Its pid.
    pub pid: i32,
    /// R, S, D and the rest; Z for a zombie (exited, not yet reaped), X
    /// for dead.
    pub state: char,
    /// Its parent's pid.
    pub ppid: i32,
    /// Its process group.
    pub pgrp: i32,
    /// Its resident set, in pages.
    pub rss_pages: u64,
}

impl ProcStat {
    /// Whether it has exited: a zombie has released everything but its
    /// pid and waits only to be reaped by its parent.
    pub fn exited(&self) -> bool {
        matches!(self.state, 'Z' | 'X')
    }
}

/// Every process now, or None where /proc is not there. A process that
/// exits between the directory listing and the read of its line is left
/// out.
pub fn processes() -> Option<impl Iterator<Item = ProcStat>> {
    let dir = std::fs::read_dir("/proc").ok()?;
    Some(dir.flatten().filter_map(|entry| {
        let pid = entry.file_name().to_str()?.parse().ok()?;
        let line = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        parse(pid, &line)
    }))
}

/// One /proc/PID/stat line. The command name (field 2) is in parentheses
/// and may hold spaces or parentheses itself, so fields are counted after
/// its last `)`.
fn parse(pid: i32, line: &str) -> Option<ProcStat> {
    let (_, rest) = line.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state(3) ppid(4) pgrp(5) … rss(24), so index 0, 1, 2 and 21 here.
    Some(ProcStat {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        rss_pages: fields.get(21)?.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
        let line = "42 (my (odd) name) Z 7 40 40 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123 4096000 250 18446744073709551615";
        let p = parse(42, line).unwrap();
        assert_eq!(
            p,
            ProcStat {
                pid: 42,
                state: 'Z',
                ppid: 7,
                pgrp: 40,
                rss_pages: 250
            }
        );
        assert!(p.exited());
    }

    #[test]
    fn a_truncated_line_is_not_a_process() {
        assert_eq!(parse(42, "42 (x) S 7"), None);
        assert_eq!(parse(42, "garbage"), None);
    }

    #[test]
    fn this_process_is_in_the_table_and_running() {
        let Some(mut all) = processes() else {
            return; // no /proc here
        };
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let p = all.find(|p| p.pid == me).expect("this process");
        assert!(!p.exited(), "{p:?}");
        // SAFETY: getpgrp has no preconditions.
        assert_eq!(p.pgrp, unsafe { libc::getpgrp() });
    }
}

//! How much memory an extension's processes hold right now, for the
//! manager's "Running extensions" view. An extension is rarely one process
//! (`go run .` builds then execs a child, `npx tsx` runs node under npm, a
//! sandboxed one sits under bwrap), so it is the resident memory of the
//! whole tree under the pid the host spawned. Read from /proc in one pass
//! for all extensions; elsewhere it is unknown (None), never a guess.

use std::collections::HashMap;

/// One process: its parent and its resident set in bytes.
struct Proc {
    ppid: i32,
    rss: u64,
}

/// Resident bytes of each root's process tree (the root and every
/// descendant). Roots that are gone, or a system without /proc, give None.
pub fn tree_rss(roots: &[i32]) -> HashMap<i32, u64> {
    let Some(table) = snapshot() else {
        return HashMap::new();
    };
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for (&pid, p) in &table {
        children.entry(p.ppid).or_default().push(pid);
    }
    let mut out = HashMap::new();
    for &root in roots {
        if !table.contains_key(&root) {
            continue;
        }
        let mut total = 0u64;
        let mut stack = vec![root];
        // A pid table is a tree, but /proc is read while processes come and
        // go; the step bound keeps a torn read from looping.
        let mut steps = table.len();
        while let Some(pid) = stack.pop() {
            if steps == 0 {
                break;
            }
            steps -= 1;
            total = total.saturating_add(table.get(&pid).map_or(0, |p| p.rss));
            stack.extend(children.get(&pid).into_iter().flatten().copied());
        }
        out.insert(root, total);
    }
    out
}

/// Every process's parent and RSS, or None where /proc is not there.
fn snapshot() -> Option<HashMap<i32, Proc>> {
    let page = page_size();
    let mut table = HashMap::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        // A process that exits between read_dir and this read is skipped.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some((ppid, pages)) = parse_stat(&stat) {
            table.insert(
                pid,
                Proc {
                    ppid,
                    rss: pages.saturating_mul(page),
                },
            );
        }
    }
    Some(table)
}

/// `ppid` (field 4) and `rss` in pages (field 24) of a /proc/PID/stat line.
/// The command name (field 2) is in parentheses and may hold spaces or
/// parentheses itself, so fields are counted after its last `)`.
fn parse_stat(line: &str) -> Option<(i32, u64)> {
    let (_, rest) = line.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state(3) ppid(4) … rss(24), so index 1 and 21 here.
    let ppid = fields.get(1)?.parse().ok()?;
    let rss = fields.get(21)?.parse().ok()?;
    Some((ppid, rss))
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions; it only reads a constant.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(n).ok().filter(|&n| n > 0).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
        let line = "42 (my (odd) name) S 7 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123 4096000 250 18446744073709551615";
        assert_eq!(parse_stat(line), Some((7, 250)));
    }

    #[test]
    fn a_truncated_line_is_not_a_process() {
        assert_eq!(parse_stat("42 (x) S 7"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn this_process_tree_holds_memory_and_a_missing_pid_has_none() {
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let got = tree_rss(&[me, i32::MAX]);
        if std::path::Path::new("/proc/self/stat").exists() {
            assert!(got.get(&me).copied().unwrap_or(0) > 1024 * 1024, "{got:?}");
        }
        assert!(!got.contains_key(&i32::MAX));
    }
}

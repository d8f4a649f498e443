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
    let table = crate::io::proc_stat::processes()?
        .map(|p| {
            let proc = Proc {
                ppid: p.ppid,
                rss: p.rss_pages.saturating_mul(page),
            };
            (p.pid, proc)
        })
        .collect();
    Some(table)
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
    fn this_process_tree_holds_memory_and_a_missing_pid_has_none() {
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let got = tree_rss(&[me, i32::MAX]);
        if std::path::Path::new("/proc/self/stat").exists() {
            assert!(got.get(&me).copied().unwrap_or(0) > 1024 * 1024, "{got:?}");
        }
        assert!(!got.contains_key(&i32::MAX));
    }
}

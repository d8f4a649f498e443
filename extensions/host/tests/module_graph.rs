//! The host's modules depend on each other one way only (docs/architecture.md
//! draws the layers). This reads every `crate::` path in `src/` and fails,
//! naming the loop, if any module reaches one that reaches it back, however
//! many steps around: a cycle is how one shared bag of state crept in before.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module name → the modules it names through `crate::`.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir` with the top-level module it belongs to.
fn files(dir: &Path, module: Option<&str>, out: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let owner = module.map(str::to_owned).unwrap_or_else(|| stem.clone());
        if path.is_dir() {
            files(&path, Some(&owner), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((owner, path));
        }
    }
}

/// What `lib.rs` re-exports at the crate root: item name → its module.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        let items = items
            .trim_end_matches(';')
            .trim_matches(|c| c == '{' || c == '}');
        for item in items.split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or("").to_owned();
            if !name.is_empty() {
                map.insert(name, module.to_owned());
            }
        }
    }
    map
}

/// The first path segments named after each `crate::` in `text`, with the
/// items of `use crate::{a, b::c}` groups (nested braces included).
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // Top-level items only: `b::{c, d}` is one item, `b`.
                let mut depth = 0;
                let mut item = String::new();
                let mut items = Vec::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                        _ if depth == 0 => item.push(c),
                        _ => {}
                    }
                }
                items.push(item);
                for item in items {
                    let seg: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !seg.is_empty() {
                        out.push(seg);
                    }
                }
            } else {
                let seg: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(seg);
            }
        }
    }
    out
}

fn graph() -> Graph {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let names = reexports(&lib);
    let mut all = Vec::new();
    files(&src(), None, &mut all);
    let modules: BTreeSet<String> = all.iter().map(|(m, _)| m.clone()).collect();
    let mut g = Graph::new();
    for (module, path) in &all {
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let deps = g.entry(module.clone()).or_default();
        for seg in crate_paths(&text) {
            let target = if modules.contains(&seg) {
                Some(seg)
            } else {
                names.get(&seg).cloned()
            };
            if let Some(t) = target.filter(|t| t != module && t != "lib") {
                deps.insert(t);
            }
        }
    }
    g
}

/// A cycle in `g`, as the modules around it, if there is one.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(
        g: &Graph,
        m: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(m.to_owned());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_owned());
        for d in g.get(m).into_iter().flatten() {
            if let Some(c) = visit(g, d, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        if let Some(c) = visit(g, m, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn host_modules_form_no_cycle() {
    let g = graph();
    assert!(g.contains_key("host") && g.contains_key("state"), "{g:?}");
    if let Some(cycle) = find_cycle(&g) {
        panic!(
            "host modules import each other in a cycle: {}; move what both need into a lower module (see docs/architecture.md)",
            cycle.join(" → ")
        );
    }
}

#[test]
fn the_leaves_stay_leaves() {
    let g = graph();
    for leaf in ["events", "ext_id", "panel_table", "deadlines", "uses"] {
        let deps = &g[leaf];
        let allowed: BTreeSet<String> = ["ext_id".to_owned()].into();
        assert!(
            deps.is_subset(&allowed),
            "{leaf} must not depend on other host modules, but uses {deps:?}"
        );
    }
    // Nothing below the handle reaches up to it.
    for low in [
        "state",
        "extension",
        "router",
        "supervisor",
        "panels",
        "shutdown",
        "load",
    ] {
        assert!(!g[low].contains("host"), "{low} imports host: {:?}", g[low]);
    }
}

#[test]
fn the_checker_sees_a_cycle() {
    let mut g = Graph::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_cycle(&g).unwrap(), vec!["a", "b", "c", "a"]);
    g.get_mut("c").unwrap().clear();
    assert_eq!(find_cycle(&g), None);
    assert_eq!(
        crate_paths("use crate::{a, b::{c, d}};\nx(crate::e::f); // crate::g"),
        vec!["a", "b", "e"]
    );
}

//! Modules depend on each other one way only: an import cycle is how one
//! shared bag of state creeps in. Every crate of the workspace has a test
//! (`tests/module_graph.rs`) that builds its graph with [`rust_crate`] and
//! fails, naming the loop, through [`assert_no_cycle`].
//!
//! The unit is a top-level module (`agent`, `tools`, …: a file beside
//! `lib.rs` and everything in its folder), because that is the layer the
//! architecture doc draws; an edge is any `crate::` path (or an item the
//! crate root re-exports) named in that module's files. `super::` stays
//! inside a module and is not an edge. This is a reading of the text, not of
//! the compiler's resolution, so it stays a few hundred lines and needs no
//! dependency; the self-test below keeps it honest.
#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module name → the modules of the same crate it names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// The graph of the Rust crate whose sources are in `src` (the folder with
/// `lib.rs`). `main.rs` and `lib.rs` are roots, never nodes: they may name
/// every module.
pub fn rust_crate(src: &Path) -> Graph {
    rust_crate_layered(src, &[])
}

/// The graph of a crate whose top-level modules named in `layers` are
/// folders of modules (`src/run.rs` only declares `src/run/*.rs`): each
/// module inside a layer is its own node, `layer::module`, so the check is
/// as fine as it was before the files moved into folders; the layer files
/// themselves are roots like `lib.rs`. Every other top-level module is one
/// node as in [`rust_crate`].
pub fn rust_crate_layered(src: &Path, layers: &[&str]) -> Graph {
    let lib = read(&src.join("lib.rs"));
    let mut all = Vec::new();
    files(src, None, &mut all);
    let nodes: Vec<(String, PathBuf)> = all
        .into_iter()
        .filter_map(|(top, path)| {
            if !layers.contains(&top.as_str()) {
                return Some((top, path));
            }
            let rel = path.strip_prefix(src.join(&top)).ok()?;
            let first = rel.components().next()?.as_os_str().to_string_lossy();
            let stem = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
            Some((format!("{top}::{stem}"), path))
        })
        .collect();
    let modules: BTreeSet<String> = nodes.iter().map(|(m, _)| m.clone()).collect();
    let names = reexports(src, &lib, &modules, layers);
    let resolve = |path: &[String]| -> Option<String> {
        let first = path.first()?;
        if layers.contains(&first.as_str()) {
            let node = format!("{first}::{}", path.get(1)?);
            return modules.contains(&node).then_some(node);
        }
        if modules.contains(first) {
            return Some(first.clone());
        }
        names.get(first).cloned()
    };
    let mut g = Graph::new();
    for (module, path) in &nodes {
        if module == "lib" || module == "main" {
            continue;
        }
        let text = read(path);
        let deps = g.entry(module.clone()).or_default();
        for segs in crate_path_segments(&text) {
            if let Some(t) = resolve(&segs).filter(|t| t != module && t != "lib" && t != "main") {
                deps.insert(t);
            }
        }
    }
    g
}

/// Fails the test, naming the loop and what to do, if `g` has a cycle.
/// `what` names the crate in the message.
pub fn assert_no_cycle(what: &str, g: &Graph) {
    if let Some(cycle) = find_cycle(g) {
        panic!(
            "{what} modules import each other in a cycle: {}; move what both need into a lower module (see docs/architecture.md)",
            cycle.join(" → ")
        );
    }
}

/// A cycle in `g`, as the modules around it (the first repeated at the
/// end), if there is one.
pub fn find_cycle(g: &Graph) -> Option<Vec<String>> {
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

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every `.rs` file under `dir` with the top-level module it belongs to.
fn files(dir: &Path, module: Option<&str>, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let owner = module.map(str::to_owned).unwrap_or_else(|| stem.clone());
        if path.is_dir() {
            files(&path, Some(&owner), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((owner, path));
        }
    }
}

/// What the crate root re-exports: item name → the module it comes from.
/// `pub use m::*` maps every `pub` item declared in `m`'s files.
/// In a layer (see [`rust_crate_layered`]) the item maps to `layer::module`.
fn reexports(
    src: &Path,
    lib: &str,
    modules: &BTreeSet<String>,
    layers: &[&str],
) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let code: String = lib
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    for stmt in code.split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest
            .trim()
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        if layers.contains(&module) {
            for path in use_tree(items).0 {
                if let (Some(first), Some(last)) = (path.first(), path.last()) {
                    let node = format!("{module}::{first}");
                    if modules.contains(&node) {
                        map.insert(last.clone(), node);
                    }
                }
            }
            continue;
        }
        if !modules.contains(module) {
            continue; // another crate's items
        }
        if items.trim() == "*" {
            let mut own = Vec::new();
            if src.join(module).is_dir() {
                files(&src.join(module), Some(module), &mut own);
            }
            own.push((module.to_owned(), src.join(format!("{module}.rs"))));
            for (_, path) in own.into_iter().filter(|(_, p)| p.exists()) {
                for name in pub_items(&read(&path)) {
                    map.insert(name, module.to_owned());
                }
            }
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in split_top(items) {
            let item = item.split(" as ").last().unwrap_or("");
            let name = item
                .trim()
                .rsplit("::")
                .next()
                .unwrap_or("")
                .trim()
                .to_owned();
            if !name.is_empty() && name != "*" {
                map.insert(name, module.to_owned());
            }
        }
    }
    map
}

/// The names of the `pub` items a file declares.
fn pub_items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("pub ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        if let (Some(kind), Some(name)) = (words.next(), words.next()) {
            if [
                "struct", "enum", "fn", "type", "const", "static", "trait", "mod",
            ]
            .contains(&kind)
            {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(name);
            }
        }
    }
    out
}

/// Splits `a, b::{c, d}, e` at the commas outside braces.
fn split_top(group: &str) -> Vec<String> {
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in group.chars() {
        match c {
            '{' => {
                depth += 1;
                item.push(c);
            }
            '}' if depth == 0 => break,
            '}' => {
                depth -= 1;
                item.push(c);
            }
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            _ => item.push(c),
        }
    }
    items.push(item);
    items
}

/// The first path segments named after each `crate::` in `text`, with the
/// items of `use crate::{a, b::c}` groups (nested braces included).
/// Comments are skipped; so is the `$crate::` of a macro, which names the
/// crate the macro is used in.
pub fn crate_paths(text: &str) -> Vec<String> {
    let mut firsts: Vec<String> = crate_path_segments(text)
        .into_iter()
        .filter_map(|p| p.into_iter().next())
        .collect();
    firsts.dedup(); // `b::{c, d}` names `b` once
    firsts
}

/// Every path named after `crate::` in `text`, as its segments, with
/// `use crate::{a, b::{c, self}}` groups expanded to `[a]`, `[b, c]` and
/// `[b]`. Comments and `$crate::` are skipped as in [`crate_paths`].
pub fn crate_path_segments(text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let dollar = at > 0 && rest.as_bytes()[at - 1] == b'$';
        rest = &rest[at + "crate::".len()..];
        if !dollar {
            let (paths, _) = use_tree(rest);
            out.extend(paths.into_iter().filter(|p| !p.is_empty()));
        }
    }
    out
}

/// Reads one use tree (`a::b`, `a::{b, c::d}`, `self`, `*`) from the start
/// of `s`: the paths it names and how many bytes it took.
fn use_tree(s: &str) -> (Vec<Vec<String>>, usize) {
    let at = s.len() - s.trim_start().len();
    let body = &s[at..];
    if let Some(inner) = body.strip_prefix('{') {
        let mut paths = Vec::new();
        let mut used = 1;
        let mut rest = inner;
        loop {
            let (items, n) = use_tree(rest);
            paths.extend(items);
            // Skip what follows the item (`as name`) up to `,` or `}`.
            let tail = &rest[n..];
            let stop = tail.find([',', '}']).unwrap_or(tail.len());
            used += n + stop + 1;
            let end = tail.as_bytes().get(stop).copied();
            rest = tail.get(stop + 1..).unwrap_or("");
            if end != Some(b',') {
                break;
            }
        }
        return (paths, at + used.min(body.len()));
    }
    let ident_len = body
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let ident = &body[..ident_len];
    let after = &body[ident_len..];
    let head: Vec<String> = if ident.is_empty() || ident == "self" {
        Vec::new()
    } else {
        vec![ident.to_owned()]
    };
    if !ident.is_empty() {
        if let Some(next) = after.strip_prefix("::") {
            let (tails, n) = use_tree(next);
            let paths = tails
                .into_iter()
                .map(|t| head.iter().cloned().chain(t).collect())
                .collect();
            return (paths, at + ident_len + 2 + n);
        }
    }
    (vec![head], at + ident_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_sees_a_cycle() {
        let mut g = Graph::new();
        g.entry("a".into()).or_default().insert("b".into());
        g.entry("b".into()).or_default().insert("c".into());
        g.entry("c".into()).or_default().insert("a".into());
        assert_eq!(find_cycle(&g).unwrap(), vec!["a", "b", "c", "a"]);
        g.get_mut("c").unwrap().clear();
        assert_eq!(find_cycle(&g), None);
    }

    #[test]
    fn paths_are_read_from_uses_groups_and_expressions() {
        assert_eq!(
            crate_paths("use crate::{a, b::{c, d}};\nx(crate::e::f); // crate::g\n$crate::h::i"),
            vec!["a", "b", "e"]
        );
        assert_eq!(
            crate_paths("use crate::{\n    a::X,\n    b::{c,\n d},\n};\nuse crate::e;"),
            vec!["a", "b", "e"]
        );
    }

    #[test]
    fn groups_expand_to_whole_paths() {
        assert_eq!(
            crate_path_segments("use crate::{run::{load, self}, io::codec::Frame as F};"),
            vec![
                vec!["run".to_owned(), "load".to_owned()],
                vec!["run".to_owned()],
                vec!["io".to_owned(), "codec".to_owned(), "Frame".to_owned()],
            ]
        );
    }

    #[test]
    fn a_layer_folder_holds_one_node_per_module() {
        let dir = std::env::temp_dir().join(format!("module-graph-layers-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("run/load")).unwrap();
        std::fs::create_dir_all(dir.join("owner")).unwrap();
        std::fs::write(
            dir.join("lib.rs"),
            "mod run;\nmod owner;\npub use owner::state::Shared;\n",
        )
        .unwrap();
        std::fs::write(dir.join("run.rs"), "pub mod load;\n").unwrap();
        std::fs::write(dir.join("run/load.rs"), "use crate::Shared;\n").unwrap();
        std::fs::write(dir.join("run/load/scan.rs"), "use crate::owner::events;\n").unwrap();
        std::fs::write(dir.join("owner.rs"), "pub mod state;\npub mod events;\n").unwrap();
        std::fs::write(dir.join("owner/state.rs"), "use crate::run::load::go;\n").unwrap();
        std::fs::write(dir.join("owner/events.rs"), "").unwrap();
        let g = rust_crate_layered(&dir, &["run", "owner"]);
        std::fs::remove_dir_all(&dir).unwrap();
        let deps = |m: &str| g[m].iter().cloned().collect::<Vec<_>>();
        assert_eq!(deps("run::load"), vec!["owner::events", "owner::state"]);
        assert_eq!(deps("owner::state"), vec!["run::load"]);
        assert!(!g.contains_key("run") && !g.contains_key("owner"), "{g:?}");
        assert_eq!(
            find_cycle(&g).unwrap(),
            vec!["owner::state", "run::load", "owner::state"]
        );
    }

    #[test]
    fn reexports_map_names_globs_and_renames() {
        let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("frames.rs"),
            "pub struct Hello;\npub enum Frame {}\n",
        )
        .unwrap();
        let modules: BTreeSet<String> = ["frames".into(), "ids".into()].into();
        let lib = "pub use frames::*;\npub use ids::{\n    Id as Key,\n    Name,\n};\npub use serde::Serialize;";
        let map = reexports(&dir, lib, &modules, &[]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(map.get("Hello").map(String::as_str), Some("frames"));
        assert_eq!(map.get("Frame").map(String::as_str), Some("frames"));
        assert_eq!(map.get("Key").map(String::as_str), Some("ids"));
        assert_eq!(map.get("Name").map(String::as_str), Some("ids"));
        assert_eq!(map.get("Serialize"), None);
    }
}

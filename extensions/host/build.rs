//! Embeds the extension SDKs and the catalog of shipped extensions in the
//! host, so an installed zot can hand them out (`src/manage/sdk.rs` unpacks the
//! SDKs under `$ZOT_HOME/sdk/`, `src/manage/catalog.rs` the catalog under
//! `$ZOT_HOME/catalog/`).
//!
//! It writes `$OUT_DIR/sdk_files.rs`: one `include_bytes!` per file of the
//! Python SDK (`extensions/sdk-py/zot_ext`) and of the built TypeScript SDK
//! (`extensions/sdk-ts/{package.json,dist,dist-cjs}`, built by `make deps`),
//! plus a content hash that names the unpacked copy. `$OUT_DIR/catalog_files.rs`
//! does the same for `examples/catalog.json` and every source directory it
//! lists. Each file keeps whether it is executable. A generated list of
//! `include_bytes!` needs no extra crate (an archive would need a tar/zip
//! reader at run time; `include_dir` would be one more dependency for ~30
//! lines). When the TypeScript SDK is not built, the build still succeeds
//! with a warning and zot ships the Python SDK only.

// The leftovers rule is shared with `zot ext catalog-sign`.
#[path = "src/manage/catalog/leftovers.rs"]
mod leftovers;

use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("..");
    let py = root.join("sdk-py").join("zot_ext");
    let ts = root.join("sdk-ts");
    let mut files: Vec<(String, PathBuf)> = Vec::new();

    println!("cargo:rerun-if-changed={}", py.display());
    collect(&py, "python/zot_ext", &mut files, &|p| {
        !p.components().any(|c| c.as_os_str() == "__pycache__")
            && p.extension().is_none_or(|e| e != "pyc")
    });

    let dist = ts.join("dist");
    let dist_cjs = ts.join("dist-cjs");
    if dist.join("index.js").is_file() && dist_cjs.join("index.js").is_file() {
        println!("cargo:rerun-if-changed={}", dist.display());
        println!("cargo:rerun-if-changed={}", dist_cjs.display());
        println!(
            "cargo:rerun-if-changed={}",
            ts.join("package.json").display()
        );
        let pkg = "node/node_modules/zot-ext";
        files.push((format!("{pkg}/package.json"), ts.join("package.json")));
        let keep = |p: &Path| p.extension().is_none_or(|e| e != "map");
        collect(&dist, &format!("{pkg}/dist"), &mut files, &keep);
        collect(&dist_cjs, &format!("{pkg}/dist-cjs"), &mut files, &keep);
    } else {
        // Re-run once it gets built (the directory's mtime changes).
        println!("cargo:rerun-if-changed={}", ts.display());
        println!(
            "cargo:warning=the TypeScript SDK is not built ({} missing): this zot will not provide `zot-ext` to Node extensions; run `make deps` first",
            dist_cjs.join("index.js").display()
        );
    }
    write_list(&files, "sdk_files.rs");
    write_list(
        &catalog_files(&manifest.join("../../examples")),
        "catalog_files.rs",
    );
}

/// `examples/catalog.json` as `catalog.json` and each entry's `source`
/// directory under its own path, without state a developer's run left.
fn catalog_files(examples: &Path) -> Vec<(String, PathBuf)> {
    let index = examples.join("catalog.json");
    println!("cargo:rerun-if-changed={}", index.display());
    let text =
        std::fs::read_to_string(&index).unwrap_or_else(|e| panic!("read {}: {e}", index.display()));
    let json: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", index.display()));
    let mut files = vec![("catalog.json".to_owned(), index.clone())];
    let entries = json["extensions"].as_array().cloned().unwrap_or_default();
    for entry in entries {
        let Some(source) = entry["source"].as_str() else {
            continue;
        };
        if source.contains("..") || source.starts_with('/') || source.contains("://") {
            continue;
        }
        let dir = examples.join(source);
        println!("cargo:rerun-if-changed={}", dir.display());
        if !dir.is_dir() {
            println!(
                "cargo:warning=catalog entry source {} is missing; it will show as unavailable",
                dir.display()
            );
            continue;
        }
        let keep = |p: &Path| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            !leftovers::is_leftover(&name)
        };
        collect(&dir, source, &mut files, &keep);
    }
    files
}

/// Writes `$OUT_DIR/<out>`: the file list and its content hash.
fn write_list(files: &[(String, PathBuf)], out_name: &str) {
    let mut files = files.to_vec();
    files.sort();
    // FNV-1a over names, contents and modes: names the unpacked tree, so a
    // zot whose files changed never reuses a stale copy of the same version.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut out = String::from(
        "/// Every embedded file: its path under the tree's root, its bytes, and\n/// whether it is executable.\npub(crate) static FILES: &[(&str, &[u8], bool)] = &[\n",
    );
    for (rel, path) in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let exec = std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
        feed(rel.as_bytes());
        feed(&bytes);
        feed(&[u8::from(exec)]);
        let _ = writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?}), {exec}),",
            path.canonicalize().unwrap_or_else(|_| path.clone())
        );
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "/// Hash of names, contents and modes, part of the unpack directory's name.\npub(crate) const CONTENT_HASH: &str = \"{:08x}\";",
        hash >> 32
    );
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join(out_name);
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("write {}: {e}", dest.display()));
}

/// Adds every file under `dir` (recursively) as `prefix/<relative path>`.
fn collect(
    dir: &Path,
    prefix: &str,
    files: &mut Vec<(String, PathBuf)>,
    keep: &dyn Fn(&Path) -> bool,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !keep(&path) {
            continue;
        }
        if path.is_dir() {
            collect(&path, &format!("{prefix}/{name}"), files, keep);
        } else {
            files.push((format!("{prefix}/{name}"), path));
        }
    }
}

//! The catalog's signatures through the real binary (docs/extensions.md
//! "The catalog's signatures"): zot's own catalog is signed by zot and
//! says so in `zot ext catalog` and the install summary; a `ZOT_CATALOG`
//! index signed with `zot ext catalog-sign` installs as "signed by NAME"
//! (a trusted key) or "signed by an unknown key", an unsigned entry as
//! "unsigned"; one flipped byte in a member, a changed version, a
//! damaged signature or an edited unpacked copy of zot's catalog is
//! refused with the entry's name and what to do, installing nothing.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::cli::{Env, Run};
use zot_test_support::fixtures::{self, write_ext};

/// `zot <args>` reading the index `index` (`ZOT_CATALOG`).
fn with_index(env: &Env, index: &Path, args: &[&str]) -> Run {
    let mut c = env.command(args);
    c.env("ZOT_CATALOG", index);
    Run(c.output().unwrap())
}

fn entries(env: &Env, index: Option<&Path>) -> Vec<Value> {
    let run = match index {
        Some(i) => with_index(env, i, &["ext", "catalog", "--json"]),
        None => env.zot(&["ext", "catalog", "--json"]),
    };
    serde_json::from_str(&run.ok()).unwrap()
}

fn entry(all: &[Value], name: &str) -> Value {
    all.iter().find(|e| e["name"] == name).cloned().unwrap()
}

fn keygen(env: &Env, file: &str) -> (PathBuf, String) {
    let key = env.path(file);
    let public = env.zot(&["ext", "keygen", key.to_str().unwrap()]).ok();
    (key, public.trim().to_owned())
}

/// An index in `root` with the entries `names`, each a small extension
/// folder of that name (version 1.0.0).
fn index_of(env: &Env, names: &[&str]) -> PathBuf {
    let root = env.path("my-catalog");
    let mut listed = Vec::new();
    for name in names {
        let dir = root.join(name);
        write_ext(
            &dir,
            &format!(r#"{{"name":"{name}","version":"1.0.0","exec":"./run.sh"}}"#),
        );
        std::fs::write(dir.join("main.py"), format!("print('{name}')\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        listed.push(json!({"name": name, "version": "1.0.0", "description": format!("the {name} example"), "source": name}));
    }
    let index = root.join("catalog.json");
    std::fs::write(
        &index,
        serde_json::to_string_pretty(&json!({"catalog": 1, "extensions": listed})).unwrap(),
    )
    .unwrap();
    index
}

/// `zot ext catalog-sign --key KEY INDEX`, run to completion.
fn run_sign(env: &Env, key: &Path, index: &Path) -> Run {
    env.zot(&[
        "ext",
        "catalog-sign",
        "--key",
        key.to_str().unwrap(),
        index.to_str().unwrap(),
    ])
}

fn sign(env: &Env, key: &Path, index: &Path) -> String {
    run_sign(env, key, index).ok()
}

#[test]
fn zots_own_catalog_is_signed_by_zot_and_the_install_says_so() {
    let env = Env::new();
    let all = entries(&env, None);
    assert!(!all.is_empty());
    for e in &all {
        assert_eq!(
            e["signer"], "signed by zot",
            "every entry of zot's catalog is signed by zot's key (after changing an example or examples/catalog.json, run `make sign-catalog KEY=FILE`): {e}"
        );
    }
    let table = env.zot(&["ext", "catalog"]).ok();
    assert!(
        table.contains("SIGNED") && table.contains("signed by zot"),
        "{table}"
    );
    let out = env.zot(&["ext", "install", "dusk"]).ok();
    assert!(out.contains("catalog entry: signed by zot"), "{out}");
}

#[test]
fn an_edited_copy_of_zots_catalog_is_refused_with_how_to_restore_it() {
    let env = Env::new();
    entries(&env, None);
    let unpacked = fixtures::entries(&env.home.join("catalog"));
    let catalog_dir = env.home.join("catalog").join(&unpacked[0]);
    let theme = catalog_dir.join("extensions/dusk/theme.json");
    let mut bytes = std::fs::read(&theme).unwrap();
    bytes[10] ^= 0x20;
    std::fs::write(&theme, bytes).unwrap();

    let dusk = entry(&entries(&env, None), "dusk");
    assert_eq!(dusk["available"], false, "{dusk}");
    assert!(dusk.get("signer").is_none(), "{dusk}");
    let err = env.zot(&["ext", "install", "dusk"]).failed();
    assert!(
        err.contains("catalog entry `dusk` cannot be installed")
            && err.contains("signature (by zot) does not match")
            && err.contains(&format!("delete {}", catalog_dir.display())),
        "{err}"
    );
    assert!(env.installed_entries().is_empty());
    // The other entries are untouched and still install.
    assert!(env
        .zot(&["ext", "install", "clock"])
        .ok()
        .contains("signed by zot"));
}

#[test]
fn a_signed_index_names_its_trusted_signer_and_an_unknown_key_says_so() {
    let env = Env::new();
    let index = index_of(&env, &["alpha", "beta"]);
    let (key, public) = keygen(&env, "catalog.key");
    let out = sign(&env, &key, &index);
    assert!(
        out.contains("signed alpha (digest ") && out.contains("signed beta"),
        "{out}"
    );

    // Nobody trusts the key yet.
    let all = entries(&env, Some(&index));
    assert_eq!(entry(&all, "alpha")["signer"], "signed by an unknown key");
    let out = with_index(&env, &index, &["ext", "install", "alpha"]).ok();
    assert!(
        out.contains("catalog entry: signed by an unknown key"),
        "{out}"
    );

    std::fs::write(
        env.home.join("config.json"),
        json!({"trusted_keys": {"Alice": public}}).to_string(),
    )
    .unwrap();
    let all = entries(&env, Some(&index));
    assert_eq!(entry(&all, "beta")["signer"], "signed by Alice");
    let out = with_index(&env, &index, &["ext", "install", "beta"]).ok();
    assert!(out.contains("catalog entry: signed by Alice"), "{out}");

    // Nobody but zot's key signs as zot, whatever config.json calls a key.
    std::fs::write(
        env.home.join("config.json"),
        json!({"trusted_keys": {"zot": public}}).to_string(),
    )
    .unwrap();
    let all = entries(&env, Some(&index));
    assert_eq!(entry(&all, "beta")["signer"], "signed by an unknown key");
}

#[test]
fn an_unsigned_entry_installs_as_unsigned() {
    let env = Env::new();
    let index = index_of(&env, &["plain"]);
    let all = entries(&env, Some(&index));
    assert_eq!(entry(&all, "plain")["signer"], "unsigned");
    assert_eq!(entry(&all, "plain")["available"], true);
    let out = with_index(&env, &index, &["ext", "install", "plain"]).ok();
    assert!(out.contains("catalog entry: unsigned"), "{out}");
    assert_eq!(env.installed_entries(), ["plain"]);
}

/// Signs `alpha` and `beta`, applies `tamper` to the signed index's folder
/// or file, and checks `alpha` is refused (listed unavailable, install
/// fails naming it and what to do) while `beta` still installs.
fn refused_after(tamper: impl FnOnce(&Path, &Path), says: &str) {
    let env = Env::new();
    let index = index_of(&env, &["alpha", "beta"]);
    let (key, _) = keygen(&env, "catalog.key");
    sign(&env, &key, &index);
    tamper(index.parent().unwrap(), &index);

    let alpha = entry(&entries(&env, Some(&index)), "alpha");
    assert_eq!(alpha["available"], false, "{alpha}");
    let reason = alpha["unavailable_reason"].as_str().unwrap();
    assert!(reason.contains(says), "{reason}");
    let err = with_index(&env, &index, &["ext", "install", "alpha"]).failed();
    assert!(
        err.contains("catalog entry `alpha` cannot be installed")
            && err.contains(says)
            && err.contains("zot refuses it")
            && err.contains("zot ext catalog-sign --key KEYFILE"),
        "{err}"
    );
    assert!(env.installed_entries().is_empty(), "nothing was installed");
    with_index(&env, &index, &["ext", "install", "beta"]).ok();
    assert_eq!(env.installed_entries(), ["beta"]);
}

#[test]
fn one_flipped_byte_in_a_member_is_refused() {
    refused_after(
        |root, _| {
            let file = root.join("alpha/main.py");
            let mut bytes = std::fs::read(&file).unwrap();
            bytes[0] ^= 0x01;
            std::fs::write(&file, bytes).unwrap();
        },
        "does not match it",
    );
}

#[test]
fn a_member_added_after_signing_is_refused() {
    refused_after(
        |root, _| std::fs::write(root.join("alpha/extra.py"), "import os\n").unwrap(),
        "does not match it",
    );
}

#[test]
fn an_executable_bit_set_after_signing_is_refused() {
    refused_after(
        |root, _| {
            use std::os::unix::fs::PermissionsExt;
            let file = root.join("alpha/main.py");
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        },
        "does not match it",
    );
}

/// Rewrites `alpha`'s entry in the index.
fn edit_alpha(index: &Path, edit: impl FnOnce(&mut Value)) {
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(index).unwrap()).unwrap();
    let alpha = json["extensions"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == "alpha")
        .unwrap();
    edit(alpha);
    std::fs::write(index, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

#[test]
fn a_changed_version_in_the_index_is_refused() {
    refused_after(
        |_, index| edit_alpha(index, |e| e["version"] = json!("9.9.9")),
        "does not match it",
    );
}

#[test]
fn a_changed_description_in_the_index_is_refused() {
    refused_after(
        |_, index| edit_alpha(index, |e| e["description"] = json!("harmless, honest")),
        "does not match it",
    );
}

#[test]
fn a_damaged_signature_is_refused() {
    refused_after(
        |_, index| {
            edit_alpha(index, |e| {
                e["signature"]["ed25519"] = json!("bm90IGEgc2lnbmF0dXJl")
            })
        },
        "is damaged",
    );
}

#[test]
fn another_entrys_signature_does_not_fit() {
    refused_after(
        |_, index| {
            let json: Value =
                serde_json::from_str(&std::fs::read_to_string(index).unwrap()).unwrap();
            let beta_sig = json["extensions"][1]["signature"].clone();
            edit_alpha(index, |e| e["signature"] = beta_sig);
        },
        "does not match it",
    );
}

#[test]
fn signing_refuses_a_folder_with_a_leftover_and_an_entry_that_cannot_install() {
    let env = Env::new();
    let index = index_of(&env, &["alpha"]);
    let before = std::fs::read_to_string(&index).unwrap();
    let (key, _) = keygen(&env, "catalog.key");
    let cache = index.parent().unwrap().join("alpha/__pycache__");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(cache.join("main.cpython-311.pyc"), "x").unwrap();
    let err = run_sign(&env, &key, &index).failed();
    assert!(
        err.contains("cannot sign the catalog entry `alpha`")
            && err.contains("__pycache__")
            && err.contains("remove it and sign again")
            && err.contains("nothing was signed"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&index).unwrap(), before);

    std::fs::remove_dir_all(&cache).unwrap();
    std::fs::remove_file(index.parent().unwrap().join("alpha/run.sh")).unwrap();
    let err = run_sign(&env, &key, &index).failed();
    assert!(
        err.contains("cannot sign the catalog entry `alpha`: it cannot be installed"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&index).unwrap(), before);
}

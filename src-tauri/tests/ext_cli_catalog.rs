//! `zot ext catalog` and `zot ext install <catalog-name>` through the real
//! binary: the shipped catalog is unpacked into `$ZOT_HOME/catalog/`, lists
//! every entry with what it registers and touches, installs by name through
//! the ordinary install path, and shows broken entries as unavailable with
//! the reason instead of failing.

use zot_test_support::fake_llm;
use zot_test_support::fixtures;
use zot_test_support::rpc;

use serde_json::{json, Value};
use zot_test_support::cli::Env;

fn catalog(env: &Env, extra: &[(&str, &str)]) -> Vec<Value> {
    let mut c = env.command(&["ext", "catalog", "--json"]);
    for (k, v) in extra {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_shipped_catalog_lists_installable_extensions_with_what_they_register() {
    let env = Env::new();
    let entries = catalog(&env, &[]);
    let names: Vec<&str> = entries
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    for want in [
        "todo",
        "scratchpad",
        "clock",
        "hello-py",
        "toolchart",
        "dusk",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for e in &entries {
        assert_eq!(e["available"], true, "{e}");
        assert_eq!(e["installed"], false, "{e}");
        assert!(!e["description"].as_str().unwrap().is_empty(), "{e}");
    }
    let todo = entries.iter().find(|e| e["name"] == "todo").unwrap();
    assert_eq!(todo["registers"]["tools"], json!(["todo_manage"]));
    assert_eq!(todo["registers"]["panels"], json!(["todos-main"]));
    assert!(!todo["permissions"].as_array().unwrap().is_empty());
    // Unpacked once into $ZOT_HOME/catalog/<version>-<hash>.
    let dirs = fixtures::entries(&env.home.join("catalog"));
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    assert!(dirs[0].starts_with(env!("CARGO_PKG_VERSION")), "{dirs:?}");

    let table = env.zot(&["ext", "catalog"]).ok();
    assert!(table.contains("tool todo_manage"), "{table}");
}

#[tokio::test]
async fn a_catalog_name_installs_and_the_installed_copy_runs() {
    let env = Env::new();
    let out = env.zot(&["ext", "install", "todo"]).ok();
    assert!(out.contains("installed todo 1.0.0"), "{out}");
    assert!(env.extensions().join("todo/todo.py").is_file());
    let todo = catalog(&env, &[]);
    let todo = todo.iter().find(|e| e["name"] == "todo").unwrap();
    assert_eq!(todo["installed"], true);

    let llm = fake_llm::FakeLlm::start().await;
    let mut z = rpc::Rpc::against(&llm, &env.home, &env.project, &["--no-session"], &[]).await;
    let r = z
        .call(json!({"type":"command","name":"todo","args":"from the catalog"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let saved = std::fs::read_to_string(env.extensions().join("todo/todos.json")).unwrap();
    assert!(saved.contains("from the catalog"), "{saved}");
    assert!(z.close().await.success());

    // A theme-only entry installs the same way.
    env.zot(&["ext", "install", "dusk"]).ok();
    assert!(env.extensions().join("dusk/theme.json").is_file());
}

#[test]
fn the_catalog_the_install_summary_and_ext_list_say_the_same_words() {
    let env = Env::new();
    let entries = catalog(&env, &[]);
    let words =
        |name: &str| entries.iter().find(|e| e["name"] == name).unwrap()["permissions"].clone();
    // A theme runs no code; an example names what it may do, not "unrestricted".
    assert_eq!(
        words("dusk"),
        json!(["theme: runs no code (it only adds colour themes)"])
    );
    let todo = words("todo");
    let todo: Vec<&str> = todo
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        todo.contains(&"can open interactive panels that read your keys while focused"),
        "{todo:?}"
    );
    assert!(todo.iter().all(|w| !w.contains("unrestricted")), "{todo:?}");
    assert!(todo.contains(&"has no network access"), "{todo:?}");
    // The install summary prints the same lines.
    let out = env.zot(&["ext", "install", "todo"]).ok();
    for w in &todo {
        assert!(out.contains(w), "{w}: {out}");
    }
    // And ext_list carries them for the manager's card.
    let list = env.zot(&["ext", "list", "--json"]).ok();
    let list: Value = serde_json::from_str(&list).unwrap();
    let card = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "todo")
        .unwrap();
    assert_eq!(card["permission_words"], json!(todo), "{card}");
}

#[test]
fn broken_entries_show_as_unavailable_with_the_reason_and_do_not_install() {
    let env = Env::new();
    let root = env.path("my-catalog");
    let ok = root.join("ok");
    fixtures::write_ext(&ok, r#"{"name":"ok","exec":"./run.sh"}"#);
    let wrong = root.join("wrong");
    fixtures::write_ext(&wrong, r#"{"name":"other","exec":"./run.sh"}"#);
    let noexec = root.join("noexec");
    std::fs::create_dir_all(&noexec).unwrap();
    std::fs::write(
        noexec.join("extension.json"),
        r#"{"name":"noexec","exec":"./missing.sh"}"#,
    )
    .unwrap();
    let unbuilt = root.join("unbuilt");
    fixtures::write_ext(&unbuilt, r#"{"name":"unbuilt","exec":"./run.sh"}"#);
    for d in [&ok, &wrong, &unbuilt] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let index = root.join("catalog.json");
    std::fs::write(
        &index,
        json!({"catalog": 1, "extensions": [
            {"name": "ok", "source": "ok"},
            {"name": "gone", "source": "gone"},
            {"name": "wrong", "source": "wrong"},
            {"name": "noexec", "source": "noexec"},
            {"name": "unbuilt", "source": "unbuilt", "requires_files": ["dist/main.js"]},
            {"name": "escape", "source": "../elsewhere"},
            {"name": "invalid", "source": 42}
        ]})
        .to_string(),
    )
    .unwrap();
    let zc = [("ZOT_CATALOG", index.to_str().unwrap())];
    let entries = catalog(&env, &zc);
    let reason = |n: &str| {
        let e = entries.iter().find(|e| e["name"] == n).unwrap();
        assert_eq!(e["available"], n == "ok", "{e}");
        e["unavailable_reason"].as_str().unwrap_or("").to_owned()
    };
    assert_eq!(reason("ok"), "");
    assert!(reason("gone").contains("is missing"), "{}", reason("gone"));
    assert!(
        reason("wrong").contains("names it `other`"),
        "{}",
        reason("wrong")
    );
    assert!(reason("noexec").contains("exec"), "{}", reason("noexec"));
    assert!(
        reason("unbuilt").contains("dist/main.js"),
        "{}",
        reason("unbuilt")
    );
    assert!(
        reason("escape").contains("relative"),
        "{}",
        reason("escape")
    );
    assert!(
        reason("invalid").contains("invalid"),
        "{}",
        reason("invalid")
    );

    let mut c = env.command(&["ext", "install", "gone"]);
    c.env("ZOT_CATALOG", &index);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("catalog entry `gone` cannot be installed"),
        "{err}"
    );
    assert!(env.installed_entries().is_empty());

    let mut c = env.command(&["ext", "install", "ok"]);
    c.env("ZOT_CATALOG", &index);
    assert!(c.output().unwrap().status.success());
    assert_eq!(env.installed_entries(), ["ok"]);

    // An index that is not JSON is one clear error, not a crash.
    std::fs::write(&index, "{not json").unwrap();
    let mut c = env.command(&["ext", "catalog"]);
    c.env("ZOT_CATALOG", &index);
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read the extension catalog") && err.contains("not valid JSON"),
        "{err}"
    );
}

#[test]
fn a_bare_name_is_the_catalogs_even_when_a_folder_of_that_name_is_here() {
    let env = Env::new();
    // A folder `todo` in the cwd (a cloned repository's, say) that is not
    // the catalog's todo.
    fixtures::write_ext(
        &env.project.join("todo"),
        r#"{"name":"todo","version":"6.6.6","exec":"./run.sh"}"#,
    );
    let out = env.zot(&["ext", "install", "todo"]).ok();
    assert!(out.contains("installed todo 1.0.0"), "{out}");
    assert!(env.extensions().join("todo/todo.py").is_file());
    assert!(!env.extensions().join("todo/run.sh").exists());
    // The folder is `./todo`.
    let out = env
        .zot(&["ext", "install", "--force", "--yes", "./todo"])
        .ok();
    assert!(out.contains("replaced todo 6.6.6"), "{out}");
    assert!(env.extensions().join("todo/run.sh").is_file());
    // A bare name the catalog does not know says how to name a folder.
    fixtures::write_ext(
        &env.project.join("mine"),
        r#"{"name":"mine","exec":"./run.sh"}"#,
    );
    let err = env.zot(&["ext", "install", "mine"]).failed();
    assert!(err.contains("./mine") && err.contains("catalog"), "{err}");
    assert!(!env.extensions().join("mine").exists());
}

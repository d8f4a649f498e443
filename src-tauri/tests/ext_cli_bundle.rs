//! `.zotx` bundles through the real binary: `zot ext keygen`, `zot ext
//! pack` (signed or not), installing one with the summary's "signed by
//! NAME" / "signed by an unknown key" / "unsigned", a tampered bundle
//! refused, every bad zip refused before anything is written (zips made
//! by Python's `zipfile`, as a hostile author could), and updating from
//! the bundle's file.

use std::path::{Path, PathBuf};

use serde_json::Value;
use zot_test_support::cli::Env;
use zot_test_support::fixtures::write_ext;

fn listed(env: &Env, name: &str) -> Value {
    let out = env.zot(&["ext", "list", "--json"]).ok();
    let all: Vec<Value> = serde_json::from_str(&out).unwrap();
    all.into_iter().find(|e| e["name"] == name).unwrap()
}

/// Runs a Python snippet with `out` as `sys.argv[1]`.
fn python(script: &str, out: &Path) {
    let st = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(out)
        .status()
        .unwrap();
    assert!(st.success(), "python failed: {script}");
}

fn src(env: &Env, version: &str) -> PathBuf {
    let dir = env.path("src/greeter");
    write_ext(
        &dir,
        &format!(
            r#"{{"name":"greeter","version":"{version}","exec":"./run.sh","permissions":["commands"]}}"#
        ),
    );
    std::fs::write(dir.join("main.py"), "print('hello')\n").unwrap();
    dir
}

fn keygen(env: &Env, file: &str) -> String {
    let key = env.path(file);
    let public = env.zot(&["ext", "keygen", key.to_str().unwrap()]).ok();
    public.trim().to_owned()
}

fn pack(env: &Env, dir: &Path, out: &str, key: Option<&str>) -> PathBuf {
    let out = env.path(out);
    let mut args = vec![
        "ext",
        "pack",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let key_path = key.map(|k| env.path(k));
    if let Some(k) = &key_path {
        args.extend(["--sign", k.to_str().unwrap()]);
    }
    env.zot(&args).ok();
    out
}

#[test]
fn a_bundle_signed_by_a_trusted_key_installs_and_says_by_whom() {
    let env = Env::new();
    let public = keygen(&env, "alice.key");
    assert_eq!(
        std::fs::read_to_string(env.path("alice.key.pub"))
            .unwrap()
            .trim(),
        public
    );
    std::fs::write(
        env.home.join("config.json"),
        serde_json::json!({"trusted_keys": {"Alice": public}}).to_string(),
    )
    .unwrap();
    let bundle = pack(&env, &src(&env, "1.0.0"), "greeter.zotx", Some("alice.key"));

    let out = env.zot(&["ext", "install", bundle.to_str().unwrap()]).ok();
    assert!(out.contains("installed greeter 1.0.0"), "{out}");
    assert!(out.contains("signed by Alice"), "{out}");
    assert_eq!(
        std::fs::read_to_string(env.extensions().join("greeter/main.py")).unwrap(),
        "print('hello')\n"
    );
    let s = listed(&env, "greeter");
    assert_eq!(s["source"]["kind"], "bundle");
    assert_eq!(s["source"]["location"], bundle.to_str().unwrap());
    assert_eq!(
        s["source"]["revision"].as_str().unwrap().len(),
        64,
        "a sha256: {s}"
    );
}

#[test]
fn an_unknown_key_and_no_signature_are_said_so() {
    let env = Env::new();
    keygen(&env, "mallory.key");
    let signed = pack(&env, &src(&env, "1.0.0"), "a.zotx", Some("mallory.key"));
    let out = env.zot(&["ext", "install", signed.to_str().unwrap()]).ok();
    assert!(out.contains("signed by an unknown key"), "{out}");
    let unsigned = pack(&env, &src(&env, "1.0.1"), "b.zotx", None);
    let out = env
        .zot(&["ext", "install", "--force", unsigned.to_str().unwrap()])
        .ok();
    assert!(out.contains("bundle: unsigned"), "{out}");
}

#[test]
fn one_flipped_byte_in_a_member_refuses_the_install() {
    let env = Env::new();
    keygen(&env, "k");
    let good = pack(&env, &src(&env, "1.0.0"), "good.zotx", Some("k"));
    // Rewritten with valid checksums: only the signature can tell.
    let resigned = env.path("tampered.zotx");
    python(
        &format!(
            r#"
import sys, zipfile
src = zipfile.ZipFile({good:?})
with zipfile.ZipFile(sys.argv[1], "w") as out:
    for info in src.infolist():
        data = bytearray(src.read(info))
        if info.filename == "main.py":
            data[0] ^= 1
        out.writestr(info, bytes(data))
    out.comment = src.comment
"#,
            good = good.to_str().unwrap()
        ),
        &resigned,
    );
    let err = env
        .zot(&["ext", "install", resigned.to_str().unwrap()])
        .failed();
    assert!(
        err.contains("signature does not match its content"),
        "{err}"
    );
    assert!(err.contains("nothing was installed"), "{err}");
    assert_eq!(env.installed_entries(), Vec::<String>::new());

    // One byte flipped in the file itself: the archive's own checks catch it.
    let mut bytes = std::fs::read(&good).unwrap();
    let at = member_data(&bytes, b"main.py");
    bytes[at] ^= 0xff;
    let raw = env.path("flipped.zotx");
    std::fs::write(&raw, bytes).unwrap();
    let err = env.zot(&["ext", "install", raw.to_str().unwrap()]).failed();
    assert!(
        err.contains("refusing the bundle") || err.contains("cannot read the bundle"),
        "{err}"
    );
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

/// Where the (compressed) data of member `name` starts: after its local
/// header (30 bytes, then the name and the extra field).
fn member_data(zip: &[u8], name: &[u8]) -> usize {
    let mut at = 0;
    loop {
        let h = at
            + zip[at..]
                .windows(4)
                .position(|w| w == b"PK\x03\x04")
                .unwrap();
        let n = u16::from_le_bytes([zip[h + 26], zip[h + 27]]) as usize;
        let m = u16::from_le_bytes([zip[h + 28], zip[h + 29]]) as usize;
        if &zip[h + 30..h + 30 + n] == name {
            return h + 30 + n + m;
        }
        at = h + 4;
    }
}

/// Python that writes one hostile zip to `sys.argv[1]`.
const MANIFEST: &str = r#"'{"name":"bad","exec":"./run.sh"}'"#;

#[test]
fn every_bad_zip_is_refused_with_its_reason_before_anything_is_written() {
    let env = Env::new();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "dotdot",
            format!("z.writestr('extension.json', {MANIFEST}); z.writestr('../evil.sh', 'x')"),
            "has `..` in its path",
        ),
        (
            "absolute",
            format!("z.writestr('extension.json', {MANIFEST}); z.writestr('/tmp/evil.sh', 'x')"),
            "has an absolute path",
        ),
        (
            "symlink",
            format!(
                "z.writestr('extension.json', {MANIFEST})\n\
                 i = zipfile.ZipInfo('link'); i.external_attr = (0o120777 << 16); z.writestr(i, '../../../etc/passwd')"
            ),
            "is a link pointing outside the extension's folder",
        ),
        (
            "oversize",
            format!(
                "import os\nz.writestr('extension.json', {MANIFEST})\n\
                 z.writestr('big.bin', os.urandom(17 * 1024 * 1024).hex(), compress_type=zipfile.ZIP_DEFLATED)"
            ),
            "over the limit of 33554432",
        ),
        (
            "bomb",
            format!(
                "z.writestr('extension.json', {MANIFEST})\n\
                 z.writestr('zeros', b'\\0' * (8 * 1024 * 1024), compress_type=zipfile.ZIP_DEFLATED)"
            ),
            "zip bomb",
        ),
        ("no-manifest", "z.writestr('run.sh', 'x')".into(), "holds no extension.json"),
        (
            "manifest-not-first",
            format!("z.writestr('run.sh', 'x'); z.writestr('extension.json', {MANIFEST})"),
            "first member is `run.sh`, not extension.json",
        ),
        (
            "invalid-manifest",
            "z.writestr('extension.json', '{\"version\": 1}')".into(),
            "its extension.json is invalid",
        ),
        ("not-a-zip", String::new(), "cannot read the bundle"),
    ];
    for (name, body, says) in cases {
        let file = env.path(&format!("{name}.zotx"));
        if body.is_empty() {
            std::fs::write(&file, "just text").unwrap();
        } else {
            python(
                &format!(
                    "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w')\n{body}\nz.close()"
                ),
                &file,
            );
        }
        let err = env
            .zot(&["ext", "install", file.to_str().unwrap()])
            .failed();
        assert!(err.contains(says), "{name}: {err}");
        assert!(
            err.contains(file.to_str().unwrap()),
            "{name} names the file: {err}"
        );
        assert!(!env.extensions().exists(), "{name}: nothing written");
        assert!(!Path::new("/tmp/evil.sh").exists());
    }
}

#[test]
fn a_bundle_install_updates_from_its_file_and_rolls_back() {
    let env = Env::new();
    let bundle = pack(&env, &src(&env, "1.0.0"), "g.zotx", None);
    env.zot(&["ext", "install", bundle.to_str().unwrap()]).ok();
    assert!(env
        .zot(&["ext", "update", "greeter", "--check"])
        .ok()
        .is_empty());
    pack(&env, &src(&env, "1.5.0"), "g.zotx", None);
    let out = env.zot(&["ext", "update", "greeter", "--check"]).ok();
    assert!(out.contains("greeter 1.0.0 → 1.5.0"), "{out}");
    env.zot(&["ext", "update", "greeter"]).ok();
    assert_eq!(listed(&env, "greeter")["version"], "1.5.0");
    env.zot(&["ext", "rollback", "greeter"]).ok();
    assert_eq!(listed(&env, "greeter")["version"], "1.0.0");
}

#[test]
fn a_bundle_over_plain_http_is_refused() {
    let env = Env::new();
    let err = env
        .zot(&["ext", "install", "http://127.0.0.1:9/x.zotx"])
        .failed();
    assert!(err.contains("over https only"), "{err}");
    assert!(!env.extensions().exists());
}

#[test]
fn keygen_never_overwrites_a_key() {
    let env = Env::new();
    keygen(&env, "k");
    let err = env
        .zot(&["ext", "keygen", env.path("k").to_str().unwrap()])
        .failed();
    assert!(err.contains("exists already"), "{err}");
}

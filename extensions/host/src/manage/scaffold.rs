//! `zot ext new NAME --lang python|typescript|rust [--panel]`: a working
//! extension to start from: a manifest, one command, one tool, a panel when
//! asked, a protocol-level test and a README. Python and TypeScript ones
//! load with `zot --ext DIR` at once (zot provides their SDK; the
//! TypeScript one ships its compiled `main.js`); a Rust one needs
//! `cargo build --release` first. The directory is written under a
//! temporary name and renamed into place, so a failure leaves nothing.

use std::path::{Path, PathBuf};

use crate::manifest::validate_name;

/// The extension's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// `main.py` with the Python SDK.
    Python,
    /// `main.ts`, compiled to the `main.js` zot runs.
    TypeScript,
    /// A cargo crate with the Rust SDK.
    Rust,
}

impl Lang {
    /// `python`, `typescript`/`ts`, `rust`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s.to_ascii_lowercase().as_str() {
            "python" | "py" => Some(Lang::Python),
            "typescript" | "ts" => Some(Lang::TypeScript),
            "rust" | "rs" => Some(Lang::Rust),
            _ => None,
        }
    }
}

/// What to scaffold.
#[derive(Debug, Clone)]
pub struct NewExtension {
    /// Its name: the manifest name, the command, the directory.
    pub name: String,
    /// Its language.
    pub lang: Lang,
    /// Add a panel with keys.
    pub panel: bool,
    /// For Rust: the `extensions/sdk` directory of a zot checkout (the Rust
    /// SDK is not on crates.io yet); a placeholder path otherwise.
    pub rust_sdk: Option<PathBuf>,
    /// zot's unpacked SDKs (`$ZOT_HOME/sdk/<version>-<hash>`): the
    /// TypeScript template's `tsconfig.json` takes `zot-ext`'s types from it.
    pub sdk_dir: Option<PathBuf>,
}

/// Why nothing was created.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// The name cannot be an extension, command or directory name.
    #[error("cannot create extension `{name}`: {reason}; use letters, digits, '-' and '_', starting with a letter")]
    BadName {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// The destination exists.
    #[error("cannot create {}: it already exists; pick another name or directory", .0.display())]
    Exists(PathBuf),
    /// Writing failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// What could not be written.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
}

/// One file to write: path relative to the extension, content, executable.
type Out = (&'static str, String, bool);

/// Creates `parent/<name>` and returns it.
pub fn scaffold(parent: &Path, spec: &NewExtension) -> Result<PathBuf, ScaffoldError> {
    check_name(&spec.name)?;
    let dest = parent.join(&spec.name);
    if dest.symlink_metadata().is_ok() {
        return Err(ScaffoldError::Exists(dest));
    }
    let tmp = parent.join(format!(".zot-new-{}-{}", spec.name, std::process::id()));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ScaffoldError::Io { path, source }
    };
    let write = || -> Result<(), ScaffoldError> {
        std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
        for (rel, text, exec) in files(spec) {
            let path = tmp.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
            }
            std::fs::write(&path, text).map_err(io(&path))?;
            if exec {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .map_err(io(&path))?;
            }
        }
        std::fs::rename(&tmp, &dest).map_err(io(&dest))
    };
    let result = write();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result.map(|()| dest)
}

fn check_name(name: &str) -> Result<(), ScaffoldError> {
    let bad = |reason: String| ScaffoldError::BadName {
        name: name.to_owned(),
        reason,
    };
    validate_name(name).map_err(|e| bad(e.reason.to_owned()))?;
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(bad("it does not start with a letter".into()));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(bad(format!("it contains '{c}'")));
    }
    Ok(())
}

/// `{{name}}`, `{{tool}}` (the name as an identifier plus `_echo`),
/// `{{crate}}` and `{{panel}}` filled in.
fn fill(template: &str, spec: &NewExtension, panel: &str) -> String {
    let ident = spec.name.replace('-', "_");
    template
        .replace("{{panel}}", panel)
        .replace("{{name}}", &spec.name)
        .replace("{{tool}}", &format!("{ident}_echo"))
        .replace("{{crate}}", &spec.name)
}

fn files(spec: &NewExtension) -> Vec<Out> {
    let f = |t: &str, panel: &str| fill(t, spec, if spec.panel { panel } else { "" });
    let manifest = |exec: &str, lang: &str| {
        let m = serde_json::json!({
            "name": spec.name,
            "version": "0.1.0",
            "exec": exec,
            "language": lang,
            "description": format!("{} (made by zot ext new)", spec.name),
            "enabled": true,
        });
        serde_json::to_string_pretty(&m).unwrap_or_default() + "\n"
    };
    let readme = readme(spec);
    match spec.lang {
        Lang::Python => vec![
            ("extension.json", manifest("./main.py", "python"), false),
            (
                "main.py",
                f(
                    include_str!("scaffold/templates/python.py"),
                    include_str!("scaffold/templates/python_panel.py"),
                ),
                true,
            ),
            (
                "test_main.py",
                f(include_str!("scaffold/templates/python_test.py"), ""),
                false,
            ),
            (".gitignore", "__pycache__/\n".into(), false),
            ("README.md", readme, false),
        ],
        Lang::TypeScript => vec![
            ("extension.json", manifest("./main.js", "typescript"), false),
            (
                "main.ts",
                f(
                    include_str!("scaffold/templates/typescript.ts"),
                    include_str!("scaffold/templates/typescript_panel.ts"),
                ),
                false,
            ),
            (
                "main.js",
                f(
                    include_str!("scaffold/templates/typescript.js"),
                    include_str!("scaffold/templates/typescript_panel.js"),
                ),
                true,
            ),
            (
                "main.test.mjs",
                f(include_str!("scaffold/templates/typescript_test.mjs"), ""),
                false,
            ),
            (
                "package.json",
                serde_json::to_string_pretty(&serde_json::json!({
                    "name": spec.name,
                    "private": true,
                    "type": "module",
                    "scripts": {"build": "tsc -p .", "test": "node --test"},
                    "devDependencies": {"typescript": "~5.9.3", "@types/node": "~20.19.0"}
                }))
                .unwrap_or_default()
                    + "\n",
                false,
            ),
            ("tsconfig.json", tsconfig(spec), false),
            (".gitignore", "node_modules/\n".into(), false),
            ("README.md", readme, false),
        ],
        Lang::Rust => {
            let sdk = spec
                .rust_sdk
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "../zot/extensions/sdk".into());
            vec![
                ("extension.json", manifest("./launch.sh", "rust"), false),
                (
                    "Cargo.toml",
                    format!(
                        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n# The Rust SDK is not on crates.io yet: this points at a zot checkout's\n# extensions/sdk. Adjust the path if yours lives elsewhere.\n[dependencies]\nzot-ext = {{ path = \"{sdk}\" }}\nserde_json = \"1\"\n\n# Not part of any enclosing workspace.\n[workspace]\n",
                        name = spec.name
                    ),
                    false,
                ),
                (
                    "src/main.rs",
                    f(
                        include_str!("scaffold/templates/rust.rs"),
                        include_str!("scaffold/templates/rust_panel.rs"),
                    ),
                    false,
                ),
                (
                    "tests/protocol.rs",
                    f(include_str!("scaffold/templates/rust_test.rs"), ""),
                    false,
                ),
                (
                    "launch.sh",
                    format!(
                        "#!/bin/sh\n# Starts the built binary: one beside this script (how an installed copy\n# ships it), else cargo's release or debug build. stdout is the protocol.\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\nfor p in \"$here/{n}\" \"$here/target/release/{n}\" \"$here/target/debug/{n}\"; do\n  [ -x \"$p\" ] && exec \"$p\" \"$@\"\ndone\necho \"{n}: not built; run 'cargo build --release' in $here\" >&2\nexit 127\n",
                        n = spec.name
                    ),
                    true,
                ),
                (".gitignore", "target/\n".into(), false),
                ("README.md", readme, false),
            ]
        }
    }
}

/// Compiles `main.ts` to `main.js` beside it, with `zot-ext`'s types from
/// zot's unpacked SDK (a newer zot unpacks elsewhere: update the path, or
/// `npm install` a copy of the SDK, which then also wins at run time).
fn tsconfig(spec: &NewExtension) -> String {
    let types = spec
        .sdk_dir
        .as_ref()
        .map(|d| {
            d.join("node/node_modules/zot-ext/dist/index.d.ts")
                .display()
                .to_string()
        })
        .unwrap_or_else(|| "./node_modules/zot-ext/dist/index.d.ts".into());
    let config = serde_json::json!({
        "compilerOptions": {
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "strict": true,
            "types": ["node"],
            "outDir": ".",
            "paths": { "zot-ext": [types] }
        },
        "files": ["main.ts"]
    });
    serde_json::to_string_pretty(&config).unwrap_or_default() + "\n"
}

fn readme(spec: &NewExtension) -> String {
    let n = &spec.name;
    let tool = format!("{}_echo", n.replace('-', "_"));
    let (run, test, edit) = match spec.lang {
        Lang::Python => (
            format!("zot --ext {n}"),
            "python3 -m unittest".to_string(),
            "Edit `main.py`.",
        ),
        Lang::TypeScript => (
            format!("zot --ext {n}"),
            "node --test".to_string(),
            "Edit `main.ts`, then `npm install && npm run build` to recompile `main.js` (zot runs the JavaScript; it runs no build step).",
        ),
        Lang::Rust => (
            format!("(cd {n} && cargo build --release) && zot --ext {n}"),
            "cargo test".to_string(),
            "Edit `src/main.rs`, then `cargo build --release`.",
        ),
    };
    let panel = if spec.panel {
        format!("- `/{n}-panel` opens a panel: `+`, `-` and the wheel change a counter, a click says where it landed, the panel shows its size in cells (`panel_mouse` and `panel_resize`), esc closes it.\n")
    } else {
        String::new()
    };
    format!(
        "# {n}\n\nA zot extension made by `zot ext new`.\n\n- `/{n} [text]` answers `hello from {n}`.\n- `{tool}` is a tool the model can call: `{{\"text\": \"…\"}}` comes back as is.\n{panel}\n## Run\n\n```bash\n{run}\n```\n\n{edit} Install it for every session with `zot ext install {n}`.\n\n## Test\n\n```bash\ncd {n} && {test}\n```\n\nThe test speaks the protocol to the extension directly (see\n`docs/extensions.md` in zot). It needs zot's SDK unpacked, which happens\nthe first time zot starts; or set `ZOT_SDK_DIR`.\n"
    )
}

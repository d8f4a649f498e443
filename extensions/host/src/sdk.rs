//! The extension SDKs zot ships. Like the `vscode` module an editor hands
//! its extensions, `zot_ext` (Python) and `zot-ext` (Node) are provided by
//! zot at run time: the build embeds them (see `build.rs`), [`ensure`]
//! unpacks them once per zot build into `$ZOT_HOME/sdk/<version>-<hash>/`,
//! and [`spawn_env`] points each extension at that copy unless it ships
//! its own.

mod env;
mod shipped;
mod unpack;

pub use env::{spawn_env, SpawnEnv};
pub use shipped::{shipped_node, shipped_python, ShippedSdk};
pub use unpack::{ensure, SdkError};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/sdk_files.rs"));
}

/// The Node loader hook that lets ES modules `import "zot-ext"`.
const NODE_REGISTER: &[u8] = include_bytes!("sdk/register.mjs");
/// The resolve hook `NODE_REGISTER` installs.
const NODE_HOOKS: &[u8] = include_bytes!("sdk/hooks.mjs");

/// The protocol both bundled SDKs speak (the host's own).
pub const PROTOCOL_VERSION: u32 = zot_ext_protocol::PROTOCOL_VERSION;

/// The unpacked tree's directory name: zot's version and a hash of the
/// embedded files, so two builds of one version never share a stale copy.
pub fn dir_name() -> String {
    format!("{}-{}", env!("CARGO_PKG_VERSION"), embedded::CONTENT_HASH)
}

/// Whether this build carries the TypeScript SDK (it is skipped when
/// `extensions/sdk-ts` was not built before cargo ran).
pub fn has_node_sdk() -> bool {
    files().any(|(p, _)| p.starts_with("node/"))
}

/// Every file of the unpacked tree: the embedded SDKs, plus the Node hooks
/// when the Node SDK is there.
pub(crate) fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    let node = embedded::FILES.iter().any(|(p, _)| p.starts_with("node/"));
    let hooks: &[(&str, &[u8])] = if node {
        &[
            ("node/register.mjs", NODE_REGISTER),
            ("node/hooks.mjs", NODE_HOOKS),
        ]
    } else {
        &[]
    };
    embedded::FILES.iter().copied().chain(hooks.iter().copied())
}

/// The version of the Python SDK zot bundles (`zot_ext.__version__`).
pub fn bundled_python_version() -> Option<String> {
    let init = files().find(|(p, _)| *p == "python/zot_ext/__init__.py")?.1;
    shipped::python_field(&String::from_utf8_lossy(init), "__version__")
}

/// The version of the Node SDK zot bundles (its `package.json` version).
pub fn bundled_node_version() -> Option<String> {
    let pkg = files()
        .find(|(p, _)| *p == "node/node_modules/zot-ext/package.json")?
        .1;
    let v: serde_json::Value = serde_json::from_slice(pkg).ok()?;
    v.get("version")?.as_str().map(str::to_owned)
}

//! The extension SDKs zot ships. Like the `vscode` module an editor hands
//! its extensions, `zot_ext` (Python) and `zot-ext` (Node) are provided by
//! zot at run time: the build embeds them (see `build.rs`), [`ensure`]
//! unpacks them once per zot build into `$ZOT_HOME/sdk/<version>-<hash>/`,
//! and [`spawn_env`] points each extension at that copy unless it ships
//! its own.

mod env;
mod shipped;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use env::{spawn_env, SpawnEnv};
pub use shipped::{shipped_node, shipped_python, ShippedSdk};

use crate::manage::unpack::{self, File, Tree, UnpackError};

/// The SDKs could not be unpacked.
pub type SdkError = UnpackError;

/// Returns `$ZOT_HOME/sdk/<version>-<hash>`, unpacking it first when this
/// build's tree is not there yet (atomically; see [`crate::manage::unpack`]).
pub fn ensure(zot_home: &Path) -> Result<PathBuf, SdkError> {
    unpack::ensure(&Tree {
        root: zot_home.join("sdk"),
        name: dir_name(),
        files: all_files(),
        what: "extension SDKs",
        consequence: "extensions that need zot's SDK (`zot_ext`, `zot-ext`) will fail to import it, those that ship their own still run",
    })
}

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
fn all_files() -> &'static [File] {
    static ALL: OnceLock<Vec<File>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = embedded::FILES.to_vec();
        if all.iter().any(|(p, _, _)| p.starts_with("node/")) {
            all.push(("node/register.mjs", NODE_REGISTER, false));
            all.push(("node/hooks.mjs", NODE_HOOKS, false));
        }
        all
    })
}

fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    all_files().iter().map(|(p, b, _)| (*p, *b))
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

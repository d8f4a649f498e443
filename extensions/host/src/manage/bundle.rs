//! `.zotx` bundles (docs/extensions.md "Bundles"): one zip file holding an
//! extension's folder, its `extension.json` first, optionally signed with
//! ed25519. [`open`] checks everything (member paths, links, sizes, the
//! compression ratio, the manifest, the signature) in memory before
//! [`extract`] writes one byte, so a bad bundle is refused with nothing
//! written; `pack.rs` writes them and `keys.rs` holds the keys.

mod check;
pub mod keys;
mod mcpb;
mod mcpb_signature;
pub mod pack;

use std::path::{Path, PathBuf};

pub use check::{extract, open, Opened, Signer};

/// A bundle file's largest size on disk.
pub const MAX_BUNDLE_BYTES: u64 = 64 * 1024 * 1024;
/// The most members a bundle may hold.
pub const MAX_MEMBERS: usize = 10_000;
/// A member's largest unpacked size.
pub const MAX_MEMBER_BYTES: u64 = 32 * 1024 * 1024;
/// All members' largest unpacked size together.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;
/// The largest ratio of unpacked to packed size for a member over
/// [`RATIO_FLOOR`] bytes: beyond it the member is taken for a zip bomb.
pub const MAX_RATIO: u64 = 100;
/// Members smaller than this are never refused for their ratio (a short
/// file of repeated text compresses very well and is harmless).
pub const RATIO_FLOOR: u64 = 1024 * 1024;
/// The manifest a bundle starts with (`ext_ops::MANIFEST_FILE`, named
/// here so this module depends on nothing that depends on it).
pub const MANIFEST_FILE: &str = "extension.json";

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The file name extension of a bundle.
pub const EXTENSION: &str = "zotx";

/// Why a bundle was refused, packed, or its key could not be used. Each
/// message names the file and what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    /// The bundle is not a zip, or a member cannot be read.
    #[error("cannot read the bundle {origin}: {reason}; it is damaged or not a .zotx file (make one with `zot ext pack DIR`)")]
    Unreadable {
        /// Its file or URL.
        origin: String,
        /// What failed.
        reason: String,
    },
    /// A member breaks a rule; nothing was written.
    #[error("refusing the bundle {origin}: member `{member}` {reason}; nothing was installed")]
    BadMember {
        /// Its file or URL.
        origin: String,
        /// The member's name as stored.
        member: String,
        /// Which rule.
        reason: String,
    },
    /// The bundle as a whole is too big or holds too much.
    #[error("refusing the bundle {origin}: {reason}; nothing was installed (limits: docs/extensions.md \"Bundles\")")]
    TooBig {
        /// Its file or URL.
        origin: String,
        /// Which limit.
        reason: String,
    },
    /// No `extension.json` first, or one that is not valid.
    #[error("refusing the bundle {origin}: {reason}; nothing was installed")]
    BadManifest {
        /// Its file or URL.
        origin: String,
        /// What is wrong.
        reason: String,
    },
    /// An MCP bundle made for another platform or a missing runtime.
    #[error("refusing the MCP bundle {origin}: {reason}; nothing was installed")]
    Incompatible {
        /// Its file or URL.
        origin: String,
        /// What does not fit.
        reason: String,
    },
    /// The signature does not match the content.
    #[error("refusing the bundle {origin}: its signature does not match its content (it was changed after it was signed, or the signature is damaged); nothing was installed. Get the bundle again from its author")]
    BadSignature {
        /// Its file or URL.
        origin: String,
    },
    /// A key file cannot be read or written.
    #[error("cannot use the key file {}: {reason}", path.display())]
    Key {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Packing failed.
    #[error("cannot pack {}: {reason}", dir.display())]
    Pack {
        /// The folder.
        dir: PathBuf,
        /// What failed.
        reason: String,
    },
    /// Downloading an `https://` bundle failed.
    #[error("cannot download the bundle {url}: {reason}; check the URL and your connection")]
    Download {
        /// The URL.
        url: String,
        /// What failed.
        reason: String,
    },
}

/// The file name extension of an MCP bundle (docs/mcp.md "MCP bundles").
pub const MCPB_EXTENSION: &str = "mcpb";

/// Whether `arg` names a bundle: a `.zotx` or `.mcpb` file or an
/// `https://` URL of one.
pub fn is_bundle(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    (lower.starts_with("https://") || Path::new(arg).is_file())
        && (has_extension(arg, EXTENSION) || is_mcpb(arg))
}

/// Whether `arg` (a path or URL) names an MCP bundle.
pub fn is_mcpb(arg: &str) -> bool {
    has_extension(arg, MCPB_EXTENSION)
}

fn has_extension(arg: &str, ext: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    let path = lower.split(['?', '#']).next().unwrap_or_default();
    path.ends_with(&format!(".{ext}"))
}

/// Reads a bundle from its file, or downloads it from an `https://` URL
/// (at most [`MAX_BUNDLE_BYTES`]), and checks it ([`open`]). The origin
/// recorded for updates is the file's absolute path or the URL.
pub fn fetch(zot_home: &Path, arg: &str) -> Result<Opened, BundleError> {
    if arg.to_ascii_lowercase().starts_with("https://") {
        let bytes = download(arg)?;
        return open(zot_home, arg, bytes);
    }
    let path = std::path::absolute(arg).unwrap_or_else(|_| PathBuf::from(arg));
    let origin = path.display().to_string();
    let unreadable = |reason: String| BundleError::Unreadable {
        origin: origin.clone(),
        reason,
    };
    let meta = std::fs::metadata(&path).map_err(|e| unreadable(e.to_string()))?;
    if meta.len() > MAX_BUNDLE_BYTES {
        return Err(BundleError::TooBig {
            origin,
            reason: format!(
                "it is {} bytes, over the limit of {MAX_BUNDLE_BYTES}",
                meta.len()
            ),
        });
    }
    let bytes = std::fs::read(&path).map_err(|e| unreadable(e.to_string()))?;
    open(zot_home, &origin, bytes)
}

/// An error with the causes under it: reqwest's own words ("error sending
/// request") hide the one that says what to do (an unknown certificate
/// issuer, a refused connection).
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if !out.contains(&said) {
            out.push_str(": ");
            out.push_str(&said);
        }
        cause = c.source();
    }
    out
}

/// GETs `url` on a small runtime of its own (installs run on a blocking
/// thread), refusing a body over [`MAX_BUNDLE_BYTES`].
fn download(url: &str) -> Result<Vec<u8>, BundleError> {
    let fail = |reason: String| BundleError::Download {
        url: url.to_owned(),
        reason,
    };
    // rustls needs a provider; the MCP client installs the same one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| fail(e.to_string()))?;
    rt.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(120))
            .build()
            .map_err(|e| fail(e.to_string()))?;
        let mut resp = client
            .get(url)
            .send()
            .await
            .map_err(|e| fail(with_causes(&e)))?;
        if !resp.status().is_success() {
            return Err(fail(format!("the server answered {}", resp.status())));
        }
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| fail(with_causes(&e)))? {
            body.extend_from_slice(&chunk);
            if body.len() as u64 > MAX_BUNDLE_BYTES {
                return Err(fail(format!(
                    "it is over the limit of {MAX_BUNDLE_BYTES} bytes"
                )));
            }
        }
        Ok(body)
    })
}

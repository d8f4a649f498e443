//! Reading a bundle: every rule is checked in memory first ([`open`]),
//! and only a bundle that passes them all is written out ([`extract`]).
//! The content digest (sha256 over each member's name, kind and bytes in
//! order) is what a signature covers and what an install records.

use std::io::{Cursor, Read};
use std::path::{Component, Path};

use ed25519_dalek::{Signature, Verifier};
use sha2::{Digest, Sha256};
use zot_ext_protocol::Manifest;

use super::keys::{decode_public, trusted_name};
use super::MANIFEST_FILE;
use super::{BundleError, MAX_MEMBERS, MAX_MEMBER_BYTES, MAX_RATIO, MAX_TOTAL_BYTES, RATIO_FLOOR};

/// What the archive comment of a signed bundle starts with.
pub(super) const SIGNATURE_TAG: &str = "zot-signature-v1";

/// The message a signature covers.
pub(super) fn signed_message(digest: &str) -> Vec<u8> {
    format!("zot-bundle-v1:{digest}").into_bytes()
}

/// The content digest: sha256 over each member's name, kind (`f` file,
/// `x` executable, `l` link, `d` folder), size and bytes, in the order
/// they come. The one digest of an extension's content: a bundle's
/// members feed it here, a folder's files in pack order
/// ([`super::pack::folder_digest`]), so a folder and its `.zotx` agree.
pub(super) struct ContentDigest(Sha256);

impl ContentDigest {
    pub(super) fn new() -> Self {
        Self(Sha256::new())
    }

    pub(super) fn add(&mut self, name: &str, kind: u8, data: &[u8]) {
        self.0.update(name.as_bytes());
        self.0.update([0, kind]);
        self.0.update((data.len() as u64).to_le_bytes());
        self.0.update(data);
    }

    /// Lowercase hex.
    pub(super) fn finish(self) -> String {
        super::hex(&self.0.finalize())
    }
}

/// Who signed a bundle, as far as this zot can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signer {
    /// A valid signature by a key in `trusted_keys`, by that name.
    Trusted(String),
    /// A valid signature by a key the user has not named.
    Unknown(String),
    /// No signature.
    Unsigned,
    /// A signature zot does not check (an `.mcpb`'s PKCS#7 block), in
    /// the summary's words: never counted as signed.
    Unverified(String),
}

impl Signer {
    /// The summary's words: "signed by NAME", "signed by an unknown key",
    /// "unsigned".
    pub fn words(&self) -> String {
        match self {
            Signer::Trusted(name) => format!("signed by {name}"),
            Signer::Unknown(_) => "signed by an unknown key".to_owned(),
            Signer::Unsigned => "unsigned".to_owned(),
            Signer::Unverified(words) => words.clone(),
        }
    }
}

/// One member, read and checked.
#[derive(Clone)]
enum Member {
    Dir(String),
    File {
        name: String,
        exec: bool,
        data: Vec<u8>,
    },
    Link {
        name: String,
        target: String,
    },
}

/// A bundle that passed every check, held in memory.
#[derive(Clone)]
pub struct Opened {
    /// Its file's absolute path or its URL.
    pub origin: String,
    /// The content digest (hex).
    pub digest: String,
    /// Who signed it.
    pub signer: Signer,
    /// Its manifest.
    pub manifest: Manifest,
    members: Vec<Member>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened")
            .field("origin", &self.origin)
            .field("digest", &self.digest)
            .field("signer", &self.signer)
            .field("members", &self.members.len())
            .finish()
    }
}

impl Opened {
    /// The bytes of the file member `name`, if it has one.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.members.iter().find_map(|m| match m {
            Member::File { name: n, data, .. } if n == name => Some(data.as_slice()),
            _ => None,
        })
    }
}

impl PartialEq for Opened {
    fn eq(&self, other: &Self) -> bool {
        self.origin == other.origin && self.digest == other.digest
    }
}
impl Eq for Opened {}

/// The size limits a bundle is read under (the constants in `bundle.rs`;
/// smaller in unit tests).
#[derive(Debug, Clone, Copy)]
struct Limits {
    members: usize,
    member: u64,
    total: u64,
    ratio: u64,
    floor: u64,
}

const LIMITS: Limits = Limits {
    members: MAX_MEMBERS,
    member: MAX_MEMBER_BYTES,
    total: MAX_TOTAL_BYTES,
    ratio: MAX_RATIO,
    floor: RATIO_FLOOR,
};

/// Checks a bundle's bytes against every rule (docs/extensions.md
/// "Bundles") and its signature against `trusted_keys`; writes nothing.
pub fn open(zot_home: &Path, origin: &str, bytes: Vec<u8>) -> Result<Opened, BundleError> {
    open_within(zot_home, origin, bytes, LIMITS)
}

fn open_within(
    zot_home: &Path,
    origin: &str,
    bytes: Vec<u8>,
    limits: Limits,
) -> Result<Opened, BundleError> {
    let Limits {
        members: max_members,
        member: max_member,
        total: max_total,
        ratio: max_ratio,
        floor: ratio_floor,
    } = limits;
    let unreadable = |reason: String| BundleError::Unreadable {
        origin: origin.to_owned(),
        reason,
    };
    let too_big = |reason: String| BundleError::TooBig {
        origin: origin.to_owned(),
        reason,
    };
    // An MCP bundle's own signature block, appended after its zip.
    let mcpb_block = super::is_mcpb(origin).then(|| super::mcpb_signature::find(&bytes));
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| unreadable(e.to_string()))?;
    if zip.is_empty() {
        return Err(BundleError::BadManifest {
            origin: origin.to_owned(),
            reason: "it is empty: a bundle starts with its extension.json".into(),
        });
    }
    if zip.len() > max_members {
        return Err(too_big(format!(
            "it has {} members, over the limit of {max_members}",
            zip.len()
        )));
    }
    let comment = String::from_utf8_lossy(zip.comment()).into_owned();
    let mut hasher = ContentDigest::new();
    let mut members = Vec::with_capacity(zip.len());
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).map_err(|e| unreadable(e.to_string()))?;
        let name = file
            .name()
            .map_err(|e| unreadable(e.to_string()))?
            .into_owned();
        let bad = |reason: String| BundleError::BadMember {
            origin: origin.to_owned(),
            member: name.clone(),
            reason,
        };
        check_name(&name).map_err(|r| bad(r.to_owned()))?;
        if file.encrypted() {
            return Err(bad("is encrypted, which bundles never are".into()));
        }
        let declared = file.size();
        if declared > max_member {
            return Err(bad(format!(
                "is {declared} bytes unpacked, over the limit of {max_member}"
            )));
        }
        if declared > ratio_floor && declared > file.compressed_size().saturating_mul(max_ratio) {
            return Err(bad(format!(
                "unpacks to {declared} bytes from {}: a ratio over {max_ratio}:1 is taken for a zip bomb",
                file.compressed_size()
            )));
        }
        let mut data = Vec::new();
        (&mut file)
            .take(max_member + 1)
            .read_to_end(&mut data)
            .map_err(|e| bad(format!("cannot be read: {e}")))?;
        let size = data.len() as u64;
        if size > max_member {
            return Err(bad(format!(
                "unpacks to over {max_member} bytes (its header said {declared})"
            )));
        }
        total += size;
        if total > max_total {
            return Err(too_big(format!(
                "its members unpack to over {max_total} bytes together"
            )));
        }
        let (kind, member) = if file.is_symlink() {
            let target = String::from_utf8(data.clone())
                .map_err(|_| bad("is a link whose target is not text".into()))?;
            check_link(&name, &target).map_err(bad)?;
            (
                b'l',
                Member::Link {
                    name: name.clone(),
                    target,
                },
            )
        } else if file.is_dir() {
            (b'd', Member::Dir(name.clone()))
        } else {
            let exec = file.unix_mode().is_some_and(|m| m & 0o111 != 0);
            let kind = if exec { b'x' } else { b'f' };
            (
                kind,
                Member::File {
                    name: name.clone(),
                    exec,
                    data: data.clone(),
                },
            )
        };
        hasher.add(&name, kind, &data);
        members.push(member);
    }
    if super::is_mcpb(origin) {
        // An MCP bundle: its manifest.json becomes the extension.json zot
        // installs beside it (mcpb.rs); its own signature block is found
        // but not checked (mcpb_signature.rs, docs/mcp.md "MCP bundles").
        let text = members
            .iter()
            .find_map(|m| match m {
                Member::File { name, data, .. } if name == "manifest.json" => Some(data.clone()),
                _ => None,
            })
            .ok_or_else(|| BundleError::BadManifest {
                origin: origin.to_owned(),
                reason: "it holds no manifest.json at its top, which every MCP bundle has".into(),
            })?;
        let converted = super::mcpb::convert(origin, &text, zot_home)?;
        members.retain(|m| !matches!(m, Member::File { name, .. } if name == MANIFEST_FILE));
        members.insert(
            0,
            Member::File {
                name: MANIFEST_FILE.to_owned(),
                exec: false,
                data: converted.into_bytes(),
            },
        );
    }
    let manifest = first_manifest(origin, &members)?;
    let digest = hasher.finish();
    let mut signer = verify(zot_home, origin, &comment, &digest)?;
    if let (Signer::Unsigned, Some(words)) = (&signer, mcpb_block.and_then(|b| b.words())) {
        signer = Signer::Unverified(words);
    }
    Ok(Opened {
        origin: origin.to_owned(),
        digest,
        signer,
        manifest,
        members,
    })
}

/// The first member must be `extension.json` and a valid manifest.
fn first_manifest(origin: &str, members: &[Member]) -> Result<Manifest, BundleError> {
    let bad = |reason: String| BundleError::BadManifest {
        origin: origin.to_owned(),
        reason,
    };
    let (name, data) = match members.first() {
        Some(Member::File { name, data, .. }) => (name.as_str(), data),
        Some(Member::Dir(name) | Member::Link { name, .. }) => (name.as_str(), &Vec::new()),
        None => return Err(bad("it is empty".into())),
    };
    if name != MANIFEST_FILE {
        let has = members
            .iter()
            .any(|m| matches!(m, Member::File { name, .. } if name == MANIFEST_FILE));
        return Err(bad(if has {
            format!("its first member is `{name}`, not extension.json (a bundle starts with its manifest; make it with `zot ext pack`)")
        } else {
            "it holds no extension.json at its top: every extension needs one".into()
        }));
    }
    let text =
        std::str::from_utf8(data).map_err(|_| bad("its extension.json is not UTF-8".into()))?;
    crate::manifest::parse(Path::new(MANIFEST_FILE), text)
        .map_err(|e| bad(format!("its extension.json is invalid: {e}")))
}

/// A member name must be relative, without `..`, backslashes or NULs.
fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() || name.contains('\0') {
        return Err("has an empty or NUL-bearing name");
    }
    if name.contains('\\') {
        return Err("has a backslash in its path; bundles use `/`");
    }
    let path = Path::new(name);
    if path.is_absolute() || name.starts_with('/') || name.get(1..2) == Some(":") {
        return Err("has an absolute path; members must be relative to the extension's folder");
    }
    if path.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err("has `..` in its path, which would write outside the extension's folder");
    }
    Ok(())
}

/// A link must stay inside the bundle: relative, and never climbing
/// above the top through `..`.
fn check_link(name: &str, target: &str) -> Result<(), String> {
    let outside = || format!("is a link pointing outside the extension's folder (to `{target}`)");
    if target.is_empty() || Path::new(target).is_absolute() || target.starts_with('/') {
        return Err(outside());
    }
    // How deep the link's own folder is below the top.
    let mut depth: usize = name
        .trim_end_matches('/')
        .split('/')
        .count()
        .saturating_sub(1);
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => depth = depth.checked_sub(1).ok_or_else(outside)?,
            _ => depth += 1,
        }
    }
    Ok(())
}

/// Checks the archive comment's signature, if any.
fn verify(
    zot_home: &Path,
    origin: &str,
    comment: &str,
    digest: &str,
) -> Result<Signer, BundleError> {
    let Some(rest) = comment.trim().strip_prefix(SIGNATURE_TAG) else {
        return Ok(Signer::Unsigned);
    };
    let bad = || BundleError::BadSignature {
        origin: origin.to_owned(),
    };
    let mut parts = rest.split_whitespace();
    let (Some(public), Some(sig)) = (parts.next(), parts.next()) else {
        return Err(bad());
    };
    let key = decode_public(public).ok_or_else(bad)?;
    let sig: [u8; 64] = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, sig)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(bad)?;
    key.verify(&signed_message(digest), &Signature::from_bytes(&sig))
        .map_err(|_| bad())?;
    Ok(trusted_name(zot_home, &key)
        .map(Signer::Trusted)
        .unwrap_or_else(|| Signer::Unknown(public.to_owned())))
}

/// Writes a checked bundle's members into the empty directory `into`.
pub fn extract(opened: &Opened, into: &Path) -> std::io::Result<()> {
    for m in &opened.members {
        match m {
            Member::Dir(name) => std::fs::create_dir_all(into.join(name))?,
            Member::File { name, exec, data } => {
                let path = into.join(name);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(&path, data)?;
                #[cfg(unix)]
                if *exec {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
                }
            }
            Member::Link { name, target } => {
                let path = into.join(name.trim_end_matches('/'));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                #[cfg(unix)]
                std::os::unix::fs::symlink(target, &path)?;
                #[cfg(not(unix))]
                let _ = target;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zip_of(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
        use std::io::Write;
        let mut z = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        for (name, data) in members {
            z.start_file(*name, opts).unwrap();
            z.write_all(data).unwrap();
        }
        z.finish().unwrap().into_inner()
    }

    #[test]
    fn the_total_and_member_count_limits_refuse_before_writing() {
        let home = tempfile::tempdir().unwrap();
        let manifest = br#"{"name":"x"}"#.to_vec();
        let bytes = zip_of(&[
            ("extension.json", manifest.clone()),
            ("a", vec![b'a'; 600]),
            ("b", vec![b'b'; 600]),
        ]);
        let small = Limits {
            members: 10,
            member: 1000,
            total: 1000,
            ratio: 100,
            floor: 1 << 20,
        };
        let err = open_within(home.path(), "t.zotx", bytes.clone(), small).unwrap_err();
        assert!(matches!(err, BundleError::TooBig { .. }), "{err}");
        assert!(
            err.to_string().contains("over 1000 bytes together"),
            "{err}"
        );
        let few = Limits {
            members: 2,
            ..small
        };
        let err = open_within(home.path(), "t.zotx", bytes, few).unwrap_err();
        assert!(
            err.to_string().contains("3 members, over the limit of 2"),
            "{err}"
        );
        assert_eq!(std::fs::read_dir(home.path()).unwrap().count(), 0);
    }

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        for bad in ["/etc/x", "../x", "a/../../x", "a\\b", "C:/x", ""] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        for ok in ["extension.json", "a/b/c.py", "dir/"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn links_may_not_climb_above_the_top() {
        assert!(check_link("a/l", "../b").is_ok());
        assert!(check_link("l", "../x").is_err());
        assert!(check_link("a/l", "../../x").is_err());
        assert!(check_link("l", "/etc/passwd").is_err());
        assert!(check_link("l", "a/./b").is_ok());
    }
}

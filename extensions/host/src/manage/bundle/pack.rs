//! `zot ext pack DIR [-o FILE.zotx] [--sign KEYFILE]`: writes the folder
//! as a bundle, `extension.json` first and the rest in sorted order
//! (`.git` left out), links kept as links, executables marked; signed, the
//! archive comment carries the public key and the signature of the
//! content digest.

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use ed25519_dalek::{Signer as _, SigningKey};
use zip::write::SimpleFileOptions;

use super::check::{signed_message, ContentDigest, SIGNATURE_TAG};
use super::keys::encode_public;
use super::BundleError;
use super::MANIFEST_FILE;

/// What `pack` wrote.
#[derive(Debug, Clone)]
pub struct Packed {
    /// The bundle file.
    pub file: PathBuf,
    /// The extension's name.
    pub name: String,
    /// Its version.
    pub version: Option<String>,
    /// The content digest (hex).
    pub digest: String,
    /// The signing key's public half (base64), when signed.
    pub signed_by: Option<String>,
}

/// Packs `dir` into `out` (default: `NAME-VERSION.zotx` in the current
/// directory), signing with `key` when given. The result is read back
/// through the same checks an install makes, so a bundle `pack` writes
/// always installs.
pub fn pack(
    zot_home: &Path,
    dir: &Path,
    out: Option<&Path>,
    key: Option<&SigningKey>,
) -> Result<Packed, BundleError> {
    let err = |reason: String| BundleError::Pack {
        dir: dir.to_path_buf(),
        reason,
    };
    let manifest =
        crate::manifest::load(&dir.join(MANIFEST_FILE)).map_err(|e| err(e.to_string()))?;
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| {
        PathBuf::from(match &manifest.version {
            Some(v) => format!("{}-{v}.{}", manifest.name, super::EXTENSION),
            None => format!("{}.{}", manifest.name, super::EXTENSION),
        })
    });
    let files = members(dir).map_err(|e| err(e.to_string()))?;
    let mut buf = std::io::Cursor::new(Vec::new());
    write_zip(dir, &files, &mut buf).map_err(|e| err(e.to_string()))?;
    // Read back for the digest (and every check an install makes).
    let unsigned = super::open(zot_home, &out.display().to_string(), buf.into_inner())?;
    let signed_by = key.map(|k| encode_public(&k.verifying_key()));
    let mut final_buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip =
            write_zip_start(dir, &files, &mut final_buf).map_err(|e| err(e.to_string()))?;
        if let Some(k) = key {
            let sig = k.sign(&signed_message(&unsigned.digest));
            let b64 = base64::engine::general_purpose::STANDARD;
            zip.set_comment(format!(
                "{SIGNATURE_TAG} {} {}",
                encode_public(&k.verifying_key()),
                b64.encode(sig.to_bytes())
            ))
            .map_err(|e| err(e.to_string()))?;
        }
        zip.finish().map_err(|e| err(e.to_string()))?;
    }
    std::fs::write(&out, final_buf.into_inner()).map_err(|e| BundleError::Pack {
        dir: dir.to_path_buf(),
        reason: format!("cannot write {}: {e}", out.display()),
    })?;
    Ok(Packed {
        file: out,
        name: manifest.name,
        version: manifest.version,
        digest: unsigned.digest,
        signed_by,
    })
}

/// The members a bundle of `dir` holds, in order: `extension.json`
/// first, then every other file and link sorted, `.git` left out.
fn members(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    walk(dir, "", &mut files)?;
    files.sort();
    files.retain(|f| f != MANIFEST_FILE);
    files.insert(0, MANIFEST_FILE.to_owned());
    Ok(files)
}

/// The content digest `dir` would have as a bundle (what [`pack`] reports
/// and an install from the bundle records), read from the folder without
/// writing one: the catalog's signatures cover it (`catalog/signature.rs`).
pub fn folder_digest(dir: &Path) -> std::io::Result<String> {
    let mut digest = ContentDigest::new();
    for rel in members(dir)? {
        let path = dir.join(&rel);
        let meta = path.symlink_metadata()?;
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path)?;
            digest.add(&rel, b'l', target.to_string_lossy().as_bytes());
        } else {
            let kind = if is_executable(&meta) { b'x' } else { b'f' };
            digest.add(&rel, kind, &std::fs::read(&path)?);
        }
    }
    Ok(digest.finish())
}

/// Whether a bundle marks the file executable (any execute bit).
fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

fn write_zip<W: Write + Seek>(dir: &Path, files: &[String], to: W) -> std::io::Result<()> {
    write_zip_start(dir, files, to)?
        .finish()
        .map_err(std::io::Error::other)?;
    Ok(())
}

/// Writes every member; the caller may add a comment before finishing.
fn write_zip_start<W: Write + Seek>(
    dir: &Path,
    files: &[String],
    to: W,
) -> std::io::Result<zip::ZipWriter<W>> {
    let mut zip = zip::ZipWriter::new(to);
    let base = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        // A fixed time, so the same folder packs to the same bytes.
        .last_modified_time(zip::DateTime::default());
    for rel in files {
        let path = dir.join(rel);
        let meta = path.symlink_metadata()?;
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path)?;
            zip.add_symlink(rel, target.to_string_lossy(), base)
                .map_err(std::io::Error::other)?;
            continue;
        }
        let mode = if is_executable(&meta) { 0o755 } else { 0o644 };
        zip.start_file(rel, base.unix_permissions(mode))
            .map_err(std::io::Error::other)?;
        zip.write_all(&std::fs::read(&path)?)?;
    }
    Ok(zip)
}

/// Every file and link under `dir` (relative, `/`-separated), `.git`
/// left out.
fn walk(root: &Path, rel: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    let here = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    for entry in std::fs::read_dir(here)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if rel.is_empty() && name == ".git" {
            continue;
        }
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &child, out)?;
        } else if kind.is_file() || kind.is_symlink() {
            out.push(child);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalog's signatures rest on this: a folder's digest is the one
    /// its bundle gets, links and executables included.
    #[test]
    fn a_folder_digest_is_the_digest_of_its_bundle() {
        let home = tempfile::tempdir().unwrap();
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("ext");
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        std::fs::write(dir.join(MANIFEST_FILE), r#"{"name":"x","exec":"run.sh"}"#).unwrap();
        std::fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::write(dir.join("lib/a.txt"), "a").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let exec = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(dir.join("run.sh"), exec).unwrap();
            std::os::unix::fs::symlink("lib/a.txt", dir.join("link")).unwrap();
        }
        let out = d.path().join("x.zotx");
        let packed = pack(home.path(), &dir, Some(&out), None).unwrap();
        assert_eq!(folder_digest(&dir).unwrap(), packed.digest);
        std::fs::write(dir.join("lib/a.txt"), "b").unwrap();
        assert_ne!(folder_digest(&dir).unwrap(), packed.digest);
    }
}

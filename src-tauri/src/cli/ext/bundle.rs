//! `zot ext pack` and `zot ext keygen`: write a `.zotx` bundle of a
//! folder (signed or not) and make a signing key pair
//! (docs/extensions.md "Bundles").

use std::path::Path;

use anyhow::Result;
use zot_ext_host::bundle::{keys, pack::pack as pack_dir};

use super::ExtGlobals;

/// `zot ext pack DIR [-o FILE.zotx] [--sign KEYFILE]`.
pub(super) fn pack(
    global: &ExtGlobals,
    dir: &Path,
    out: Option<&Path>,
    sign: Option<&Path>,
) -> Result<i32> {
    let key = sign.map(keys::read_signing_key).transpose()?;
    let done = pack_dir(&global.zot_home, dir, out, key.as_ref())?;
    let version = done
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    println!("packed {}{version} into {}", done.name, done.file.display());
    println!("digest {}", done.digest);
    match &done.signed_by {
        Some(public) => println!("signed by the key {public}"),
        None => eprintln!(
            "unsigned (sign it with --sign KEYFILE; make a key with `zot ext keygen FILE`)"
        ),
    }
    Ok(0)
}

/// `zot ext keygen FILE`: the public key goes to stdout alone, so it can be
/// piped into someone's `trusted_keys`.
pub(super) fn keygen(file: &Path) -> Result<i32> {
    let public = keys::keygen(file)?;
    println!("{public}");
    eprintln!(
        "private key in {} (keep it secret), public key in {}; whoever trusts it adds it to $ZOT_HOME/config.json as \"trusted_keys\": {{\"YOUR NAME\": \"{public}\"}}",
        file.display(),
        keys::pub_path(file).display()
    );
    Ok(0)
}

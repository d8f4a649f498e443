//! The signature block an `.mcpb` may carry (docs/mcp.md "MCP bundles"):
//! the official packer's `mcpb sign` appends to the zip
//! `MCPB_SIG_V1`, the length of a DER PKCS#7 `SignedData` as 4
//! little-endian bytes, that DER (a detached signature of the zip before
//! it, with an X.509 certificate chain), optionally zero padding, and
//! `MCPB_SIG_END`. zot finds the block and says so truthfully, but does
//! not check it yet: verifying it means CMS parsing and an X.509 chain
//! check against the system's code-signing roots, which no crate zot
//! already depends on does. A bundle carrying one installs as unverified,
//! never as signed.

const HEADER: &[u8] = b"MCPB_SIG_V1";
const FOOTER: &[u8] = b"MCPB_SIG_END";

/// The DER of the PKCS#7 `signedData` content type (1.2.840.113549.1.7.2),
/// which a `ContentInfo` holding a signature names first.
const SIGNED_DATA_OID: &[u8] = &[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02,
];

/// What the end of an `.mcpb` file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Block {
    /// No signature block.
    None,
    /// A well-formed block around a PKCS#7 `SignedData` of this many bytes.
    Pkcs7(usize),
    /// The markers are there but what is between them is not a signature.
    Damaged,
}

impl Block {
    /// The words the install summary shows, when there is a block.
    pub(super) fn words(&self) -> Option<String> {
        match self {
            Block::None => None,
            Block::Pkcs7(_) => Some(
                "unverified: it carries an .mcpb (PKCS#7 certificate) signature, which zot does not check yet"
                    .to_owned(),
            ),
            Block::Damaged => Some(
                "unverified: it ends with a damaged .mcpb signature block (not a PKCS#7 signature)"
                    .to_owned(),
            ),
        }
    }
}

/// Finds the signature block at the end of an `.mcpb` file's bytes.
pub(super) fn find(bytes: &[u8]) -> Block {
    let Some(end) = bytes.len().checked_sub(FOOTER.len()) else {
        return Block::None;
    };
    if bytes.get(end..) != Some(FOOTER) {
        return Block::None;
    }
    let Some(start) = bytes
        .get(..end)
        .and_then(|head| head.windows(HEADER.len()).rposition(|w| w == HEADER))
    else {
        return Block::Damaged;
    };
    let body = bytes.get(start + HEADER.len()..end).unwrap_or_default();
    let Some((len, rest)) = body.split_first_chunk::<4>() else {
        return Block::Damaged;
    };
    let len = u32::from_le_bytes(*len) as usize;
    let (Some(der), Some(padding)) = (rest.get(..len), rest.get(len..)) else {
        return Block::Damaged;
    };
    // A DER SEQUENCE (ContentInfo) whose content type is signedData,
    // followed by nothing but the padding external signers add.
    let is_signed_data = der.first() == Some(&0x30)
        && der.get(..32.min(der.len())).is_some_and(|h| {
            h.windows(SIGNED_DATA_OID.len())
                .any(|w| w == SIGNED_DATA_OID)
        });
    if is_signed_data && padding.iter().all(|b| *b == 0) {
        Block::Pkcs7(len)
    } else {
        Block::Damaged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(der: &[u8], padding: usize) -> Vec<u8> {
        let mut out = b"PK\x05\x06 a zip".to_vec();
        out.extend_from_slice(HEADER);
        out.extend_from_slice(&(der.len() as u32).to_le_bytes());
        out.extend_from_slice(der);
        out.extend(std::iter::repeat_n(0u8, padding));
        out.extend_from_slice(FOOTER);
        out
    }

    fn signed_data() -> Vec<u8> {
        let mut der = vec![0x30, 0x82, 0x01, 0x00];
        der.extend_from_slice(SIGNED_DATA_OID);
        der.extend_from_slice(&[0xa0, 0x00]);
        der
    }

    #[test]
    fn a_pkcs7_block_is_found_with_or_without_padding() {
        let der = signed_data();
        assert_eq!(find(&block(&der, 0)), Block::Pkcs7(der.len()));
        assert_eq!(find(&block(&der, 100)), Block::Pkcs7(der.len()));
    }

    #[test]
    fn no_block_and_damaged_blocks_say_so() {
        assert_eq!(find(b"PK\x05\x06 a plain zip"), Block::None);
        assert_eq!(find(b""), Block::None);
        // The footer without a header.
        assert_eq!(find(b"zipMCPB_SIG_END"), Block::Damaged);
        // A length past the footer.
        let mut long = block(&signed_data(), 0);
        let at = long.len() - FOOTER.len() - signed_data().len() - 4;
        long.splice(at..at + 4, 9999u32.to_le_bytes());
        assert_eq!(find(&long), Block::Damaged);
        // Not a PKCS#7 SignedData.
        assert_eq!(find(&block(b"not a signature", 0)), Block::Damaged);
    }
}

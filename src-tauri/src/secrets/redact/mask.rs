//! One string, masked: every secret of this run in it becomes
//! [`super::MASK`]. The string is checked twice over: as it is, and as
//! JSON will spell it, because everything zot hands out is JSON and a
//! key can show in the escaped text without being in the string (the
//! string `"…\nsk-…"` is written `…\nsk-…`, which holds the key
//! `nsk-…`). What produced such a spelling is masked too, so neither a
//! client that decodes the JSON nor one that greps its bytes finds a key.
//! [`Secrets::shown_in`] is the pump's quick test of a whole event's JSON
//! before any string is masked.

use std::borrow::Cow;

use memchr::memmem::Finder;

use super::MASK;

/// One secret, as it is and as JSON spells it.
struct Secret {
    /// The secret as it is.
    raw: String,
    /// Its JSON-escaped spelling (equal to `raw` for most keys).
    escaped: String,
    /// Whether the secret could start or run inside an escape sequence
    /// of the JSON text (`\n`, `\"`, `\u001f`): only such a secret can
    /// show in the escaped text of a string that does not hold it.
    hides_in_escapes: bool,
}

/// The secrets of one run, longest first (so a key that contains another
/// is masked whole).
#[derive(Default)]
pub struct Secrets {
    /// Each secret.
    list: Vec<Secret>,
    /// A SIMD search for each secret as it is (`list`'s order), built once.
    finders: Vec<Finder<'static>>,
    /// And for each JSON spelling that differs from the secret.
    escaped_finders: Vec<Finder<'static>>,
    /// Whether any secret could hide in an escape sequence.
    hides_in_escapes: bool,
}

impl Secrets {
    /// The secrets to mask (distinct, none empty).
    pub fn new(mut raw: Vec<String>) -> Self {
        raw.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let list: Vec<Secret> = raw
            .into_iter()
            .map(|raw| {
                let hides_in_escapes = raw.contains('\\')
                    || raw
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_hexdigit() || "nrtbfu\"".contains(c));
                Secret {
                    escaped: escape(&raw).0,
                    raw,
                    hides_in_escapes,
                }
            })
            .collect();
        let finder = |s: &str| Finder::new(s.as_bytes()).into_owned();
        let finders = list.iter().map(|s| finder(&s.raw)).collect();
        let escaped_finders = list
            .iter()
            .filter(|s| s.escaped != s.raw)
            .map(|s| finder(&s.escaped))
            .collect();
        Secrets {
            hides_in_escapes: list.iter().any(|s| s.hides_in_escapes),
            finders,
            escaped_finders,
            list,
        }
    }

    /// Whether serialised JSON `text` shows a secret, in either spelling:
    /// the cheap test before anything is masked.
    pub fn shown_in(&self, text: &[u8]) -> bool {
        self.finders
            .iter()
            .chain(&self.escaped_finders)
            .any(|f| f.find(text).is_some())
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `s` with every secret masked; borrowed (no copy) when it holds none.
    pub fn mask<'s>(&self, s: &'s str) -> Cow<'s, str> {
        let mut out = Cow::Borrowed(s);
        // A few rounds at most: masking one spelling cannot make another.
        for _ in 0..3 {
            let mut changed = false;
            for (sec, f) in self.list.iter().zip(&self.finders) {
                if f.find(out.as_bytes()).is_some() {
                    out = Cow::Owned(out.replace(sec.raw.as_str(), MASK));
                    changed = true;
                }
            }
            if let Some(m) = self.mask_escaped(&out) {
                out = Cow::Owned(m);
                changed = true;
            }
            if !changed {
                return out;
            }
        }
        // Still finding one after that: give nothing away.
        Cow::Owned(MASK.to_owned())
    }

    /// `s` with the characters masked whose JSON spelling shows a secret, or
    /// `None` when its JSON spelling shows none. Cheap in the common case:
    /// only a string with a character JSON escapes, and a secret that could
    /// hide in an escape, is spelled out and searched.
    fn mask_escaped(&self, s: &str) -> Option<String> {
        if !self.hides_in_escapes || !s.bytes().any(needs_escape) {
            return None;
        }
        let (text, from) = escape(s);
        // Ranges of `s` (byte offsets) whose spelling holds a secret.
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for sec in self.list.iter().filter(|x| x.hides_in_escapes) {
            for spelling in [&sec.raw, &sec.escaped] {
                for at in memchr::memmem::find_iter(text.as_bytes(), spelling.as_bytes()) {
                    let last = at + spelling.len() - 1;
                    let (Some(&a), Some(&b)) = (from.get(at), from.get(last)) else {
                        continue;
                    };
                    let end = b + s.get(b..)?.chars().next().map_or(1, char::len_utf8);
                    hits.push((a, end));
                }
            }
        }
        if hits.is_empty() {
            return None;
        }
        hits.sort_unstable();
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (a, b) in hits {
            if b <= at {
                continue;
            }
            if a >= at {
                out.push_str(s.get(at..a)?);
                out.push_str(MASK);
            }
            at = b;
        }
        out.push_str(s.get(at..)?);
        Some(out)
    }
}

/// Whether JSON escapes this byte inside a string (as serde_json does).
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// `s` spelled as inside a JSON string, and for each byte of that spelling
/// the offset in `s` of the character it came from.
fn escape(s: &str) -> (String, Vec<usize>) {
    let mut text = String::with_capacity(s.len() + 8);
    let mut from = Vec::with_capacity(s.len() + 8);
    for (i, c) in s.char_indices() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            '\n' => text.push_str("\\n"),
            '\r' => text.push_str("\\r"),
            '\t' => text.push_str("\\t"),
            '\u{8}' => text.push_str("\\b"),
            '\u{c}' => text.push_str("\\f"),
            c if (c as u32) < 0x20 => text.push_str(&format!("\\u{:04x}", c as u32)),
            c => text.push(c),
        }
        from.resize(text.len(), i);
    }
    (text, from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(raw: &[&str]) -> Secrets {
        Secrets::new(raw.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn the_escaped_spelling_is_the_one_serde_json_writes() {
        for s in ["plain", "a\"b\\c\nd\re\tf\u{8}\u{c}\u{1}\u{1f}é✓", ""] {
            let json = serde_json::to_string(s).unwrap();
            assert_eq!(format!("\"{}\"", escape(s).0), json, "{s:?}");
        }
    }

    #[test]
    fn a_string_without_secrets_is_not_copied() {
        let sec = secrets(&["sk-secret-0001", "nsk-hidden-01"]);
        assert!(matches!(sec.mask("line one\nline two"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_secret_only_in_the_json_spelling_masks_what_spelled_it() {
        let sec = secrets(&["nsk-hidden-key-42"]);
        let s = "line\nsk-hidden-key-42 and more";
        assert!(!s.contains("nsk-hidden-key-42"));
        let m = sec.mask(s);
        assert_eq!(m, format!("line{MASK} and more"));
        assert!(!serde_json::to_string(&m).unwrap().contains("nsk-hidden"));
        // A hex token after an escape's `\u00`: `\u0001abcdef12…`.
        let sec = secrets(&["01abcdef12345678"]);
        let m = sec.mask("x\u{1}abcdef12345678y");
        assert!(
            !serde_json::to_string(&m)
                .unwrap()
                .contains("01abcdef12345678"),
            "{m:?}"
        );
    }

    #[test]
    fn a_key_that_contains_another_is_masked_whole() {
        let sec = secrets(&["sk-short-key", "sk-short-key-and-more"]);
        assert_eq!(
            sec.mask("a sk-short-key-and-more b sk-short-key c"),
            format!("a {MASK} b {MASK} c")
        );
    }
}

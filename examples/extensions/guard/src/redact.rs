//! Finds secrets in text: API keys with well-known prefixes. A small
//! scanner instead of a regex crate keeps the example dependency-free.

/// Prefixes of secrets, with the least number of token characters after
/// the prefix that makes a match (shorter runs are ordinary words).
const PATTERNS: &[(&str, usize)] = &[
    ("sk-", 16),  // OpenAI and Anthropic (sk-ant-…)
    ("ghp_", 20), // GitHub personal tokens
    ("github_pat_", 20),
    ("xoxb-", 16), // Slack bot tokens
    ("AKIA", 16),  // AWS access key ids
];

/// The text with every secret replaced by `[redacted]`, or `None` if there
/// was nothing to redact.
pub fn secrets(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut found = false;
    'scan: while !rest.is_empty() {
        for (prefix, min) in PATTERNS {
            if rest.starts_with(prefix) && boundary_before(text, text.len() - rest.len()) {
                let body = &rest[prefix.len()..];
                let n = body
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .unwrap_or(body.len());
                if n >= *min {
                    out.push_str("[redacted]");
                    rest = &body[n..];
                    found = true;
                    continue 'scan;
                }
            }
        }
        let ch = rest.chars().next().expect("non-empty");
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    found.then_some(out)
}

/// A key starts a token: not glued to a preceding word character.
fn boundary_before(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
}

#[cfg(test)]
mod tests {
    use super::secrets;

    #[test]
    fn redacts_api_keys() {
        assert_eq!(
            secrets("here is your api key: sk-ant-api03-abcdefghijklmnop1234 ok").as_deref(),
            Some("here is your api key: [redacted] ok")
        );
        assert_eq!(
            secrets("AKIAABCDEFGHIJKLMNOP and ghp_abcdefghijklmnopqrstuvwxyz0123").as_deref(),
            Some("[redacted] and [redacted]")
        );
    }

    #[test]
    fn leaves_ordinary_text_alone() {
        assert_eq!(secrets("a task-list and risk-free sk-short"), None);
        assert_eq!(secrets("disk-abcdefghijklmnopqrstuv"), None);
        assert_eq!(secrets("ünïcödé sk-"), None);
    }
}

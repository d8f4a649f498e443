//! What an HTML panel's frame is served (docs/extensions.md "HTML panels"):
//! the extension's document with a small bootstrap put in front of it, and
//! the Content-Security-Policy that walls it in. Kept apart from the
//! window's glue (`desktop/panel_frame.rs`) so the policy is plain data
//! with its own tests.
//!
//! The walls, each held twice where it can be:
//! - an opaque origin: the iframe's `sandbox="allow-scripts"` (set by the
//!   page) and the policy's own `sandbox allow-scripts` (set here, so the
//!   document is sandboxed even if it were ever loaded without the iframe
//!   attribute): no app storage, no access to the app's DOM, no popups,
//!   no top navigation, no forms;
//! - no network unless the manifest grants `sandbox.net`: every fetch
//!   directive is `'none'` or local (`data:`/`blob:`), and even with the
//!   grant only http(s) and ws(s) are reachable (never `ipc:` or another
//!   panel's `zotpanel:` document);
//! - `form-action 'none'` and `base-uri 'none'` in every case.

/// The response header that carries [`csp`].
pub const CSP_HEADER: &str = "Content-Security-Policy";

/// What a frame may reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// An HTML panel: no network, or any http(s)/ws(s) with `sandbox.net`.
    Panel {
        /// The manifest grants `sandbox.net`.
        net: bool,
    },
    /// An MCP App: only the origins its resource declared.
    App(zot_ext_protocol::AppCsp),
}

impl Reach {
    /// The frame's Content-Security-Policy.
    pub fn csp(&self) -> String {
        match self {
            Reach::Panel { net } => csp(*net),
            Reach::App(c) => app_csp(c),
        }
    }
}

/// An MCP App's policy (docs/mcp.md "MCP Apps"): the walls of a panel
/// without a grant, opened only to the origins the resource declared,
/// each list to its own directives, as the MCP Apps specification maps
/// them. An origin that could widen the policy (a keyword, a wildcard, a
/// `;`) is dropped.
pub fn app_csp(c: &zot_ext_protocol::AppCsp) -> String {
    let list = |v: &[String]| -> String {
        v.iter()
            .filter(|o| is_web_origin(o))
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let or_none = |s: String| if s.is_empty() { "'none'".to_owned() } else { s };
    let res = list(&c.resource_domains);
    let local = |extra: &str| format!("data: blob: {res}{extra}").trim().to_owned();
    [
        "default-src 'none'".to_owned(),
        format!("script-src 'unsafe-inline' 'unsafe-eval' {res}")
            .trim()
            .to_owned(),
        format!("style-src 'unsafe-inline' {}", local("")),
        format!("img-src {}", local("")),
        format!("font-src {}", local("")),
        format!("media-src {}", local("")),
        format!("connect-src {}", or_none(list(&c.connect_domains))),
        format!("frame-src {}", or_none(list(&c.frame_domains))),
        "worker-src 'none'".to_owned(),
        "object-src 'none'".to_owned(),
        format!("base-uri {}", or_none(list(&c.base_uri_domains))),
        "form-action 'none'".to_owned(),
        "sandbox allow-scripts".to_owned(),
    ]
    .join("; ")
}

/// `https://host[:port]` (or http, ws, wss; a leading `*.` allowed) and
/// nothing a policy would read as more.
fn is_web_origin(o: &str) -> bool {
    let Some((scheme, rest)) = o.split_once("://") else {
        return false;
    };
    let host = rest.strip_prefix("*.").unwrap_or(rest);
    matches!(scheme, "https" | "http" | "wss" | "ws")
        && !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '/'))
}

/// The policy of a panel page; `net`: its manifest grants `sandbox.net`.
pub fn csp(net: bool) -> String {
    let fetch = if net {
        "https: http: wss: ws: data: blob:"
    } else {
        "data: blob:"
    };
    let connect = if net {
        "https: http: wss: ws:"
    } else {
        "'none'"
    };
    let frames = if net { "https: http:" } else { "'none'" };
    [
        "default-src 'none'".to_owned(),
        // Inline scripts and styles are the page; `eval` harms nothing
        // inside an opaque origin and chart code uses it.
        "script-src 'unsafe-inline' 'unsafe-eval'".to_owned(),
        format!("style-src 'unsafe-inline' {fetch}"),
        format!("img-src {fetch}"),
        format!("font-src {fetch}"),
        format!("media-src {fetch}"),
        format!("connect-src {connect}"),
        format!("frame-src {frames}"),
        "worker-src 'none'".to_owned(),
        "object-src 'none'".to_owned(),
        "base-uri 'none'".to_owned(),
        "form-action 'none'".to_owned(),
        "sandbox allow-scripts".to_owned(),
    ]
    .join("; ")
}

/// How a page's keys reach the window: F6 / Shift+F6 always move the
/// keyboard on (as anywhere in the app), Esc returns it to the editor
/// unless the page handled it (`preventDefault`) or its owner declared
/// `panel_esc`. Theme changes arrive as a reserved message that the page
/// never sees. The marker `zot:frame` names both.
const BOOTSTRAP: &str = r#"<script>(function(){var P=window.parent,E=__ESC__;
function apply(css){var s=document.getElementById("zot-theme");if(s)s.textContent=":root{"+css+"}";}
addEventListener("keydown",function(e){if(e.key==="F6"){e.preventDefault();P.postMessage({"zot:frame":"key",key:"F6",shift:e.shiftKey},"*");}
else if(e.key==="Escape"&&E&&!e.defaultPrevented){P.postMessage({"zot:frame":"key",key:"Escape"},"*");}});
addEventListener("message",function(e){var d=e.data;if(e.source===P&&d&&typeof d==="object"&&d["zot:frame"]==="theme"){e.stopImmediatePropagation();apply(String(d.css||""));}},true);
})();</script>"#;

/// Keeps only what a list of `--name: value;` declarations needs, so a
/// theme value can never close the style element it is put in.
pub fn theme_css(css: &str) -> String {
    css.chars()
        .filter(|c| !matches!(c, '<' | '>' | '{' | '}' | '\\'))
        .collect()
}

/// The document served for a panel: `html` with the theme's variables and
/// the bootstrap put right after its doctype (before it, the page would
/// lose standards mode). `esc_leaves`: Esc returns the keyboard to the
/// editor (the owner did not declare `panel_esc`).
pub fn document(html: &str, theme: &str, esc_leaves: bool) -> String {
    let at = doctype_end(html);
    let head = format!(
        "<style id=\"zot-theme\">:root{{{}}}</style>{}",
        theme_css(theme),
        BOOTSTRAP.replace("__ESC__", if esc_leaves { "true" } else { "false" })
    );
    let mut out = String::with_capacity(html.len() + head.len());
    out.push_str(&html[..at]);
    out.push_str(&head);
    out.push_str(&html[at..]);
    out
}

/// The byte index just past a leading `<!doctype …>` (after whitespace),
/// or 0 when the document has none.
fn doctype_end(html: &str) -> usize {
    let lead = html.len() - html.trim_start().len();
    let rest = &html[lead..];
    let is_doctype = rest
        .get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("<!doctype"));
    if !is_doctype {
        return 0;
    }
    rest.find('>').map_or(0, |i| lead + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_grant_the_page_reaches_no_network_and_nothing_of_the_app() {
        let p = csp(false);
        for want in [
            "default-src 'none'",
            "connect-src 'none'",
            "frame-src 'none'",
            "img-src data: blob:",
            "form-action 'none'",
            "base-uri 'none'",
            "sandbox allow-scripts",
        ] {
            assert!(p.contains(want), "{want:?} missing from {p}");
        }
        for never in ["http", "ipc:", "zotpanel", "allow-same-origin", "*"] {
            assert!(!p.contains(never), "{never:?} in {p}");
        }
    }

    #[test]
    fn an_app_reaches_only_the_origins_its_resource_declared() {
        let p = Reach::App(Default::default()).csp();
        for want in [
            "connect-src 'none'",
            "frame-src 'none'",
            "base-uri 'none'",
            "img-src data: blob:",
            "sandbox allow-scripts",
        ] {
            assert!(p.contains(want), "{want:?} missing from {p}");
        }
        assert!(!p.contains("http"), "{p}");
        let c = zot_ext_protocol::AppCsp {
            connect_domains: vec![
                "https://api.example.com".into(),
                "*".into(),
                "https://x; script-src *".into(),
            ],
            resource_domains: vec!["https://*.cdn.example".into()],
            frame_domains: vec!["'self'".into()],
            base_uri_domains: vec![],
        };
        let p = Reach::App(c).csp();
        assert!(p.contains("connect-src https://api.example.com;"), "{p}");
        assert!(
            p.contains("img-src data: blob: https://*.cdn.example;"),
            "{p}"
        );
        assert!(
            p.contains("script-src 'unsafe-inline' 'unsafe-eval' https://*.cdn.example;"),
            "{p}"
        );
        assert!(p.contains("frame-src 'none'"), "{p}");
        for never in ["'self'", " *", "allow-same-origin", "zotpanel", "ipc:"] {
            assert!(!p.contains(never), "{never:?} in {p}");
        }
    }

    #[test]
    fn a_net_grant_opens_http_and_websockets_only() {
        let p = csp(true);
        assert!(p.contains("connect-src https: http: wss: ws:"), "{p}");
        assert!(p.contains("form-action 'none'"), "{p}");
        assert!(p.contains("sandbox allow-scripts"), "{p}");
        for never in ["ipc:", "zotpanel", "allow-same-origin", "allow-popups", "*"] {
            assert!(!p.contains(never), "{never:?} in {p}");
        }
    }

    #[test]
    fn the_bootstrap_goes_after_the_doctype_or_first() {
        let d = document("  <!DOCTYPE html><html><p>x</p>", "--a: #fff;", true);
        assert!(d.starts_with("  <!DOCTYPE html><style id=\"zot-theme\">:root{--a: #fff;}"));
        assert!(d.ends_with("<html><p>x</p>"));
        assert!(d.contains("E=true"));
        let d = document("<p>no doctype</p>", "", false);
        assert!(d.starts_with("<style id=\"zot-theme\">"));
        assert!(d.contains("E=false"));
        assert!(d.ends_with("<p>no doctype</p>"));
        // A doctype without its `>` is not one we can step past.
        assert!(document("<!doctype", "", true).starts_with("<style"));
    }

    #[test]
    fn a_theme_value_cannot_close_its_style_element() {
        let d = document(
            "<p>x</p>",
            "--a: red}</style><script>alert(1)</script>{",
            true,
        );
        assert!(!d.contains("</style><script>alert"), "{d}");
        assert_eq!(d.matches("</style>").count(), 1);
    }
}

//! MCP Apps (docs/mcp.md "MCP Apps"): a tool whose descriptor names a
//! `ui://` resource (`_meta.ui.resourceUri`) has that resource read after
//! each call and put on its result, for the card to render in a sandboxed
//! frame. What can go wrong (no such resource, another MIME type, a
//! document over the size limit) leaves the result as it was, with one
//! line saying why ([`zot_ext_protocol::ToolResult::app_note`]), and the
//! same line in the server's log.

use base64::Engine;
use rmcp::model::{ReadResourceRequestParams, Tool};
use rmcp::service::RoleClient;
use rmcp::Peer;
use serde_json::Value;
use zot_ext_protocol::{AppCsp, ToolApp, MAX_PANEL_HTML, MCP_APP_MIME};

/// What a tool's `_meta.ui` says about its app.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ToolUi {
    /// The `ui://` resource to render its results with.
    pub resource_uri: Option<String>,
    /// Only the app may call it (`visibility` without `"model"`): the
    /// model never sees it.
    pub app_only: bool,
}

/// Reads `_meta.ui` of a tool descriptor (and the deprecated flat
/// `_meta["ui/resourceUri"]`).
pub(crate) fn tool_ui(t: &Tool) -> ToolUi {
    let Some(meta) = t.meta.as_ref() else {
        return ToolUi::default();
    };
    let ui = meta.get("ui");
    let uri = ui
        .and_then(|u| u.get("resourceUri"))
        .or_else(|| meta.get("ui/resourceUri"))
        .and_then(Value::as_str)
        .filter(|u| u.starts_with("ui://"))
        .map(str::to_owned);
    let app_only = ui
        .and_then(|u| u.get("visibility"))
        .and_then(Value::as_array)
        .is_some_and(|v| !v.iter().any(|x| x.as_str() == Some("model")));
    ToolUi {
        resource_uri: uri,
        app_only,
    }
}

/// Reads the app at `uri` from the server: the HTML and its declared
/// origins, or why it cannot be shown (said to the user as is).
pub(crate) async fn fetch(peer: &Peer<RoleClient>, uri: &str) -> Result<ToolApp, String> {
    let read = peer
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .map_err(|e| format!("its MCP App {uri} could not be read (resources/read: {e})"))?;
    let read = serde_json::to_value(&read).unwrap_or_default();
    app_from_contents(uri, &read)
}

/// The app in a `resources/read` result (as JSON).
pub(crate) fn app_from_contents(uri: &str, read: &Value) -> Result<ToolApp, String> {
    let contents = read
        .get("contents")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let c = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| contents.first())
        .ok_or_else(|| {
            format!("its MCP App {uri} is empty (resources/read returned no contents)")
        })?;
    let mime = c.get("mimeType").and_then(Value::as_str).unwrap_or("");
    if !is_app_mime(mime) {
        let shown = if mime.is_empty() {
            "no MIME type"
        } else {
            mime
        };
        return Err(format!(
            "its MCP App {uri} is {shown}, not {MCP_APP_MIME}; zot shows only MCP App HTML"
        ));
    }
    let html = match (
        c.get("text").and_then(Value::as_str),
        c.get("blob").and_then(Value::as_str),
    ) {
        (Some(t), _) => t.to_owned(),
        (None, Some(b)) => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b)
                .map_err(|e| format!("its MCP App {uri} has a blob that is not base64 ({e})"))?;
            String::from_utf8(bytes).map_err(|_| format!("its MCP App {uri} is not UTF-8 text"))?
        }
        (None, None) => return Err(format!("its MCP App {uri} has neither text nor blob")),
    };
    if html.len() > MAX_PANEL_HTML {
        return Err(format!(
            "its MCP App {uri} is {} bytes, over the limit of {MAX_PANEL_HTML} bytes (2 MiB)",
            html.len()
        ));
    }
    let ui = c.get("_meta").and_then(|m| m.get("ui"));
    let csp = ui
        .and_then(|u| u.get("csp"))
        .map(csp_of)
        .filter(|c| !c.is_empty());
    Ok(ToolApp {
        resource_uri: uri.to_owned(),
        html,
        csp,
        prefers_border: ui
            .and_then(|u| u.get("prefersBorder"))
            .and_then(Value::as_bool),
        structured_content: None,
    })
}

/// `text/html;profile=mcp-app`, however it is spaced or cased.
fn is_app_mime(mime: &str) -> bool {
    let norm: String = mime
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    norm == MCP_APP_MIME
}

/// The declared origins, keeping only those a policy can hold safely.
fn csp_of(v: &Value) -> AppCsp {
    let list = |k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|o| is_origin(o))
            .map(str::to_owned)
            .collect()
    };
    AppCsp {
        connect_domains: list("connectDomains"),
        resource_domains: list("resourceDomains"),
        frame_domains: list("frameDomains"),
        base_uri_domains: list("baseUriDomains"),
    }
}

/// An origin a CSP source list may hold: `http(s)://` or `ws(s)://`, then
/// a host (a leading `*.` allowed) and maybe a port; nothing that could
/// end the directive or name a keyword (`'self'`, `*`, `data:`).
pub(crate) fn is_origin(o: &str) -> bool {
    let Some((scheme, rest)) = o.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return false;
    }
    let rest = rest.trim_end_matches('/');
    let host = rest.strip_prefix("*.").unwrap_or(rest);
    let (host, port) = match host.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (host, None),
    };
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        && port
            .is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(meta: Value) -> Tool {
        serde_json::from_value(json!({"name":"t","inputSchema":{"type":"object"},"_meta":meta}))
            .unwrap()
    }

    #[test]
    fn the_resource_uri_is_read_from_meta_ui_or_the_flat_key() {
        let t = tool(json!({"ui":{"resourceUri":"ui://a/b"}}));
        assert_eq!(tool_ui(&t).resource_uri.as_deref(), Some("ui://a/b"));
        let t = tool(json!({"ui/resourceUri":"ui://flat"}));
        assert_eq!(tool_ui(&t).resource_uri.as_deref(), Some("ui://flat"));
        // Only ui:// names an app.
        let t = tool(json!({"ui":{"resourceUri":"https://x"}}));
        assert_eq!(tool_ui(&t).resource_uri, None);
        let t = tool(json!({"ui":{"resourceUri":"ui://a","visibility":["app"]}}));
        assert!(tool_ui(&t).app_only);
        let t = tool(json!({"ui":{"visibility":["model","app"]}}));
        assert!(!tool_ui(&t).app_only);
    }

    #[test]
    fn only_the_mcp_app_mime_type_is_shown() {
        let ok = json!({"contents":[{"uri":"ui://a","mimeType":"text/html; profile=mcp-app","text":"<p>hi</p>",
            "_meta":{"ui":{"csp":{"connectDomains":["https://api.example.com","'self'","*","https://x; script-src *"],
            "resourceDomains":["https://*.cdn.example:8443"]},"prefersBorder":true}}}]});
        let app = app_from_contents("ui://a", &ok).unwrap();
        assert_eq!(app.html, "<p>hi</p>");
        let csp = app.csp.unwrap();
        assert_eq!(csp.connect_domains, vec!["https://api.example.com"]);
        assert_eq!(csp.resource_domains, vec!["https://*.cdn.example:8443"]);
        assert_eq!(app.prefers_border, Some(true));

        let plain =
            json!({"contents":[{"uri":"ui://a","mimeType":"text/html","text":"<p>hi</p>"}]});
        let e = app_from_contents("ui://a", &plain).unwrap_err();
        assert!(
            e.contains("text/html, not text/html;profile=mcp-app"),
            "{e}"
        );
        let e = app_from_contents("ui://a", &json!({"contents":[]})).unwrap_err();
        assert!(e.contains("no contents"), "{e}");
        let blob =
            json!({"contents":[{"uri":"ui://a","mimeType":MCP_APP_MIME,"blob":"PHA+YjwvcD4="}]});
        assert_eq!(app_from_contents("ui://a", &blob).unwrap().html, "<p>b</p>");
        let big = json!({"contents":[{"uri":"ui://a","mimeType":MCP_APP_MIME,"text":"x".repeat(MAX_PANEL_HTML + 1)}]});
        assert!(app_from_contents("ui://a", &big)
            .unwrap_err()
            .contains("over the limit"));
    }

    #[test]
    fn origins_that_could_widen_a_policy_are_dropped() {
        for ok in [
            "https://a.b",
            "wss://a.b:443",
            "https://*.a.b",
            "http://localhost:8080/",
        ] {
            assert!(is_origin(ok), "{ok}");
        }
        for bad in [
            "*",
            "'self'",
            "data:",
            "https://",
            "https://a b",
            "javascript://x",
            "https://a;b",
            "https://a:",
        ] {
            assert!(!is_origin(bad), "{bad}");
        }
    }
}

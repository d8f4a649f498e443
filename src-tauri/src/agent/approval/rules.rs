//! The user's approval rules, from `$ZOT_HOME/config.json`:
//!
//! ```json
//! "approvals": {
//!   "desktop": "ask",
//!   "tools": { "write": "allow", "fetch_url": "deny" },
//!   "bash": ["git status", "cargo test *"],
//!   "folders": { "write": ["/home/me/notes"] },
//!   "extensions": {
//!     "web": { "tools": { "fetch_url": "allow" }, "trust_read_only": true }
//!   }
//! }
//! ```
//!
//! `tools` maps a tool name to `allow`, `ask` or `deny`; `deny` and `ask`
//! hold for every tool of that name, `allow` for built-in tools only (an
//! extension tool is allowed only under its extension's own entry, so
//! another extension offering a tool of the same name is not). Each
//! `extensions.<name>` entry holds that extension's `tools` rules and
//! `trust_read_only`, whether its tools' read-only claims skip approval.
//! `bash` lists
//! remembered commands: a rule is either an exact command, which matches
//! only that command byte for byte (trimmed), or words followed by ` *`,
//! which match those words followed by any arguments that contain no shell
//! syntax at all (no `;`, `&`, `|`, `<`, `>`, `(`, `)`, `$`, backquote,
//! backslash or control character), so `git status *` never allows
//! `git status; rm -rf ~` or `git status $(rm -rf ~)`. `folders` lists,
//! per file tool (`read`, `write`, `edit`), absolute paths outside the
//! project where it runs without asking: a folder and everything below it,
//! or one file; never zot's own state or `/proc`, `/sys`, `/dev`, which
//! always ask. The file is read at
//! each tool call, so a hand edit applies at once; a broken section is an
//! error the policy turns into "ask" or "deny", never into "allow".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Map, Value};
use zot_ext_protocol::approvals::{ApprovalMode, ToolRule};

/// Characters that make a command more than one plain program call.
const SHELL_SYNTAX: [char; 10] = [';', '&', '|', '<', '>', '(', ')', '$', '`', '\\'];

/// One remembered bash rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BashRule {
    /// Matches exactly this command (trimmed).
    Exact(String),
    /// Matches these words followed by plain arguments (`cargo test *`).
    Prefix(Vec<String>),
}

/// Whether `s` holds shell syntax or control characters.
fn has_shell_syntax(s: &str) -> bool {
    s.chars()
        .any(|c| SHELL_SYNTAX.contains(&c) || c.is_control())
}

impl BashRule {
    /// Parses a rule as written in `config.json`.
    pub fn parse(text: &str) -> Result<BashRule, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("a bash rule is empty".into());
        }
        let Some(prefix) = t.strip_suffix('*') else {
            return Ok(BashRule::Exact(t.to_owned()));
        };
        if !prefix.ends_with(' ') {
            return Err(format!(
                "bash rule {t:?}: a prefix rule is words, a space and `*` (e.g. \"cargo test *\")"
            ));
        }
        if has_shell_syntax(prefix) || prefix.contains('*') {
            return Err(format!(
                "bash rule {t:?}: the words before `*` may not hold shell syntax (; & | < > ( ) $ ` \\) or another *"
            ));
        }
        let words: Vec<String> = prefix.split_whitespace().map(str::to_owned).collect();
        if words.is_empty() {
            return Err(format!(
                "bash rule {t:?} would allow every command; name the program (e.g. \"cargo test *\")"
            ));
        }
        Ok(BashRule::Prefix(words))
    }

    /// Whether `command` may run under this rule.
    pub fn matches(&self, command: &str) -> bool {
        let c = command.trim();
        match self {
            BashRule::Exact(e) => c == e,
            BashRule::Prefix(words) => {
                if has_shell_syntax(c) {
                    return false;
                }
                let mut got = c.split_whitespace();
                words.iter().all(|w| got.next() == Some(w.as_str()))
            }
        }
    }

    /// How it is written in `config.json`.
    pub fn text(&self) -> String {
        match self {
            BashRule::Exact(e) => e.clone(),
            BashRule::Prefix(w) => format!("{} *", w.join(" ")),
        }
    }
}

/// What `approvals.extensions.<name>` says about one extension.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExtRules {
    /// Rules for its tools, by tool name.
    pub tools: BTreeMap<String, ToolRule>,
    /// Whether a tool it marks read-only runs without asking (the user
    /// trusts this extension's claims; nobody else's).
    pub trust_read_only: bool,
}

/// Everything the `approvals` section says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rules {
    /// Per-tool rules.
    pub tools: BTreeMap<String, ToolRule>,
    /// Remembered bash commands.
    pub bash: Vec<BashRule>,
    /// The desktop app's mode (`approvals.desktop`), when set.
    pub desktop: Option<ApprovalMode>,
    /// Per-extension rules, by extension name.
    pub extensions: BTreeMap<String, ExtRules>,
    /// Folders (or files) outside the project where a file tool runs
    /// without asking, by tool name.
    pub folders: BTreeMap<String, Vec<PathBuf>>,
}

/// The tools a folder rule may name.
pub const FILE_TOOLS: [&str; 3] = ["read", "write", "edit"];

/// Reads `approvals.folders`: `{ "<file tool>": ["/absolute/path", …] }`.
fn folder_rules(v: &Value) -> Result<BTreeMap<String, Vec<PathBuf>>, String> {
    let Some(obj) = v.as_object() else {
        return Err(format!(
            "approvals.folders is {v}, not an object of tool names (\"read\", \"write\", \"edit\")"
        ));
    };
    let mut out = BTreeMap::new();
    for (tool, list) in obj {
        if !FILE_TOOLS.contains(&tool.as_str()) {
            return Err(format!(
                "approvals.folders.{tool}: folder rules are for read, write and edit only"
            ));
        }
        let Some(list) = list.as_array() else {
            return Err(format!(
                "approvals.folders.{tool} is {list}, not a list of paths"
            ));
        };
        let mut paths = Vec::new();
        for p in list {
            match p.as_str().map(PathBuf::from) {
                Some(path) if path.is_absolute() => paths.push(path),
                _ => {
                    return Err(format!(
                        "approvals.folders.{tool} holds {p}, not an absolute path"
                    ))
                }
            }
        }
        out.insert(tool.clone(), paths);
    }
    Ok(out)
}

/// Reads a `{ "<tool>": "allow" | "ask" | "deny" }` object at `field`.
fn tool_rules(v: &Value, field: &str) -> Result<BTreeMap<String, ToolRule>, String> {
    let Some(tools) = v.as_object() else {
        return Err(format!("{field} is {v}, not an object of tool names"));
    };
    let mut out = BTreeMap::new();
    for (name, v) in tools {
        let rule: ToolRule = serde_json::from_value(v.clone())
            .map_err(|_| format!("{field}.{name} is {v}, not \"allow\", \"ask\" or \"deny\""))?;
        out.insert(name.clone(), rule);
    }
    Ok(out)
}

/// Reads `approvals.extensions.<name>`. Unknown keys are refused: a typo
/// (`"tool"` for `"tools"`) must not silently drop a `deny`.
fn ext_rules(name: &str, v: &Value) -> Result<ExtRules, String> {
    let field = format!("approvals.extensions.{name}");
    let Some(obj) = v.as_object() else {
        return Err(format!(
            "{field} is {v}, not an object (\"tools\", \"trust_read_only\")"
        ));
    };
    let mut out = ExtRules::default();
    for (k, v) in obj {
        match k.as_str() {
            "tools" => out.tools = tool_rules(v, &format!("{field}.tools"))?,
            "trust_read_only" => {
                out.trust_read_only = v
                    .as_bool()
                    .ok_or_else(|| format!("{field}.trust_read_only is {v}, not true or false"))?;
            }
            _ => {
                return Err(format!(
                    "{field}.{k} is not a setting; an extension's entry holds \"tools\" and \"trust_read_only\""
                ))
            }
        }
    }
    Ok(out)
}

impl Rules {
    /// Reads the section from a parsed `config.json`; an error names the
    /// field and what was wrong.
    pub fn from_config(config: &Value) -> Result<Rules, String> {
        let Some(section) = config.get("approvals") else {
            return Ok(Rules::default());
        };
        let Some(section) = section.as_object() else {
            return Err(format!("\"approvals\" is {section}, not an object"));
        };
        let mut rules = Rules::default();
        if let Some(d) = section.get("desktop") {
            rules.desktop = Some(
                serde_json::from_value(d.clone())
                    .map_err(|_| format!("approvals.desktop is {d}, not \"ask\" or \"auto\""))?,
            );
        }
        if let Some(tools) = section.get("tools") {
            rules.tools = tool_rules(tools, "approvals.tools")?;
        }
        if let Some(exts) = section.get("extensions") {
            let Some(exts) = exts.as_object() else {
                return Err(format!(
                    "approvals.extensions is {exts}, not an object of extension names"
                ));
            };
            for (name, v) in exts {
                rules.extensions.insert(name.clone(), ext_rules(name, v)?);
            }
        }
        if let Some(folders) = section.get("folders") {
            rules.folders = folder_rules(folders)?;
        }
        if let Some(bash) = section.get("bash") {
            let Some(list) = bash.as_array() else {
                return Err(format!("approvals.bash is {bash}, not a list of commands"));
            };
            for v in list {
                let Some(s) = v.as_str() else {
                    return Err(format!("approvals.bash holds {v}, not a command string"));
                };
                rules
                    .bash
                    .push(BashRule::parse(s).map_err(|e| format!("approvals.bash: {e}"))?);
            }
        }
        Ok(rules)
    }

    /// The rule for `tool` of extension `ext` under its own entry.
    pub fn ext_tool(&self, ext: &str, tool: &str) -> Option<ToolRule> {
        self.extensions.get(ext)?.tools.get(tool).copied()
    }

    /// Whether the user trusts extension `ext`'s read-only claims.
    pub fn trusts_read_only(&self, ext: &str) -> bool {
        self.extensions.get(ext).is_some_and(|e| e.trust_read_only)
    }

    /// Whether a folder rule lets `tool` reach `real` (a path with its
    /// links resolved): `real` is the rule's path or lies below it.
    pub fn folder_allows(&self, tool: &str, real: &Path) -> bool {
        self.folders
            .get(tool)
            .is_some_and(|list| list.iter().any(|f| real.starts_with(f)))
    }

    /// Whether a remembered rule lets `command` run.
    pub fn bash_allows(&self, command: &str) -> bool {
        self.bash.iter().any(|r| r.matches(command))
    }

    /// A prefix rule whose words `command` starts with, although the rule
    /// does not cover it (it holds shell syntax): worth saying in the
    /// reason, so the user sees why a remembered rule did not apply.
    pub fn bash_near_miss(&self, command: &str) -> Option<String> {
        if !has_shell_syntax(command.trim()) {
            return None;
        }
        self.bash.iter().find_map(|r| match r {
            BashRule::Prefix(words) => {
                let mut got = command.split_whitespace();
                words
                    .iter()
                    .all(|w| got.next().is_some_and(|g| g.starts_with(w.as_str())))
                    .then(|| r.text())
            }
            BashRule::Exact(_) => None,
        })
    }
}

/// `config.json` as written, when it exists; an error says why it cannot
/// be used (zot never rewrites a file it cannot read).
fn read_raw(home: &Path) -> Result<Value, String> {
    let path = home.join("config.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(json!({})),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(v) if v.is_object() => Ok(v),
        Ok(_) => Err(format!("{} is not a JSON object", path.display())),
        Err(e) => Err(format!("{} is not valid JSON ({e})", path.display())),
    }
}

/// The rules now; an error says what in `config.json` is broken and how
/// to fix it.
pub fn load(home: &Path) -> Result<Rules, String> {
    let path = home.join("config.json");
    read_raw(home)
        .and_then(|c| Rules::from_config(&c))
        .map_err(|e| {
            format!(
                "the approval rules in {} cannot be used: {e}; fix or remove the \"approvals\" section",
                path.display()
            )
        })
}

/// A rule to add to `config.json`.
#[derive(Debug, Clone, PartialEq)]
pub enum NewRule {
    /// `approvals.tools.<name> = <rule>`.
    Tool(String, ToolRule),
    /// `approvals.extensions.<extension>.tools.<tool> = <rule>`.
    ExtTool {
        /// The extension's name.
        extension: String,
        /// Its tool.
        tool: String,
        /// The rule.
        rule: ToolRule,
    },
    /// A line in `approvals.bash`.
    Bash(BashRule),
    /// A path in `approvals.folders.<tool>`.
    Folder {
        /// The file tool.
        tool: String,
        /// The folder (or file), absolute, links resolved.
        path: PathBuf,
    },
    /// `approvals.desktop = <mode>`.
    Desktop(ApprovalMode),
}

/// Serialises writers of `config.json` within this process, so two
/// remembered rules never lose each other.
static WRITE: Mutex<()> = Mutex::new(());

/// Adds `rule` to `config.json` (atomically: a temp file renamed over it),
/// keeping everything else in the file. Refuses to touch a file it cannot
/// read as JSON, or whose `approvals` section is broken.
pub fn remember(home: &Path, rule: &NewRule) -> Result<(), String> {
    edit_section(home, |section| {
        add(section, rule);
        Ok(())
    })
}

/// Changes the `approvals` section of `config.json` under the writers'
/// lock: read, check, change, write atomically. Refuses to touch a file
/// it cannot read as JSON, or whose `approvals` section is broken.
pub fn edit_section(
    home: &Path,
    change: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<(), String> {
    let _guard = WRITE.lock().unwrap_or_else(|e| e.into_inner());
    let mut config = read_raw(home)?;
    Rules::from_config(&config).map_err(|e| format!("config.json: {e}; fix it first"))?;
    let Some(obj) = config.as_object_mut() else {
        return Err("config.json is not a JSON object".into());
    };
    let section = obj
        .entry("approvals")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(section) = section.as_object_mut() else {
        return Err("config.json: \"approvals\" is not an object".into());
    };
    change(section)?;
    let path = home.join("config.json");
    let bytes = serde_json::to_vec_pretty(&config)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    crate::state_dir::write_private(&path, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Adds `rule` to the section (a rule already there is not repeated).
fn add(section: &mut Map<String, Value>, rule: &NewRule) {
    match rule {
        NewRule::Tool(name, r) => {
            let tools = section
                .entry("tools")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(t) = tools.as_object_mut() {
                t.insert(name.clone(), json!(r));
            }
        }
        NewRule::ExtTool {
            extension,
            tool,
            rule,
        } => {
            let exts = section
                .entry("extensions")
                .or_insert_with(|| Value::Object(Map::new()));
            let entry = exts
                .as_object_mut()
                .map(|e| e.entry(extension.as_str()).or_insert_with(|| json!({})));
            let tools = entry
                .and_then(Value::as_object_mut)
                .map(|e| e.entry("tools").or_insert_with(|| json!({})));
            if let Some(t) = tools.and_then(Value::as_object_mut) {
                t.insert(tool.clone(), json!(rule));
            }
        }
        NewRule::Bash(r) => {
            let list = section.entry("bash").or_insert_with(|| json!([]));
            if let Some(l) = list.as_array_mut() {
                let text = json!(r.text());
                if !l.contains(&text) {
                    l.push(text);
                }
            }
        }
        NewRule::Folder { tool, path } => {
            let folders = section.entry("folders").or_insert_with(|| json!({}));
            let list = folders
                .as_object_mut()
                .map(|f| f.entry(tool.as_str()).or_insert_with(|| json!([])));
            if let Some(l) = list.and_then(Value::as_array_mut) {
                let text = json!(path.to_string_lossy());
                if !l.contains(&text) {
                    l.push(text);
                }
            }
        }
        NewRule::Desktop(m) => {
            section.insert("desktop".into(), json!(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(s: &str) -> BashRule {
        BashRule::parse(s).unwrap()
    }

    #[test]
    fn an_exact_rule_matches_only_that_command() {
        let r = rule("git status");
        assert!(r.matches("git status"));
        assert!(r.matches("  git status\n"));
        for bad in [
            "git status; rm -rf ~",
            "git status && rm -rf ~",
            "git status -s",
            "git statusx",
            "git status\nrm -rf ~",
        ] {
            assert!(!r.matches(bad), "{bad}");
        }
    }

    #[test]
    fn a_prefix_rule_takes_plain_arguments_and_nothing_else() {
        let r = rule("cargo test *");
        assert_eq!(r, BashRule::Prefix(vec!["cargo".into(), "test".into()]));
        assert!(r.matches("cargo test"));
        assert!(r.matches("cargo test -p zot --test x"));
        for bad in [
            "cargo testx",
            "cargo build",
            "cargo test; rm -rf ~",
            "cargo test && rm -rf ~",
            "cargo test || rm -rf ~",
            "cargo test | sh",
            "cargo test & rm -rf ~",
            "cargo test $(rm -rf ~)",
            "cargo test `rm -rf ~`",
            "cargo test > ~/.bashrc",
            "cargo test < /etc/passwd",
            "cargo test (x)",
            "cargo test \\\nrm",
            "cargo test\nrm -rf ~",
            "cargo test\trm",
            "FOO=1 cargo test",
        ] {
            assert!(!r.matches(bad), "{bad:?}");
        }
    }

    #[test]
    fn unsafe_or_empty_rules_are_refused() {
        for bad in [
            "",
            "  ",
            "*",
            " *",
            "git;x *",
            "git $(x) *",
            "a * *",
            "cargo*",
        ] {
            assert!(BashRule::parse(bad).is_err(), "{bad:?}");
        }
        // Exact rules may hold shell syntax: they match only themselves.
        assert!(rule("make && make test").matches("make && make test"));
        assert!(!rule("make && make test").matches("make && make test; rm -rf ~"));
    }

    #[test]
    fn the_section_reads_and_names_the_broken_field() {
        let r = Rules::from_config(&json!({"approvals": {
            "desktop": "auto",
            "tools": {"write": "allow", "x": "deny"},
            "bash": ["ls *"]}}))
        .unwrap();
        assert_eq!(r.tools.get("x"), Some(&ToolRule::Deny));
        assert_eq!(r.desktop, Some(ApprovalMode::Auto));
        assert!(r.bash_allows("ls -la"));
        assert_eq!(Rules::from_config(&json!({})).unwrap(), Rules::default());
        let e =
            Rules::from_config(&json!({"approvals": {"tools": {"write": "alow"}}})).unwrap_err();
        assert!(
            e.contains("approvals.tools.write") && e.contains("alow"),
            "{e}"
        );
        let e = Rules::from_config(&json!({"approvals": {"bash": [3]}})).unwrap_err();
        assert!(e.contains("approvals.bash"), "{e}");
        let e = Rules::from_config(&json!({"approvals": []})).unwrap_err();
        assert!(e.contains("not an object"), "{e}");
    }

    #[test]
    fn extension_entries_read_and_a_typo_in_one_is_an_error() {
        let r = Rules::from_config(&json!({"approvals": {"extensions": {
            "web": {"tools": {"fetch": "allow"}, "trust_read_only": true},
            "other": {}}}}))
        .unwrap();
        assert_eq!(r.ext_tool("web", "fetch"), Some(ToolRule::Allow));
        assert_eq!(r.ext_tool("other", "fetch"), None);
        assert!(r.trusts_read_only("web") && !r.trusts_read_only("other"));
        for (bad, field) in [
            (
                json!({"web": {"tool": {"fetch": "deny"}}}),
                "approvals.extensions.web.tool",
            ),
            (
                json!({"web": {"tools": {"fetch": "nope"}}}),
                "approvals.extensions.web.tools.fetch",
            ),
            (
                json!({"web": {"trust_read_only": "yes"}}),
                "trust_read_only",
            ),
            (json!({"web": 1}), "approvals.extensions.web"),
            (json!([]), "approvals.extensions"),
        ] {
            let e = Rules::from_config(&json!({"approvals": {"extensions": bad}})).unwrap_err();
            assert!(e.contains(field), "{e}");
        }
    }

    #[test]
    fn an_extension_tool_is_remembered_under_its_extension() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.json"),
            r#"{"approvals":{"tools":{"fetch":"ask"},"extensions":{"web":{"trust_read_only":true}}}}"#,
        )
        .unwrap();
        let rule = |extension: &str, tool: &str| NewRule::ExtTool {
            extension: extension.into(),
            tool: tool.into(),
            rule: ToolRule::Allow,
        };
        remember(home.path(), &rule("web", "fetch")).unwrap();
        remember(home.path(), &rule("mail", "send")).unwrap();
        let r = load(home.path()).unwrap();
        assert_eq!(r.ext_tool("web", "fetch"), Some(ToolRule::Allow));
        assert_eq!(r.ext_tool("mail", "send"), Some(ToolRule::Allow));
        assert!(r.trusts_read_only("web"), "the entry's other settings stay");
        assert_eq!(
            r.tools.get("fetch"),
            Some(&ToolRule::Ask),
            "plain rules stay"
        );
    }

    #[test]
    fn remembering_keeps_the_rest_of_the_file_and_refuses_a_broken_one() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("config.json"), r#"{"theme":"light"}"#).unwrap();
        remember(home.path(), &NewRule::Bash(rule("git status"))).unwrap();
        remember(home.path(), &NewRule::Bash(rule("git status"))).unwrap();
        remember(home.path(), &NewRule::Tool("write".into(), ToolRule::Allow)).unwrap();
        let c: Value = serde_json::from_str(
            &std::fs::read_to_string(home.path().join("config.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(c["theme"], "light");
        assert_eq!(c["approvals"]["bash"], json!(["git status"]));
        assert_eq!(c["approvals"]["tools"]["write"], "allow");
        std::fs::write(home.path().join("config.json"), "{broken").unwrap();
        let e = remember(home.path(), &NewRule::Bash(rule("ls"))).unwrap_err();
        assert!(e.contains("not valid JSON"), "{e}");
        assert_eq!(
            std::fs::read_to_string(home.path().join("config.json")).unwrap(),
            "{broken"
        );
        assert!(load(home.path()).unwrap_err().contains("fix or remove"));
    }
}

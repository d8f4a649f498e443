//! Tool approvals (docs/rpc.md "Tool approvals"): the gate every tool call
//! passes after interception and before it runs. [`policy`] decides from
//! the rules in `config.json` ([`rules`]); a call that needs the user is
//! announced as `tool_approval` and waits in this module's table until
//! `approve_tool` answers it, the prompt is aborted, or forever (a turn
//! with an unanswered approval waits; nothing times it out). The table is
//! owned here: the backend only calls [`Approvals::answer`] and
//! [`Approvals::deny_all`].

pub mod policy;
pub mod project_path;
pub mod remembered;
pub mod rules;
pub mod scopes;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use serde_json::Value;
use tokio::sync::{mpsc::UnboundedSender, oneshot};
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::approvals::{ApprovalDecision, ApprovalMode, ApprovalScope, RememberedRule};
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::rpc_results::{ApprovalRulesResult, ApproveToolResult};
use zot_ext_protocol::RpcError;

use policy::{Call, Decision};
use rules::{BashRule, NewRule};
use scopes::Offer;

/// The most of a file's current text sent with a `write`/`edit` approval
/// for a diff; a bigger file is shown without one.
pub const MAX_BEFORE_BYTES: u64 = 256 * 1024;

/// How a waiting approval ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// The user allowed it.
    Allow,
    /// The user denied it.
    Deny,
    /// The prompt was aborted while it waited.
    Aborted,
}

/// One call waiting for the user.
struct Waiting {
    /// Wakes the waiting call.
    tx: oneshot::Sender<Answer>,
    /// The tool, for `rule` checks.
    tool: String,
    /// For bash: the command, which a `rule` must match.
    command: Option<String>,
    /// What "always allow" may write, narrowest first.
    offers: Vec<Offer>,
}

/// The approvals waiting, and those already settled (so a second answer
/// is told so rather than "unknown").
#[derive(Default)]
struct Table {
    /// Sequence for ids.
    next: u64,
    /// Waiting, by approval id.
    waiting: HashMap<String, Waiting>,
    /// Answered or aborted.
    settled: HashSet<String>,
}

/// One call as the agent hands it to the gate.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The tool call's id.
    pub call_id: &'a str,
    /// The tool.
    pub tool: &'a str,
    /// The arguments that will run.
    pub args: &'a Value,
    /// The owning extension, for extension tools.
    pub extension: Option<&'a str>,
    /// The tool's read-only claim (its extension's word for it).
    pub read_only: bool,
}

/// The gate: the mode, where the rules live, and the waiting table.
pub struct Approvals {
    /// `auto` or `ask`; the desktop settings change it at run time.
    mode: Mutex<ApprovalMode>,
    /// Whether anyone can answer (RPC and the desktop); print and JSON
    /// modes cannot, so what would be asked there is denied instead.
    can_ask: bool,
    /// `$ZOT_HOME`, whose `config.json` holds the rules.
    home: PathBuf,
    /// The project directory.
    cwd: PathBuf,
    /// Waiting and settled approvals.
    table: Mutex<Table>,
}

impl Approvals {
    /// A gate for one run.
    pub fn new(mode: ApprovalMode, can_ask: bool, home: PathBuf, cwd: PathBuf) -> Self {
        Approvals {
            mode: Mutex::new(mode),
            can_ask,
            home,
            cwd,
            table: Mutex::new(Table::default()),
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The mode now.
    pub fn mode(&self) -> ApprovalMode {
        *self.mode.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Uses `mode` from the next tool call on.
    pub fn set_mode(&self, mode: ApprovalMode) {
        *self.mode.lock().unwrap_or_else(|e| e.into_inner()) = mode;
    }

    /// Why the rules cannot be used, if they cannot (said once at start).
    pub fn problem(&self) -> Option<String> {
        rules::load(&self.home).err()
    }

    /// Lets the call run (`Ok`) or says why it must not (`Err`, the text
    /// of its error result). May wait for the user; an abort ends the
    /// wait with a denial.
    pub async fn check(
        &self,
        req: Request<'_>,
        events: &UnboundedSender<UiEvent>,
        cancel: &CancellationToken,
    ) -> Result<(), String> {
        let rules = rules::load(&self.home);
        let decision = policy::decide(
            self.mode(),
            &rules,
            Call {
                tool: req.tool,
                args: req.args,
                extension: req.extension,
                read_only: req.read_only,
                cwd: &self.cwd,
                home: &self.home,
            },
        );
        let reason = match decision {
            Decision::Allow => return Ok(()),
            Decision::Deny { reason } => {
                return Err(format!(
                    "denied: {reason}; the {} call did not run",
                    req.tool
                ))
            }
            Decision::Ask { reason } => reason,
        };
        if !self.can_ask {
            return Err(format!(
                "denied: the {} call needs approval ({reason}) and this mode cannot ask; allow it in $ZOT_HOME/config.json (approvals) or run with --approvals auto",
                req.tool
            ));
        }
        let offers = scopes::offered(&req, &self.cwd, &self.home);
        let remember = offers
            .first()
            .map(|o| o.choice.label.clone())
            .unwrap_or_default();
        let scopes = offers.iter().map(|o| o.choice.clone()).collect();
        let (tx, rx) = oneshot::channel();
        let id = {
            let mut t = self.table();
            t.next = t.next.saturating_add(1);
            let id = format!("approval-{}", t.next);
            t.waiting.insert(
                id.clone(),
                Waiting {
                    tx,
                    tool: req.tool.to_owned(),
                    command: (req.tool == "bash" && req.extension.is_none())
                        .then(|| policy::command(req.args).trim().to_owned()),
                    offers,
                },
            );
            id
        };
        let _ = events.send(UiEvent::ToolApproval {
            id: id.clone(),
            call_id: req.call_id.to_owned(),
            tool: req.tool.to_owned(),
            args: req.args.clone(),
            extension: req.extension.map(str::to_owned),
            read_only_claim: req.extension.is_some() && req.read_only,
            reason,
            remember,
            scopes,
            before: self.before(&req).await,
        });
        let answer = tokio::select! {
            a = rx => a.unwrap_or(Answer::Aborted),
            _ = cancel.cancelled() => Answer::Aborted,
        };
        {
            let mut t = self.table();
            t.waiting.remove(&id);
            t.settled.insert(id);
        }
        match answer {
            Answer::Allow => Ok(()),
            Answer::Deny => Err(format!(
                "denied by the user: the {} call did not run; do not retry it unchanged",
                req.tool
            )),
            Answer::Aborted => Err(format!(
                "denied: the prompt was aborted while the {} call waited for approval",
                req.tool
            )),
        }
    }

    /// Answers approval `id`. With `remember` (allow only), first writes
    /// the rule to `config.json`; when that fails the approval stays
    /// waiting and the error says why.
    pub fn answer(
        &self,
        id: &str,
        decision: ApprovalDecision,
        remember: bool,
        rule: Option<&str>,
        scope: Option<ApprovalScope>,
    ) -> Result<ApproveToolResult, RpcError> {
        let mut t = self.table();
        let Some(w) = t.waiting.get(id) else {
            return Err(RpcError::not_found(if t.settled.contains(id) {
                format!("approve_tool: approval {id} was already answered (or its prompt was aborted); each approval takes one answer")
            } else {
                format!(
                    "approve_tool: no approval has id {id:?}; use the id of a tool_approval event"
                )
            }));
        };
        if (rule.is_some() || scope.is_some()) && !remember {
            return Err(RpcError::invalid(
                "approve_tool: \"rule\" and \"scope\" need \"remember\": true",
            ));
        }
        let mut remembered = None;
        if remember {
            if decision != ApprovalDecision::Allow {
                return Err(RpcError::invalid("approve_tool: \"remember\" applies to \"allow\" only; to never run a tool, set approvals.tools.<name> to \"deny\" in config.json"));
            }
            let (new_rule, label) = match rule {
                None => chosen(w, scope).map_err(RpcError::invalid)?,
                Some(text) => custom_rule(w, text).map_err(RpcError::invalid)?,
            };
            rules::remember(&self.home, &new_rule)
                .map_err(|e| format!("approve_tool: cannot remember the rule: {e}; the call is still waiting (answer again without remember)"))?;
            remembered = Some(label);
        }
        if let Some(w) = t.waiting.remove(id) {
            let _ = w.tx.send(match decision {
                ApprovalDecision::Allow => Answer::Allow,
                ApprovalDecision::Deny => Answer::Deny,
            });
        }
        t.settled.insert(id.to_owned());
        Ok(ApproveToolResult {
            id: id.to_owned(),
            decision,
            remembered,
        })
    }

    /// Every rule remembered in `config.json`, in words.
    pub fn remembered(&self) -> ApprovalRulesResult {
        match rules::load(&self.home) {
            Ok(r) => ApprovalRulesResult {
                rules: remembered::list(&r),
                problem: None,
            },
            Err(e) => ApprovalRulesResult {
                rules: Vec::new(),
                problem: Some(e),
            },
        }
    }

    /// Forgets one remembered rule; answers the rules left.
    pub fn forget(&self, rule: &RememberedRule) -> Result<ApprovalRulesResult, RpcError> {
        remembered::forget(&self.home, rule)?;
        Ok(self.remembered())
    }

    /// Denies every waiting approval (an abort).
    pub fn deny_all(&self) {
        let mut t = self.table();
        let ids: Vec<String> = t.waiting.keys().cloned().collect();
        for id in ids {
            if let Some(w) = t.waiting.remove(&id) {
                let _ = w.tx.send(Answer::Aborted);
            }
            t.settled.insert(id);
        }
    }

    /// Approvals waiting now (for tests and state).
    pub fn waiting(&self) -> usize {
        self.table().waiting.len()
    }

    /// For `write`/`edit`: the target's current text, when it is a small
    /// regular text file, so the client can show a diff.
    async fn before(&self, req: &Request<'_>) -> Option<String> {
        if req.extension.is_some() || !matches!(req.tool, "write" | "edit") {
            return None;
        }
        let path = req.args.get("path").and_then(Value::as_str)?;
        let full = self.cwd.join(path);
        tokio::task::spawn_blocking(move || {
            let (file, len) = crate::tools::files::open_read(&full).ok()?;
            if len > MAX_BEFORE_BYTES {
                return None;
            }
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_BEFORE_BYTES), &mut buf)
                .ok()?;
            String::from_utf8(buf).ok()
        })
        .await
        .ok()
        .flatten()
    }
}

/// The offered scope `scope` (the narrowest when absent): its rule and
/// words.
fn chosen(w: &Waiting, scope: Option<ApprovalScope>) -> Result<(NewRule, String), String> {
    let offer = match scope {
        None => w.offers.first(),
        Some(s) => w.offers.iter().find(|o| o.choice.scope == s),
    };
    let Some(o) = offer else {
        let offered: Vec<String> = w
            .offers
            .iter()
            .map(|o| format!("{:?}", o.choice.scope).to_lowercase())
            .collect();
        return Err(if offered.is_empty() {
            format!(
                "approve_tool: this {} call can only be allowed once (it reaches zot's own state or the system's process views); answer without remember",
                w.tool
            )
        } else {
            format!(
                "approve_tool: scope {} is not offered for this call; it offers {}",
                scope
                    .map(|s| format!("{s:?}").to_lowercase())
                    .unwrap_or_default(),
                offered.join(", ")
            )
        });
    };
    Ok((o.rule.clone(), o.choice.label.clone()))
}

/// A client's own bash rule (`rule`): it must parse and match the command
/// being approved, so approving one command never remembers an unrelated
/// one.
fn custom_rule(w: &Waiting, text: &str) -> Result<(NewRule, String), String> {
    let Some(cmd) = &w.command else {
        return Err(format!(
            "approve_tool: \"rule\" is for bash calls; this is a {} call (remember without a rule allows the tool)",
            w.tool
        ));
    };
    let r = BashRule::parse(text).map_err(|e| format!("approve_tool: {e}"))?;
    if !r.matches(cmd) {
        return Err(format!(
            "approve_tool: rule {:?} does not match the command being approved ({cmd:?})",
            r.text()
        ));
    }
    let label = format!("bash commands matching \"{}\"", r.text());
    Ok((NewRule::Bash(r), label))
}

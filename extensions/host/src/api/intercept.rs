//! Interception: interceptors are asked one after another in load order;
//! the first block wins, rewrites chain (each sees the previous output),
//! and silence or any failure counts as allow so a broken extension never
//! stalls the agent.

use std::sync::Arc;

use serde_json::Value;
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::{EventFields, EventInterceptResponse, LifecycleEvent};

use crate::api::host::Host;
use crate::io::codec;
use crate::records::extension::{During, Ext, Reply};

/// The outcome of `turn_start` interception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Go ahead.
    Allow,
    /// Refused; `reason` is shown to the user.
    Block {
        /// Who blocked.
        extension: String,
        /// Why.
        reason: String,
    },
}

/// The outcome of `tool_call` interception.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCallVerdict {
    /// Run the tool with these (possibly rewritten) args.
    Allow {
        /// The args after every rewrite.
        args: Value,
    },
    /// Refused; `reason` is the tool error the model sees.
    Block {
        /// Who blocked.
        extension: String,
        /// Why.
        reason: String,
    },
}

/// The outcome of `assistant_message` interception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextVerdict {
    /// Show this (possibly replaced) text.
    Show {
        /// The user-visible text.
        text: String,
    },
    /// Suppress the message; `reason` is shown to the user.
    Block {
        /// Who blocked.
        extension: String,
        /// Why.
        reason: String,
    },
}

impl Host {
    /// Extensions intercepting `event`, in load order.
    fn interceptors(&self, event: LifecycleEvent) -> Vec<Arc<Ext>> {
        let exts = self.inner.lock().exts.clone();
        exts.into_iter()
            .filter(|e| {
                let m = e.lock();
                m.state == Some(ExtState::Ready) && m.intercepts.contains(&event)
            })
            .collect()
    }

    /// Asks one interceptor; `None` (allow) on timeout or failure. The
    /// fields are borrowed: a chain rewrites them in place rather than
    /// cloning the args for every interceptor.
    async fn ask(
        &self,
        ext: &Ext,
        event: LifecycleEvent,
        fields: &EventFields,
    ) -> Option<EventInterceptResponse> {
        // An interception in flight is a use: `idle_stop_after` waits for it.
        let _in_use = ext.uses.begin();
        let res = ext
            .request(
                During::Intercept(event),
                self.inner.cfg.intercept_timeout,
                |id| codec::event_intercept_line(id, event, fields),
            )
            .await;
        match res {
            Ok(Reply::Intercept(r)) => Some(r),
            Ok(_) => None,
            Err(e) => {
                ext.log.line(&format!("{e}; treated as allow"));
                None
            }
        }
    }

    /// Lets interceptors block a model step before it starts.
    pub async fn intercept_turn_start(&self, step: u32) -> Verdict {
        for ext in self.interceptors(LifecycleEvent::TurnStart) {
            let fields = EventFields {
                step: Some(step),
                ..Default::default()
            };
            if let Some(r) = self.ask(&ext, LifecycleEvent::TurnStart, &fields).await {
                if r.block {
                    return Verdict::Block {
                        reason: reason(&ext, r.reason),
                        extension: ext.name.clone(),
                    };
                }
            }
        }
        Verdict::Allow
    }

    /// Lets interceptors block a tool call or rewrite its args.
    pub async fn intercept_tool_call(
        &self,
        tool_id: &str,
        name: &str,
        args: Value,
    ) -> ToolCallVerdict {
        let mut fields = EventFields {
            tool_id: Some(tool_id.to_owned()),
            tool_name: Some(name.to_owned()),
            tool_args: Some(args),
            ..Default::default()
        };
        for ext in self.interceptors(LifecycleEvent::ToolCall) {
            let Some(r) = self.ask(&ext, LifecycleEvent::ToolCall, &fields).await else {
                continue;
            };
            if r.block {
                return ToolCallVerdict::Block {
                    reason: reason(&ext, r.reason),
                    extension: ext.name.clone(),
                };
            }
            match r.modified_args {
                Some(v @ Value::Object(_)) => fields.tool_args = Some(v),
                Some(other) => ext.log.line(&format!(
                    "modified_args for tool '{name}' is not a JSON object ({}); ignored",
                    crate::io::ext_log::excerpt(other.to_string().as_bytes())
                )),
                None => {}
            }
        }
        ToolCallVerdict::Allow {
            args: fields.tool_args.unwrap_or_default(),
        }
    }

    /// Lets interceptors suppress or rewrite the assistant's visible text.
    pub async fn intercept_assistant_message(&self, text: &str) -> TextVerdict {
        let mut fields = EventFields {
            text: Some(text.to_owned()),
            ..Default::default()
        };
        for ext in self.interceptors(LifecycleEvent::AssistantMessage) {
            let Some(r) = self
                .ask(&ext, LifecycleEvent::AssistantMessage, &fields)
                .await
            else {
                continue;
            };
            if r.block {
                return TextVerdict::Block {
                    reason: reason(&ext, r.reason),
                    extension: ext.name.clone(),
                };
            }
            if let Some(t) = r.replace_text {
                fields.text = Some(t);
            }
        }
        TextVerdict::Show {
            text: fields.text.unwrap_or_default(),
        }
    }
}

fn reason(ext: &Ext, reason: Option<String>) -> String {
    match reason {
        Some(r) if !r.trim().is_empty() => r,
        _ => format!("blocked by extension '{}'", ext.name),
    }
}

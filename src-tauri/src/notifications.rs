//! Which backend events become an OS notification, and what it says. A user
//! who switched to another window while zot works wants to hear when the
//! answer is ready, when a tool call waits for them, or when an extension
//! died; nothing else, and only the kinds they turned on in Settings.
//! Pure logic over `UiEvent`, so it is tested without a window; the desktop
//! glue (`desktop::notify`) supplies the focus state and shows the result.

use zot_ext_protocol::desktop::NotificationSettings;
use zot_ext_protocol::rpc::{StopReason, UiEvent};

/// A notification body longer than this is cut: daemons show a few lines,
/// and an extension's error can carry a long log path or stderr tail.
const MAX_BODY_CHARS: usize = 200;

/// The kinds a user turns on and off one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A prompt's turn finished.
    TurnEnd,
    /// A tool call waits for approval.
    Approval,
    /// An extension crashed or failed to start.
    ExtensionCrash,
}

impl Kind {
    /// The kind `ev` would notify as, before any text is built: the bridge
    /// asks this of every event, so it must stay cheap. `None` for events
    /// that never notify: streaming text, a step that ends in tool calls
    /// (the turn goes on), and a turn the user stopped themselves.
    pub fn of(ev: &UiEvent) -> Option<Kind> {
        match ev {
            UiEvent::TurnEnd { stop, .. } => match stop {
                StopReason::ToolUse | StopReason::Aborted => None,
                StopReason::EndTurn
                | StopReason::Length
                | StopReason::Error
                | StopReason::Blocked => Some(Kind::TurnEnd),
            },
            UiEvent::ToolApproval { .. } => Some(Kind::Approval),
            UiEvent::ExtError { .. } => Some(Kind::ExtensionCrash),
            _ => None,
        }
    }

    /// Whether the user turned this kind on.
    pub fn enabled(self, settings: &NotificationSettings) -> bool {
        match self {
            Kind::TurnEnd => settings.turn_end,
            Kind::Approval => settings.approval,
            Kind::ExtensionCrash => settings.extension_crash,
        }
    }
}

/// One notification to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Which setting allowed it.
    pub kind: Kind,
    /// The headline: what happened, and in which project (a user may run
    /// a window per project).
    pub title: String,
    /// The detail, plain text, at most [`MAX_BODY_CHARS`] characters.
    pub body: String,
}

/// Whether a notification of `kind` is due: the user turned the kind on
/// and is looking elsewhere (when the window is in front they see the
/// event there). `window_focused` is asked only for a kind that is on, so
/// the usual case (all off) never queries the window.
pub fn due(
    kind: Kind,
    settings: &NotificationSettings,
    window_focused: impl FnOnce() -> bool,
) -> bool {
    kind.enabled(settings) && !window_focused()
}

/// The notification for `ev` in the project named `project`, if `ev` is
/// one that notifies at all (see [`Kind::of`]).
pub fn notice(ev: &UiEvent, project: &str) -> Option<Notice> {
    let kind = Kind::of(ev)?;
    let (what, body) = match ev {
        UiEvent::TurnEnd { stop, error } => turn_end(*stop, error.as_deref()),
        UiEvent::ToolApproval {
            tool,
            extension,
            reason,
            ..
        } => {
            let tool = match extension {
                Some(ext) => format!("'{tool}' (extension '{ext}')"),
                None => format!("'{tool}'"),
            };
            (
                "Approval needed".to_owned(),
                format!("zot wants to run {tool}: {reason}"),
            )
        }
        UiEvent::ExtError {
            extension,
            message,
            exit_status,
            ..
        } => {
            // An exit status means it ran and died; without one it never
            // started (a load error) or broke the protocol.
            let verb = if exit_status.is_some() {
                "crashed"
            } else {
                "failed"
            };
            (format!("Extension '{extension}' {verb}"), message.clone())
        }
        _ => return None,
    };
    Some(Notice {
        kind,
        title: format!("{what} — {project}"),
        body: shorten(&body),
    })
}

/// The headline and detail of a finished turn, by how it ended.
fn turn_end(stop: StopReason, error: Option<&str>) -> (String, String) {
    match stop {
        StopReason::Length => (
            "Turn stopped".to_owned(),
            "The model reached its output limit; ask it to continue.".to_owned(),
        ),
        StopReason::Error => (
            "Turn failed".to_owned(),
            error.unwrap_or("The prompt failed.").to_owned(),
        ),
        StopReason::Blocked => (
            "Turn blocked".to_owned(),
            error.unwrap_or("An extension blocked the turn.").to_owned(),
        ),
        _ => ("Turn finished".to_owned(), "zot has answered.".to_owned()),
    }
}

/// Cuts `text` to [`MAX_BODY_CHARS`] characters (never inside a UTF-8
/// sequence) with an ellipsis, and folds line breaks into spaces.
fn shorten(text: &str) -> String {
    let flat: String = text
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= MAX_BODY_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(MAX_BODY_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// `text` with `&`, `<` and `>` escaped, for freedesktop notification
/// daemons, which read the body as a small markup language: a model's tool
/// arguments or an extension's error must show as text, never as a tag
/// (an `<img src=…>` would make the daemon load a file or URL).
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn all_on() -> NotificationSettings {
        NotificationSettings {
            turn_end: true,
            approval: true,
            extension_crash: true,
        }
    }

    fn turn_end(stop: StopReason) -> UiEvent {
        UiEvent::TurnEnd { stop, error: None }
    }

    fn approval(extension: Option<&str>) -> UiEvent {
        UiEvent::ToolApproval {
            id: "a1".into(),
            call_id: "c1".into(),
            tool: "bash".into(),
            args: json!({"command": "rm -rf build"}),
            extension: extension.map(Into::into),
            read_only_claim: false,
            reason: "it runs a command".into(),
            remember: "bash command \"rm -rf build\"".into(),
            scopes: Vec::new(),
            before: None,
        }
    }

    fn ext_error(exit_status: Option<&str>) -> UiEvent {
        UiEvent::ExtError {
            extension: "todo".into(),
            message: "extension 'todo' exited with status 3; see /tmp/todo.log".into(),
            log_path: "/tmp/todo.log".into(),
            exit_status: exit_status.map(Into::into),
        }
    }

    #[test]
    fn each_kind_maps_from_its_event() {
        assert_eq!(
            Kind::of(&turn_end(StopReason::EndTurn)),
            Some(Kind::TurnEnd)
        );
        assert_eq!(Kind::of(&approval(None)), Some(Kind::Approval));
        assert_eq!(
            Kind::of(&ext_error(Some("status 3"))),
            Some(Kind::ExtensionCrash)
        );
        assert_eq!(Kind::of(&ext_error(None)), Some(Kind::ExtensionCrash));
    }

    #[test]
    fn a_step_ending_in_tool_calls_or_a_stop_by_the_user_does_not_notify() {
        assert_eq!(Kind::of(&turn_end(StopReason::ToolUse)), None);
        assert_eq!(Kind::of(&turn_end(StopReason::Aborted)), None);
        assert_eq!(notice(&turn_end(StopReason::ToolUse), "p"), None);
    }

    #[test]
    fn every_way_a_turn_ends_for_good_notifies() {
        for stop in [
            StopReason::EndTurn,
            StopReason::Length,
            StopReason::Error,
            StopReason::Blocked,
        ] {
            assert_eq!(Kind::of(&turn_end(stop)), Some(Kind::TurnEnd), "{stop:?}");
        }
    }

    #[test]
    fn other_events_never_notify() {
        for ev in [
            UiEvent::Ready {},
            UiEvent::Done {},
            UiEvent::TextDelta { delta: "hi".into() },
            UiEvent::Error {
                message: "x".into(),
            },
            UiEvent::AssistantMessage {
                content: "done".into(),
            },
        ] {
            assert_eq!(Kind::of(&ev), None, "{ev:?}");
            assert_eq!(notice(&ev, "p"), None, "{ev:?}");
        }
    }

    #[test]
    fn every_kind_is_off_by_default() {
        let off = NotificationSettings::default();
        for kind in [Kind::TurnEnd, Kind::Approval, Kind::ExtensionCrash] {
            assert!(!kind.enabled(&off), "{kind:?}");
            assert!(
                !due(kind, &off, || panic!(
                    "asked for focus although {kind:?} is off"
                )),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn each_setting_turns_on_only_its_own_kind() {
        let only = |turn_end, approval, extension_crash| NotificationSettings {
            turn_end,
            approval,
            extension_crash,
        };
        let turn = only(true, false, false);
        assert!(Kind::TurnEnd.enabled(&turn));
        assert!(!Kind::Approval.enabled(&turn) && !Kind::ExtensionCrash.enabled(&turn));
        let appr = only(false, true, false);
        assert!(Kind::Approval.enabled(&appr));
        assert!(!Kind::TurnEnd.enabled(&appr) && !Kind::ExtensionCrash.enabled(&appr));
        let crash = only(false, false, true);
        assert!(Kind::ExtensionCrash.enabled(&crash));
        assert!(!Kind::TurnEnd.enabled(&crash) && !Kind::Approval.enabled(&crash));
    }

    #[test]
    fn a_focused_window_never_notifies() {
        for kind in [Kind::TurnEnd, Kind::Approval, Kind::ExtensionCrash] {
            assert!(!due(kind, &all_on(), || true), "{kind:?}");
            assert!(due(kind, &all_on(), || false), "{kind:?}");
        }
    }

    #[test]
    fn a_finished_turn_names_the_project() {
        let n = notice(&turn_end(StopReason::EndTurn), "webshop").unwrap();
        assert_eq!(n.kind, Kind::TurnEnd);
        assert_eq!(n.title, "Turn finished — webshop");
        assert_eq!(n.body, "zot has answered.");
        let failed = notice(
            &UiEvent::TurnEnd {
                stop: StopReason::Error,
                error: Some("provider said 529 overloaded".into()),
            },
            "webshop",
        )
        .unwrap();
        assert_eq!(failed.title, "Turn failed — webshop");
        assert_eq!(failed.body, "provider said 529 overloaded");
        let long = notice(&turn_end(StopReason::Length), "webshop").unwrap();
        assert_eq!(long.title, "Turn stopped — webshop");
    }

    #[test]
    fn an_approval_names_the_tool_its_extension_and_why() {
        let n = notice(&approval(None), "webshop").unwrap();
        assert_eq!(n.kind, Kind::Approval);
        assert_eq!(n.title, "Approval needed — webshop");
        assert_eq!(n.body, "zot wants to run 'bash': it runs a command");
        let ext = notice(&approval(Some("deploy")), "webshop").unwrap();
        assert_eq!(
            ext.body,
            "zot wants to run 'bash' (extension 'deploy'): it runs a command"
        );
    }

    #[test]
    fn an_extension_error_names_the_extension_and_says_crashed_or_failed() {
        let crashed = notice(&ext_error(Some("status 3")), "webshop").unwrap();
        assert_eq!(crashed.kind, Kind::ExtensionCrash);
        assert_eq!(crashed.title, "Extension 'todo' crashed — webshop");
        assert!(
            crashed.body.contains("exited with status 3"),
            "{}",
            crashed.body
        );
        let failed = notice(&ext_error(None), "webshop").unwrap();
        assert_eq!(failed.title, "Extension 'todo' failed — webshop");
    }

    #[test]
    fn a_long_or_multiline_body_is_cut_on_a_character_boundary() {
        let ev = UiEvent::ExtError {
            extension: "todo".into(),
            message: format!("first line\nsecond {}", "é".repeat(400)),
            log_path: String::new(),
            exit_status: None,
        };
        let n = notice(&ev, "p").unwrap();
        assert_eq!(n.body.chars().count(), MAX_BODY_CHARS);
        assert!(n.body.starts_with("first line second é"), "{}", n.body);
        assert!(n.body.ends_with('…'));
        assert!(!n.body.contains('\n'));
    }

    #[test]
    fn markup_in_a_body_is_escaped_for_freedesktop_daemons() {
        assert_eq!(
            escape_markup("<img src=x> & <b>"),
            "&lt;img src=x&gt; &amp; &lt;b&gt;"
        );
        assert_eq!(escape_markup("plain — text"), "plain — text");
    }
}

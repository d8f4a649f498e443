//! The plain-Node clock example through the real host.

use zot_examples_tests::{example_dir, Harness};
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{CommandAction, NoteLevel};

#[tokio::test]
async fn clock_shows_the_time_and_rejects_unknown_zones() {
    let h = Harness::start(&[example_dir("clock")]).await;
    let r = h
        .host
        .invoke_command("clock", "UTC")
        .await
        .unwrap()
        .response;
    assert_eq!(r.action, Some(CommandAction::Display));
    assert!(r.display.as_deref().unwrap().contains("UTC"), "{r:?}");
    let r = h
        .host
        .invoke_command("clock", "Mars/Olympus")
        .await
        .unwrap()
        .response;
    assert!(
        r.error.as_deref().unwrap().contains("unknown time zone"),
        "{r:?}"
    );
    h.host.shutdown().await;
}

#[tokio::test]
async fn a_timer_notifies_when_it_is_done() {
    let mut h = Harness::start(&[example_dir("clock")]).await;
    let r = h.host.invoke_command("timer", "1").await.unwrap().response;
    assert_eq!(r.action, Some(CommandAction::Noop));
    let done = h
        .ui(|e| {
            matches!(
                e,
                UiEvent::ExtNotify {
                    style: NoteLevel::Success,
                    ..
                }
            )
        })
        .await;
    let UiEvent::ExtNotify {
        extension, message, ..
    } = done
    else {
        unreachable!()
    };
    assert_eq!(
        (extension.as_str(), message.as_str()),
        ("clock", "⏰ 1 s timer done")
    );
    let r = h
        .host
        .invoke_command("timer", "soon")
        .await
        .unwrap()
        .response;
    assert!(r.error.is_some());
    h.host.shutdown().await;
}

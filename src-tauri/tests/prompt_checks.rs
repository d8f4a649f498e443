//! A prompt is judged by one backend step, whichever door it came in by:
//! the window's (`Backend::handle`, as the page's `rpc` command calls it)
//! refuses exactly what RPC mode refuses (`Backend::accept_prompt`, whose
//! refusals `rpc_protocol.rs` checks on the wire), with the same code and
//! message, and queues nothing; an accepted prompt runs only once `run`.

use crate::in_process;

use base64::Engine;
use in_process::{options, until};
use zot_ext_protocol::prompt_images::PROMPT_IMAGES_MAX;
use zot_ext_protocol::rpc::{ImageInput, RpcCommand, UiEvent};
use zot_ext_protocol::ErrorCode;
use zot_lib::backend::Backend;
use zot_test_support::fake_llm::*;

fn image(mime_type: &str, data: &str) -> ImageInput {
    ImageInput {
        mime_type: mime_type.into(),
        data: data.into(),
    }
}

#[tokio::test]
async fn the_window_refuses_the_prompts_rpc_mode_refuses_with_the_same_error() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["seen"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (b, mut rx) = Backend::start(options(home.path(), cwd.path(), &s.url))
        .await
        .unwrap();
    b.wait_ready().await;
    let png = "iVBORw==";
    let big = base64::engine::general_purpose::STANDARD.encode(vec![0u8; 5 * 1024 * 1024 + 1]);
    let bad = [
        ("not base64", vec![image("image/png", "not base64!")]),
        ("a type no provider takes", vec![image("image/tiff", png)]),
        ("too big", vec![image("image/png", &big)]),
        (
            "too many",
            vec![image("image/png", png); PROMPT_IMAGES_MAX + 1],
        ),
    ];
    for (why, images) in bad {
        let Err(rpc) = b.accept_prompt("what?".into(), images.clone()) else {
            panic!("{why}: RPC mode's step accepted it");
        };
        let window = b
            .handle(RpcCommand::Prompt {
                message: "what?".into(),
                images,
            })
            .await
            .unwrap_err();
        assert_eq!(window, rpc, "{why}");
        assert_eq!(window.code, ErrorCode::Invalid, "{why}");
        assert!(
            window.message.starts_with("prompt: "),
            "{why}: {}",
            window.message
        );
    }
    assert!(!b.busy(), "a refused prompt was queued");
    assert!(
        s.requests().is_empty(),
        "a refused prompt reached the model"
    );

    // Accepted: nothing runs until `run` (RPC mode answers in between).
    let p = b
        .accept_prompt("what?".into(), vec![image("image/png", png)])
        .unwrap();
    assert!(p.answer().started);
    assert!(!b.busy());
    p.run();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;
    assert!(
        evs.iter()
            .any(|e| matches!(e, UiEvent::AssistantMessage { content } if content == "seen")),
        "{evs:#?}"
    );
    assert_eq!(s.requests().len(), 1);
    b.shutdown().await;
}

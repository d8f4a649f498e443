//! The hello example through the real host: its commands, including the
//! one registered in `on_hello`, answer as documented.

use zot_examples_tests::{copy_with_binary, Harness};
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::CommandAction;

#[tokio::test]
async fn hello_registers_its_commands_and_answers_them() {
    // Building this test built the binary; it ships next to the manifest,
    // as installed, because the sandbox does not show target/.
    let copy = copy_with_binary(
        "hello",
        std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-hello")),
    );
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    // `on_use`: listed from `contributes`, not started until a command runs.
    assert_eq!(h.host.list()[0].state, ExtState::Idle);
    let names: Vec<String> = h.host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["hello", "shout", "cwd", "model-info"]);

    let r = h.host.invoke_command("hello", "").await.unwrap().response;
    assert_eq!(r.action, Some(CommandAction::Prompt));
    assert_eq!(r.prompt.as_deref(), Some("Greet me in one short sentence."));

    let r = h
        .host
        .invoke_command("/SHOUT", "quiet please")
        .await
        .unwrap()
        .response;
    assert_eq!(r.display.as_deref(), Some("QUIET PLEASE"));
    let r = h.host.invoke_command("shout", "").await.unwrap().response;
    assert_eq!(r.error.as_deref(), Some("usage: /shout <text>"));

    // Registered in on_hello from hello_ack's cwd.
    let r = h.host.invoke_command("cwd", "").await.unwrap().response;
    assert_eq!(
        r.display.as_deref(),
        Some(h.project.path().to_str().unwrap())
    );
    let r = h
        .host
        .invoke_command("model-info", "")
        .await
        .unwrap()
        .response;
    assert_eq!(r.display.as_deref(), Some("anthropic / test-model"));
    // What it registered is what its manifest declares.
    assert_eq!(h.host.list()[0].state, ExtState::Ready);
    let log = h.log("hello");
    assert!(!log.contains("differ from contributes"), "{log}");
    h.host.shutdown().await;
}

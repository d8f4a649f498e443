//! The hello example through the real host: its commands, including the
//! one registered in `on_hello`, answer as documented.

use zot_examples_tests::{example_dir, Harness};
use zot_ext_protocol::CommandAction;

#[tokio::test]
async fn hello_registers_its_commands_and_answers_them() {
    // Building this test built the binary the launcher starts.
    assert!(std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-hello")).exists());
    let h = Harness::start(&[example_dir("hello")]).await;
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
    h.host.shutdown().await;
}

//! The spec's raw Python quick start, unchanged, through the real host.

use zot_examples_tests::{example_dir, Harness};
use zot_ext_protocol::CommandAction;

#[tokio::test]
async fn the_quick_start_registers_hellopy_and_prompts() {
    let h = Harness::start(&[example_dir("hello-py")]).await;
    let names: Vec<String> = h.host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["hellopy"]);
    let r = h.host.invoke_command("hellopy", "").await.unwrap().response;
    assert_eq!(r.action, Some(CommandAction::Prompt));
    assert_eq!(
        r.prompt.as_deref(),
        Some("Greet me very briefly in one sentence.")
    );
    h.host.shutdown().await;
}

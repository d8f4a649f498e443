//! The test-support crate's modules depend on each other one way only: the
//! fake model, fixtures, probes and the generator at the bottom, the
//! binary's drivers (`rpc`, `cli`) above them. This reads every `crate::`
//! path in `src/` through `dev/module-graph` and fails, naming the loop, if
//! any module reaches one that reaches it back.

use std::path::Path;

#[test]
fn test_support_modules_form_no_cycle() {
    let g = module_graph::rust_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(g.contains_key("rpc") && g.contains_key("fake_llm"), "{g:?}");
    module_graph::assert_no_cycle("test-support", &g);
}

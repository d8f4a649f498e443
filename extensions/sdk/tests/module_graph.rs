//! The Rust SDK's modules depend on each other one way only: the runtime
//! drives an extension, and dispatch answers one frame. This reads every
//! `crate::` path in `src/` through `dev/module-graph` and fails, naming the
//! loop, if any module reaches one that reaches it back.

use std::path::Path;

#[test]
fn sdk_modules_form_no_cycle() {
    let g = module_graph::rust_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        g.contains_key("runtime") && g.contains_key("dispatch"),
        "{g:?}"
    );
    module_graph::assert_no_cycle("Rust SDK", &g);
}

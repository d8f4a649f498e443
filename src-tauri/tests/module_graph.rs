//! The app crate's modules depend on each other one way only
//! (docs/architecture.md "Inside the app crate" draws the layers). This reads
//! every `crate::` path in `src/` through `dev/module-graph` and fails,
//! naming the loop, if any module reaches one that reaches it back.

use std::path::Path;

#[test]
fn app_modules_form_no_cycle() {
    let g = module_graph::rust_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        g.contains_key("agent") && g.contains_key("backend"),
        "{g:?}"
    );
    module_graph::assert_no_cycle("app (src-tauri)", &g);
}

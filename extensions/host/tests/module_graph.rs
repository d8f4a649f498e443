//! The host's modules depend on each other one way only (docs/architecture.md
//! draws the layers). This reads every `crate::` path in `src/` and fails,
//! naming the loop, if any module reaches one that reaches it back, however
//! many steps around: a cycle is how one shared bag of state crept in before.
//! The reading of the sources is `dev/module-graph`, shared by every crate.

use std::collections::BTreeSet;
use std::path::Path;

use module_graph::{assert_no_cycle, Graph};

fn graph() -> Graph {
    module_graph::rust_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn host_modules_form_no_cycle() {
    let g = graph();
    assert!(g.contains_key("host") && g.contains_key("state"), "{g:?}");
    assert_no_cycle("host", &g);
}

#[test]
fn the_leaves_stay_leaves() {
    let g = graph();
    for leaf in ["events", "ext_id", "panel_table", "deadlines", "uses"] {
        let deps = &g[leaf];
        let allowed: BTreeSet<String> = ["ext_id".to_owned()].into();
        assert!(
            deps.is_subset(&allowed),
            "{leaf} must not depend on other host modules, but uses {deps:?}"
        );
    }
    // Nothing below the handle reaches up to it.
    for low in [
        "state",
        "extension",
        "router",
        "supervisor",
        "panels",
        "shutdown",
        "load",
    ] {
        assert!(!g[low].contains("host"), "{low} imports host: {:?}", g[low]);
    }
}

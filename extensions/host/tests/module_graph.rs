//! The host's modules depend on each other one way only (docs/architecture.md
//! draws the layers). This reads every `crate::` path in `src/` and fails,
//! naming the loop, if any module reaches one that reaches it back, however
//! many steps around: a cycle is how one shared bag of state crept in before.
//! The layers are folders (`src/run/`, `src/owner/`, …); each module in
//! them is its own node (`run::router`), so the check is per module.
//! The reading of the sources is `dev/module-graph`, shared by every crate.

use std::collections::BTreeSet;
use std::path::Path;

use module_graph::{assert_no_cycle, Graph};

/// The folders of `src/`, one per layer of docs/architecture.md's picture.
const LAYERS: [&str; 8] = [
    "api", "run", "owner", "records", "io", "policy", "settings", "manage",
];

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_graph::rust_crate_layered(&src, &LAYERS)
}

#[test]
fn host_modules_form_no_cycle() {
    let g = graph();
    assert!(
        g.contains_key("api::host") && g.contains_key("owner::state"),
        "{g:?}"
    );
    assert_no_cycle("host", &g);
}

#[test]
fn every_layer_is_a_folder_of_the_picture() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let picture = std::fs::read_to_string(src.join("../../../docs/architecture.md")).unwrap();
    for layer in LAYERS {
        assert!(src.join(layer).is_dir(), "src/{layer}/ is missing");
        assert!(
            picture.contains(&format!("extensions/host/src/{layer}/")),
            "docs/architecture.md does not draw the layer {layer}/"
        );
    }
}

#[test]
fn the_leaves_stay_leaves() {
    let g = graph();
    for leaf in [
        "owner::events",
        "records::ext_id",
        "records::panel_table",
        "owner::deadlines",
        "records::uses",
    ] {
        let deps = &g[leaf];
        let allowed: BTreeSet<String> = ["records::ext_id".to_owned()].into();
        assert!(
            deps.is_subset(&allowed),
            "{leaf} must not depend on other host modules, but uses {deps:?}"
        );
    }
    // Nothing below the handle reaches up to it.
    for low in [
        "owner::state",
        "records::extension",
        "run::router",
        "run::supervisor",
        "run::panels",
        "run::shutdown",
        "run::load",
    ] {
        assert!(
            !g[low].contains("api::host"),
            "{low} imports host: {:?}",
            g[low]
        );
    }
}

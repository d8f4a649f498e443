//! A bare Tauri window showing a static page and nothing else: no commands,
//! no plugins, no backend. `make bench-ui` builds it in release beside zot
//! and measures its start-up and memory as the floor zot is compared with.

fn main() {
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("failed to run the bare window");
}

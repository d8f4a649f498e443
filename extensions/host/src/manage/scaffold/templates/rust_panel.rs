    use std::sync::atomic::{AtomicI64, Ordering};
    use std::sync::Mutex;
    use zot_ext::protocol::{MouseAction, PanelKey, PanelSpec};
    static COUNT: AtomicI64 = AtomicI64::new(0);
    static CLICKED: Mutex<String> = Mutex::new(String::new());
    static SIZE: Mutex<String> = Mutex::new(String::new());
    fn panel() -> PanelSpec {
        let clicked = CLICKED.lock().unwrap().clone();
        let size = SIZE.lock().unwrap().clone();
        PanelSpec {
            id: "{{name}}-panel".into(),
            title: Some("{{name}}".into()),
            lines: vec![
                format!("count: {}", COUNT.load(Ordering::Relaxed)),
                String::new(),
                "press + or - (or turn the wheel) to change it".into(),
                format!("last click: {}", if clicked.is_empty() { "nothing yet" } else { &clicked }),
                format!("panel size: {}", if size.is_empty() { "not told yet" } else { &size }),
            ],
            footer: Some("+/- count · wheel · click · esc close".into()),
            ..Default::default()
        }
    }
    ext.command("{{name}}-panel", "open the {{name}} panel", |_ctx, _args| Response::open_panel(panel()))
        .on_panel_key(|ctx, k| {
            if k.key == PanelKey::Esc {
                ctx.close_panel(k.panel_id.clone());
                return;
            }
            match (k.key, k.text.as_deref()) {
                (PanelKey::Rune, Some("+")) => { COUNT.fetch_add(1, Ordering::Relaxed); }
                (PanelKey::Rune, Some("-")) => { COUNT.fetch_sub(1, Ordering::Relaxed); }
                _ => {}
            }
            ctx.render_panel(panel());
        })
        // Registering these declares `panel_mouse` and `panel_resize`.
        .on_panel_mouse(|ctx, m| {
            match (m.action, m.delta) {
                // Wheel up counts up.
                (MouseAction::Wheel, Some(d)) => { COUNT.fetch_sub(i64::from(d), Ordering::Relaxed); }
                (a, _) => {
                    let what = match a {
                        MouseAction::DoubleClick => "double_click",
                        MouseAction::Context => "context",
                        _ => "click",
                    };
                    *CLICKED.lock().unwrap() = format!("{what} on line {}, character {}", m.row.unwrap_or(0), m.col.unwrap_or(0));
                }
            }
            ctx.render_panel(panel());
        })
        .on_panel_resize(|ctx, r| {
            *SIZE.lock().unwrap() = format!("{} x {} cells", r.cols, r.rows);
            ctx.render_panel(panel());
        });

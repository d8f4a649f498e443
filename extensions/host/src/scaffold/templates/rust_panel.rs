    use std::sync::atomic::{AtomicI64, Ordering};
    use zot_ext::protocol::{PanelKey, PanelSpec};
    static COUNT: AtomicI64 = AtomicI64::new(0);
    fn panel() -> PanelSpec {
        PanelSpec {
            id: "{{name}}-panel".into(),
            title: Some("{{name}}".into()),
            lines: vec![format!("count: {}", COUNT.load(Ordering::Relaxed)), String::new(), "press + or - to change it".into()],
            footer: Some("+/- count · esc close".into()),
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
        });

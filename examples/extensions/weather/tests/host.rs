//! The weather example through the real host: the tool answers from its
//! offline data, rejects unknown cities, and its first answer activates the
//! deferred forecast tool; the slow history tool reports progress and stops
//! when cancelled.

use serde_json::json;
use zot_examples_tests::{copy_with_binary, Harness};
use zot_ext_protocol::ContentBlock;

fn text(c: &[ContentBlock]) -> String {
    match &c[0] {
        ContentBlock::Text { text } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn weather_answers_offline_and_activates_the_forecast() {
    // Building this test built the binary; it ships next to the manifest,
    // as installed, because the sandbox does not show target/.
    let copy = copy_with_binary(
        "weather",
        std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-weather")),
    );
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let tools: Vec<String> = h.host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(
        tools,
        ["weather", "weather_history"],
        "the forecast is deferred until activated"
    );

    let r = h
        .host
        .call_tool("weather", json!({"city":"berlin"}))
        .await
        .unwrap();
    assert!(!r.is_error);
    assert_eq!(text(&r.content), "Berlin: 16°C, fog");
    assert_eq!(r.activated, ["weather_forecast"]);
    let tools: Vec<String> = h.host.tools().into_iter().map(|t| t.name).collect();
    assert!(tools.contains(&"weather_forecast".to_owned()), "{tools:?}");

    let r = h
        .host
        .call_tool("weather_forecast", json!({"city":"Oslo"}))
        .await
        .unwrap();
    assert_eq!(
        text(&r.content),
        "day 1: 2°C, snow\nday 2: 3°C, cloudy\nday 3: 5°C, rain"
    );

    let r = h
        .host
        .call_tool("weather", json!({"city":"Atlantis"}))
        .await
        .unwrap();
    assert!(r.is_error);
    assert!(
        text(&r.content).contains("known cities: Berlin"),
        "{}",
        text(&r.content)
    );
    let r = h.host.call_tool("weather", json!({})).await.unwrap();
    assert!(r.is_error);

    let r = h
        .host
        .invoke_command("weather", "Lisbon")
        .await
        .unwrap()
        .response;
    assert_eq!(
        r.prompt.as_deref(),
        Some("Show today's weather for Lisbon in one line.")
    );
    h.host.shutdown().await;
}

#[tokio::test]
async fn weather_takes_its_units_and_source_from_its_settings() {
    // Settings stored the way `zot ext config` and the manager store them.
    let home = tempfile::TempDir::new().unwrap();
    // As installed: the binary beside the manifest (the sandbox hides target/).
    let copy = copy_with_binary(
        "weather",
        std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-weather")),
    );
    let dir = copy.dir.clone();
    let schema = zot_ext_host::manifest::load(&dir.join("extension.json"))
        .unwrap()
        .config;
    let set = |v: serde_json::Value| {
        zot_ext_host::settings_store::apply(
            home.path(),
            &zot_ext_host::settings_store::Owner::of("weather", &dir),
            &schema,
            &serde_json::from_value(v).unwrap(),
        )
        .unwrap()
    };
    std::env::set_var("ZOT_KEYCHAIN", "off");
    let key = "canary-weather-key-0042";
    set(json!({"units": "imperial", "api_key": key}));
    let h = Harness::start_in(home, std::slice::from_ref(&dir)).await;
    let r = h
        .host
        .call_tool("weather", json!({"city":"Berlin"}))
        .await
        .unwrap();
    assert_eq!(text(&r.content), "Berlin: 61°F, fog");
    let said = h
        .host
        .invoke_command("weather-key", "")
        .await
        .unwrap()
        .response;
    assert_eq!(
        said.display.as_deref(),
        Some("API key received (23 characters)")
    );
    assert!(!h.log("weather").contains(key));
    // Changed while it runs: the next answer uses the new source.
    h.host
        .config_set(
            "weather",
            serde_json::from_value(json!({"base_url": "https://example.invalid"})).unwrap(),
        )
        .await
        .unwrap();
    let r = h
        .host
        .call_tool("weather", json!({"city":"Berlin"}))
        .await
        .unwrap();
    assert!(r.is_error);
    assert!(text(&r.content).contains("base_url setting is \"https://example.invalid\""));
    h.host.shutdown().await;
}

#[tokio::test]
async fn the_history_reports_each_month_and_stops_when_cancelled() {
    let copy = copy_with_binary(
        "weather",
        std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-weather")),
    );
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;

    // Run to the end: progress up to 12 of 12, every month's line streamed.
    let seen = std::sync::Mutex::new((0.0_f64, String::new()));
    let r = h
        .host
        .call_tool_with("weather_history", json!({"city":"Oslo"}), &|u| {
            let mut s = seen.lock().unwrap();
            // An update that merged only output carries no numbers.
            assert!(u.total.is_none_or(|t| t == 12.0), "{u:?}");
            s.0 = s.0.max(u.progress.unwrap_or(0.0));
            s.1.push_str(&u.partial);
        })
        .await
        .unwrap();
    assert!(!r.is_error);
    let (last, streamed) = seen.into_inner().unwrap();
    assert_eq!(last, 12.0);
    assert!(streamed.starts_with("Jan: -4°C\nFeb: -3°C\n"), "{streamed}");
    assert!(
        text(&r.content).ends_with("Dec: -3°C"),
        "{}",
        text(&r.content)
    );

    // Dropped at its first progress, as Stop does: zot sends tool_cancel
    // and the tool stops before the year is done.
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let tx = std::sync::Mutex::new(Some(tx));
    let on_progress = |_u: zot_ext_host::tool_progress::ProgressUpdate| {
        if let Some(tx) = tx.lock().unwrap().take() {
            let _ = tx.send(());
        }
    };
    tokio::select! {
        r = h.host.call_tool_with("weather_history", json!({"city":"Berlin"}), &on_progress) => {
            panic!("the call ended before it was cancelled: {r:?}")
        }
        _ = rx => {}
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !h.log("weather").contains("history of Berlin stopped after") {
        assert!(
            std::time::Instant::now() < deadline,
            "no stop in the log: {}",
            h.log("weather")
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let log = h.log("weather");
    assert!(log.contains("months: aborted"), "{log}");
    assert!(!log.contains("unknown id"), "{log}");
    h.host.shutdown().await;
}

#[test]
fn zot_ext_test_sees_the_history_stop_on_tool_cancel() {
    let copy = copy_with_binary(
        "weather",
        std::path::Path::new(env!("CARGO_BIN_EXE_zot-example-weather")),
    );
    let home = tempfile::TempDir::new().unwrap();
    let report = zot_ext_host::conformance::run(&copy.dir, home.path(), &Default::default());
    let rendered = zot_ext_host::conformance::render(&report);
    let cancel = report.checks.iter().find(|c| c.name == "cancel");
    assert!(
        cancel.is_some_and(|c| c.status == zot_ext_host::conformance::Status::Pass
            && c.detail.contains("'weather_history' stopped")),
        "{rendered}"
    );
    assert!(report.ok, "{rendered}");
}

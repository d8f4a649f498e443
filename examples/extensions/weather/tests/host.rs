//! The weather example through the real host: the tool answers from its
//! offline data, rejects unknown cities, and its first answer activates the
//! deferred forecast tool.

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
        ["weather"],
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
    assert_eq!(tools, ["weather", "weather_forecast"]);

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

//! The weather example: an LLM tool with offline data (no network), plus a
//! deferred forecast tool that the first weather lookup switches on.

mod data;

use serde_json::{json, Value};
use zot_ext::{Context, Extension, Response, ToolResult};

/// A temperature in the user's units (the `units` setting).
fn temp(ctx: &Context, celsius: i32) -> String {
    match ctx.setting("units").as_ref().and_then(Value::as_str) {
        Some("imperial") => format!("{}°F", (f64::from(celsius) * 9.0 / 5.0 + 32.0).round()),
        _ => format!("{celsius}°C"),
    }
}

/// The `base_url` setting: only the built-in sample data exists here, so
/// anything else is explained rather than silently ignored.
fn check_source(ctx: &Context) -> Result<(), ToolResult> {
    match ctx.setting("base_url").as_ref().and_then(Value::as_str) {
        None | Some("offline") => Ok(()),
        Some(other) => Err(ToolResult::error(format!(
            "this sample only has offline data, but its base_url setting is {other:?}; set it back with `zot ext config weather base_url offline`"
        ))),
    }
}

fn city_arg(args: &Value) -> Result<&'static data::City, ToolResult> {
    let Some(name) = args.get("city").and_then(Value::as_str) else {
        return Err(ToolResult::error(
            "missing required string argument \"city\"",
        ));
    };
    data::find(name).ok_or_else(|| {
        ToolResult::error(format!(
            "no offline weather for {name:?}; known cities: {}",
            data::names().join(", ")
        ))
    })
}

fn main() {
    let mut ext = Extension::new("weather", "1.0.0");
    ext.on_config_change(|ctx, _| ctx.log("settings changed; the next answer uses them"));
    ext.tool(
        "weather",
        "Get the current weather for a city (offline sample data).",
        json!({"type":"object","properties":{"city":{"type":"string","description":"city name, e.g. Berlin"}},"required":["city"]}),
        |ctx, args| match check_source(ctx).and_then(|()| city_arg(&args)) {
            Ok(c) => ToolResult::text(format!("{}: {}, {}", c.name, temp(ctx, c.temp_c), c.sky))
                // The first lookup makes the forecast tool available.
                .activate(["weather_forecast"]),
            Err(e) => e,
        },
    )
    .deferred_tool(
        "weather_forecast",
        "Get a 3-day forecast for a city (offline sample data).",
        json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}),
        |ctx, args| match check_source(ctx).and_then(|()| city_arg(&args)) {
            Ok(c) => ToolResult::text(
                c.forecast
                    .iter()
                    .enumerate()
                    .map(|(i, (t, sky))| format!("day {}: {}, {sky}", i + 1, temp(ctx, *t)))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Err(e) => e,
        },
    )
    .command("weather-key", "say whether the API key setting arrived", |ctx, _| {
        // Whether the secret arrived, never what it is.
        Response::display(
            match ctx.setting("api_key").as_ref().and_then(Value::as_str) {
                Some(k) if !k.is_empty() => format!("API key received ({} characters)", k.chars().count()),
                _ => "no API key set; set one with `zot ext config weather api_key` or Configure… in the app".to_owned(),
            },
        )
    })
    .command("weather", "ask the agent for a city's weather", |_ctx, args| {
        let city = if args.is_empty() { "Berlin" } else { args };
        Response::prompt(format!("Show today's weather for {city} in one line."))
    });
    if let Err(e) = ext.run() {
        eprintln!("weather: {e}");
        std::process::exit(1);
    }
}

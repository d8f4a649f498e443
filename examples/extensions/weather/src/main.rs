//! The weather example: an LLM tool with offline data (no network), plus a
//! deferred forecast tool that the first weather lookup switches on.

mod data;

use serde_json::{json, Value};
use zot_ext::{Extension, Response, ToolResult};

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
    ext.tool(
        "weather",
        "Get the current weather for a city (offline sample data).",
        json!({"type":"object","properties":{"city":{"type":"string","description":"city name, e.g. Berlin"}},"required":["city"]}),
        |_ctx, args| match city_arg(&args) {
            Ok(c) => ToolResult::text(format!("{}: {}°C, {}", c.name, c.temp_c, c.sky))
                // The first lookup makes the forecast tool available.
                .activate(["weather_forecast"]),
            Err(e) => e,
        },
    )
    .deferred_tool(
        "weather_forecast",
        "Get a 3-day forecast for a city (offline sample data).",
        json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}),
        |_ctx, args| match city_arg(&args) {
            Ok(c) => ToolResult::text(
                c.forecast
                    .iter()
                    .enumerate()
                    .map(|(i, (t, sky))| format!("day {}: {t}°C, {sky}", i + 1))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Err(e) => e,
        },
    )
    .command("weather", "ask the agent for a city's weather", |_ctx, args| {
        let city = if args.is_empty() { "Berlin" } else { args };
        Response::prompt(format!("Show today's weather for {city} in one line."))
    });
    if let Err(e) = ext.run() {
        eprintln!("weather: {e}");
        std::process::exit(1);
    }
}

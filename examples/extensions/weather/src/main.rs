//! The weather example: an LLM tool with offline data (no network), plus a
//! deferred forecast tool that the first weather lookup switches on, and a
//! slow history tool that reports progress and stops when cancelled.

mod data;

use std::time::Duration;

use serde_json::{json, Value};
use zot_ext::{Context, Extension, Response, ToolCall, ToolResult};

/// How long the history tool spends on each month: slow on purpose, as a
/// real archive download would be.
const MONTH: Duration = Duration::from_millis(250);

/// A year of the city's records, one month at a time: each month is a
/// `tool_progress` (n of 12, and its line as partial output); a
/// `tool_cancel` ends the loop at once and nothing more is sent.
fn history(ctx: &Context, args: &Value, call: &ToolCall) -> ToolResult {
    let c = match check_source(ctx).and_then(|()| city_arg(args)) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let mut lines = Vec::new();
    for (i, month) in data::MONTHS.iter().enumerate() {
        // Sleeping on the token wakes at once when zot cancels.
        if call.token().wait_timeout(MONTH) {
            ctx.log(format!(
                "history of {} stopped after {i} of 12 months: {}",
                c.name,
                call.token().reason().unwrap_or_default()
            ));
            return ToolResult::error("cancelled");
        }
        let line = format!("{month}: {}", temp(ctx, data::monthly_mean(c, i)));
        call.progress(&format!("reading {month}"), (i + 1) as f64, Some(12.0));
        call.output(&format!("{line}\n"));
        lines.push(line);
    }
    ToolResult::text(format!("{}, monthly means:\n{}", c.name, lines.join("\n")))
}

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
    .tool_with_call(
        "weather_history",
        "Get a year of monthly mean temperatures for a city (offline sample data; slow: it reads the archive month by month).",
        // `examples` gives `zot ext test` a city to call it with, so its
        // cancel check has a slow call to cancel.
        json!({"type":"object","properties":{"city":{"type":"string","description":"city name, e.g. Berlin","examples":["Berlin"]}},"required":["city"]}),
        |ctx, args, call| history(ctx, &args, call),
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

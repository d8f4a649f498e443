//! The models zot knows without asking a provider: context window, output
//! limit and whether the model reasons. `zot --list-models` prints it (in
//! the reference zot's layout, which tools parse), and the rest of the app
//! asks it for a model's limits.
//!
//! Figures are the providers' published model documentation and price
//! lists as of 2026-11; docs/agent.md says where each comes from. A model
//! missing here still works: zot only lacks its limits and its cost.

use serde::Serialize;
use zot_ext_protocol::rpc::{ModelInfo, Usage};

/// One known model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KnownModel {
    /// `anthropic`, `openai` or `kimi`.
    pub provider: &'static str,
    /// The id the API takes.
    pub id: &'static str,
    /// The name people use.
    pub name: &'static str,
    /// Tokens of context (input and output together).
    pub context_window: u64,
    /// Most output tokens one response may have.
    pub max_output: u64,
    /// Whether it has a thinking / reasoning mode.
    pub reasoning: bool,
    /// Where the entry comes from: always `catalog` here (the reference zot
    /// also lists `live` and `cache` entries from provider discovery).
    pub source: &'static str,
    /// US dollars per million tokens.
    pub price: Price,
}

/// US dollars per million tokens, by kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Price {
    /// Input not served from the cache.
    pub input: f64,
    /// Output (reasoning included).
    pub output: f64,
    /// Input read from the cache.
    pub cache_read: f64,
    /// Input written to the cache (Anthropic charges extra; others do not).
    pub cache_write: f64,
}

impl Price {
    /// What `u` costs.
    pub fn cost(&self, u: &Usage) -> f64 {
        // Token counts fit f64's 53-bit mantissa far beyond any real bill.
        #[allow(clippy::cast_precision_loss)]
        let per = |tokens: u64, usd: f64| tokens as f64 * usd / 1_000_000.0;
        per(u.input_tokens, self.input)
            + per(u.output_tokens, self.output)
            + per(u.cache_read_tokens, self.cache_read)
            + per(u.cache_write_tokens, self.cache_write)
    }
}

const fn usd(input: f64, output: f64, cache_read: f64, cache_write: f64) -> Price {
    Price {
        input,
        output,
        cache_read,
        cache_write,
    }
}

const fn m(
    provider: &'static str,
    id: &'static str,
    name: &'static str,
    (context_window, max_output, reasoning): (u64, u64, bool),
    price: Price,
) -> KnownModel {
    KnownModel {
        provider,
        id,
        name,
        context_window,
        max_output,
        reasoning,
        source: "catalog",
        price,
    }
}

// Anthropic: cache writes (5-minute) cost 1.25× input, reads 0.1×.
const SONNET: Price = usd(3.0, 15.0, 0.30, 3.75);
const OPUS: Price = usd(15.0, 75.0, 1.50, 18.75);
// OpenAI: cached input is billed at the listed cached rate; writes are free.
// Moonshot: cache hits are billed at the listed hit rate.

/// Every model zot knows, by provider, newest first within a family.
pub const CATALOG: &[KnownModel] = &[
    m(
        "anthropic",
        "claude-sonnet-4-5",
        "Claude Sonnet 4.5",
        (200_000, 64_000, true),
        SONNET,
    ),
    m(
        "anthropic",
        "claude-haiku-4-5",
        "Claude Haiku 4.5",
        (200_000, 64_000, true),
        usd(1.0, 5.0, 0.10, 1.25),
    ),
    m(
        "anthropic",
        "claude-opus-4-1",
        "Claude Opus 4.1",
        (200_000, 32_000, true),
        OPUS,
    ),
    m(
        "anthropic",
        "claude-opus-4-0",
        "Claude Opus 4",
        (200_000, 32_000, true),
        OPUS,
    ),
    m(
        "anthropic",
        "claude-sonnet-4-0",
        "Claude Sonnet 4",
        (200_000, 64_000, true),
        SONNET,
    ),
    m(
        "anthropic",
        "claude-3-7-sonnet-latest",
        "Claude Sonnet 3.7",
        (200_000, 64_000, true),
        SONNET,
    ),
    m(
        "anthropic",
        "claude-3-5-haiku-latest",
        "Claude Haiku 3.5",
        (200_000, 8_192, false),
        usd(0.80, 4.0, 0.08, 1.0),
    ),
    m(
        "openai",
        "gpt-5",
        "GPT-5",
        (400_000, 128_000, true),
        usd(1.25, 10.0, 0.125, 0.0),
    ),
    m(
        "openai",
        "gpt-5-mini",
        "GPT-5 mini",
        (400_000, 128_000, true),
        usd(0.25, 2.0, 0.025, 0.0),
    ),
    m(
        "openai",
        "gpt-5-nano",
        "GPT-5 nano",
        (400_000, 128_000, true),
        usd(0.05, 0.40, 0.005, 0.0),
    ),
    m(
        "openai",
        "gpt-4.1",
        "GPT-4.1",
        (1_047_576, 32_768, false),
        usd(2.0, 8.0, 0.50, 0.0),
    ),
    m(
        "openai",
        "gpt-4.1-mini",
        "GPT-4.1 mini",
        (1_047_576, 32_768, false),
        usd(0.40, 1.60, 0.10, 0.0),
    ),
    m(
        "openai",
        "gpt-4.1-nano",
        "GPT-4.1 nano",
        (1_047_576, 32_768, false),
        usd(0.10, 0.40, 0.025, 0.0),
    ),
    m(
        "openai",
        "gpt-4o",
        "GPT-4o",
        (128_000, 16_384, false),
        usd(2.50, 10.0, 1.25, 0.0),
    ),
    m(
        "openai",
        "gpt-4o-mini",
        "GPT-4o mini",
        (128_000, 16_384, false),
        usd(0.15, 0.60, 0.075, 0.0),
    ),
    m(
        "openai",
        "o3",
        "o3",
        (200_000, 100_000, true),
        usd(2.0, 8.0, 0.50, 0.0),
    ),
    m(
        "openai",
        "o4-mini",
        "o4-mini",
        (200_000, 100_000, true),
        usd(1.10, 4.40, 0.275, 0.0),
    ),
    m(
        "kimi",
        "kimi-k2-0905-preview",
        "Kimi K2 0905",
        (262_144, 32_768, false),
        usd(0.60, 2.50, 0.15, 0.0),
    ),
    m(
        "kimi",
        "kimi-k2-turbo-preview",
        "Kimi K2 Turbo",
        (262_144, 32_768, false),
        usd(1.15, 8.0, 0.15, 0.0),
    ),
    m(
        "kimi",
        "kimi-k2-thinking",
        "Kimi K2 Thinking",
        (262_144, 32_768, true),
        usd(0.60, 2.50, 0.15, 0.0),
    ),
    m(
        "kimi",
        "kimi-k2-thinking-turbo",
        "Kimi K2 Thinking Turbo",
        (262_144, 32_768, true),
        usd(1.15, 8.0, 0.15, 0.0),
    ),
];

/// Models that load deferred tools natively, as `(provider, id)`; an id
/// also covers its dated or suffixed variants (`kimi-k3-preview`). Kimi
/// K3 is the model the extension spec names for Kimi's dynamic tools
/// (kimi-code's `dynamically_loaded_tools` capability); every other model
/// gets the generic path (activated tools join the tool list).
pub const DYNAMIC_TOOLS: &[(&str, &str)] = &[("kimi", "kimi-k3")];

/// Anthropic models that take the tool search tool (Anthropic's tool
/// search documentation lists Claude Opus 4.5 and Sonnet 4.5); dated ids
/// (`claude-sonnet-4-5-20250929`) match too. Other Claude models get the
/// generic path.
pub const TOOL_SEARCH: &[(&str, &str)] = &[
    ("anthropic", "claude-sonnet-4-5"),
    ("anthropic", "claude-opus-4-5"),
];

/// Whether `(provider, model)` is in `table`, an id also covering its
/// `-suffixed` variants.
fn listed(table: &[(&str, &str)], provider: &str, model: &str) -> bool {
    table.iter().any(|(p, id)| {
        *p == provider
            && model
                .strip_prefix(id)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    })
}

/// Whether `provider`'s `model` loads deferred tools natively (Kimi's
/// `select_tools` form).
pub fn dynamic_tools(provider: &str, model: &str) -> bool {
    listed(DYNAMIC_TOOLS, provider, model)
}

/// Whether Anthropic's `model` takes the tool search tool.
pub fn tool_search(model: &str) -> bool {
    listed(TOOL_SEARCH, "anthropic", model)
}

/// The context window of `provider`'s `model`, when zot knows it.
pub fn context_window(provider: &str, model: &str) -> Option<u64> {
    find(Some(provider), model).map(|k| k.context_window)
}

/// The entry for `id`, if zot knows it (for any provider when `provider` is
/// `None`).
pub fn find(provider: Option<&str>, id: &str) -> Option<&'static KnownModel> {
    CATALOG
        .iter()
        .find(|k| k.id == id && provider.is_none_or(|p| p == k.provider))
}

/// What `usage` cost on `provider`'s `model`, when zot knows its price.
pub fn cost(provider: &str, model: &str, usage: &Usage) -> Option<f64> {
    find(Some(provider), model).map(|k| k.price.cost(usage))
}

/// A model a provider listed, with the limits zot knows for it.
pub fn model_info(provider: &str, id: &str) -> ModelInfo {
    let known = find(Some(provider), id);
    ModelInfo {
        id: id.to_owned(),
        provider: provider.to_owned(),
        context_window: known.map(|k| k.context_window),
        max_output: known.map(|k| k.max_output),
    }
}

/// The table `zot --list-models` prints. The header and the column widths
/// are the reference zot's, because tools (zot-chrome-operator's bridge)
/// parse them: provider, id, context, max-out, a ✓ for reasoning, source,
/// name.
pub fn table() -> String {
    let mut out = String::from(
        "provider   model id                       context  max-out  reasoning  source        name\n",
    );
    for k in CATALOG {
        let reasoning = if k.reasoning { "✓" } else { " " };
        out.push_str(&format!(
            "{:<10} {:<30} {:>8} {:>8}     {}        {:<11}   {}\n",
            k.provider, k.id, k.context_window, k.max_output, reasoning, k.source, k.name
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_model_of_a_hosted_provider_is_known() {
        use crate::providers::ProviderKind;
        for p in [
            ProviderKind::Anthropic,
            ProviderKind::Openai,
            ProviderKind::Kimi,
        ] {
            assert!(
                find(Some(p.as_str()), p.default_model()).is_some(),
                "{}",
                p.as_str()
            );
        }
    }

    #[test]
    fn ids_are_unique_per_provider() {
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                assert!(!(a.provider == b.provider && a.id == b.id), "{}", a.id);
            }
        }
    }

    #[test]
    fn table_rows_split_into_the_reference_columns() {
        let t = table();
        let mut lines = t.lines();
        assert_eq!(
            lines.next(),
            Some("provider   model id                       context  max-out  reasoning  source        name")
        );
        let row = lines.next().unwrap_or_default();
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            &cols[..6],
            [
                "anthropic",
                "claude-sonnet-4-5",
                "200000",
                "64000",
                "✓",
                "catalog"
            ]
        );
        assert_eq!(cols[6..].join(" "), "Claude Sonnet 4.5");
    }
}

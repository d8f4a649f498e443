//! The session's token and cost totals: each model call's usage is priced
//! from the built-in catalogue (`providers/catalog.rs`) and added up, so the
//! `usage` event, `get_state` and the desktop's status bar all say the same.

use zot_ext_protocol::rpc::{Usage, UsageReport, UsageTotals};

use crate::providers::catalog;

/// Totals since the session started or was cleared.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ledger {
    /// Tokens of every call.
    tokens: Usage,
    /// Dollars of every priced call.
    cost: f64,
    /// Whether a call used a model without a known price: the total would
    /// then be an understatement, so none is given.
    unpriced: bool,
}

impl Ledger {
    /// Adds one call of `model` on `provider`; returns its `usage` event.
    pub fn record(&mut self, provider: &str, model: &str, call: Usage) -> UsageReport {
        let cost = catalog::cost(provider, model, &call);
        self.tokens.add(&call);
        match cost {
            Some(c) => self.cost += c,
            None => self.unpriced = true,
        }
        UsageReport {
            tokens: call,
            cost_usd: cost,
            cumulative: self.totals(),
        }
    }

    /// The totals under the reference's names.
    pub fn totals(&self) -> UsageTotals {
        UsageTotals {
            input: self.tokens.input_tokens,
            output: self.tokens.output_tokens,
            cache_read: self.tokens.cache_read_tokens,
            cache_write: self.tokens.cache_write_tokens,
            cost_usd: (!self.unpriced).then_some(self.cost),
        }
    }

    /// `get_state.usage`: the session's tokens, cost and totals.
    pub fn report(&self) -> UsageReport {
        let totals = self.totals();
        UsageReport {
            tokens: self.tokens,
            cost_usd: totals.cost_usd,
            cumulative: totals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(input: u64, output: u64, read: u64, write: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_read_tokens: read,
            cache_write_tokens: write,
        }
    }

    #[test]
    fn a_known_model_is_priced_per_kind_of_token_and_totals_add_up() {
        let mut l = Ledger::default();
        // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per MTok.
        let r = l.record(
            "anthropic",
            "claude-sonnet-4-5",
            call(1_000_000, 100_000, 2_000_000, 0),
        );
        assert!(
            (r.cost_usd.unwrap() - (3.0 + 1.5 + 0.6)).abs() < 1e-9,
            "{r:?}"
        );
        let r = l.record("anthropic", "claude-sonnet-4-5", call(0, 0, 0, 1_000_000));
        assert!((r.cost_usd.unwrap() - 3.75).abs() < 1e-9);
        let t = r.cumulative;
        assert_eq!(
            (t.input, t.output, t.cache_read, t.cache_write),
            (1_000_000, 100_000, 2_000_000, 1_000_000)
        );
        assert!((t.cost_usd.unwrap() - 8.85).abs() < 1e-9);
        assert_eq!(l.report().tokens.output_tokens, 100_000);
    }

    #[test]
    fn an_unknown_model_shows_tokens_only_and_the_total_stops_claiming_a_cost() {
        let mut l = Ledger::default();
        l.record("openai", "gpt-4.1", call(1000, 10, 0, 0));
        let r = l.record("openai", "my-local-finetune", call(5, 5, 0, 0));
        assert_eq!(r.cost_usd, None);
        assert_eq!(r.cumulative.cost_usd, None);
        assert_eq!(r.cumulative.input, 1005);
    }
}

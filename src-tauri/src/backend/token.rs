//! The RPC token (`ZOT_RPC_TOKEN`, docs/rpc.md `hello`): with one set, a
//! client is served nothing but `hello` until a hello carried it. Both
//! halves live here: the comparison `hello` makes, and the [`Gate`] RPC
//! mode keeps per connection. The window has no gate: its page is zot's
//! own, talking in process, and never sends `hello` (a panel's own window
//! is limited to its panel's input by `desktop::panel_window::allows`).

use zot_ext_protocol::rpc::RpcCommand;
use zot_ext_protocol::RpcError;

use super::options::rpc_token;

/// `hello`'s check: `Err` when a token is set and `given` is not it.
pub fn check_hello(given: Option<&str>) -> Result<(), RpcError> {
    match rpc_token() {
        Some(want) if !matches(given.unwrap_or_default(), &want) => Err(RpcError::denied(
            "hello: the token is missing or wrong; send the value of ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN) as \"token\"",
        )),
        _ => Ok(()),
    }
}

/// One RPC connection's door: shut while a token is set and no `hello`
/// carried it yet.
pub struct Gate {
    /// Whether only `hello` passes.
    shut: bool,
}

impl Gate {
    /// Shut when a token is set.
    pub fn new() -> Self {
        Gate {
            shut: rpc_token().is_some(),
        }
    }

    /// Whether `cmd` may run now; the refusal says how to open the gate.
    pub fn admit(&self, cmd: &RpcCommand) -> Result<(), RpcError> {
        if self.shut && !matches!(cmd, RpcCommand::Hello { .. }) {
            return Err(RpcError::denied(
                "this zot requires a token: send {\"type\":\"hello\",\"token\":\"…\"} with the value of ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN) first",
            ));
        }
        Ok(())
    }

    /// A `hello` was answered: one that succeeded opens the gate.
    pub fn hello_answered(&mut self, ok: bool) {
        self.shut = self.shut && !ok;
    }
}

impl Default for Gate {
    fn default() -> Self {
        Gate::new()
    }
}

/// Whether `given` is the token, compared in constant time: how long a
/// refusal takes says nothing about how many leading bytes were right
/// (only whether the length was).
fn matches(given: &str, want: &str) -> bool {
    let (given, want) = (given.as_bytes(), want.as_bytes());
    if given.len() != want.len() {
        return false;
    }
    let diff = given
        .iter()
        .zip(want)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_whole_token_matches() {
        assert!(matches("s3cret-token", "s3cret-token"));
        for wrong in [
            "",
            "s3cret-toke",
            "s3cret-tokeN",
            "s3cret-token!",
            "x3cret-token",
        ] {
            assert!(!matches(wrong, "s3cret-token"), "{wrong}");
        }
    }

    #[test]
    fn a_shut_gate_passes_hello_only_until_a_hello_succeeds() {
        let mut g = Gate { shut: true };
        let ping = RpcCommand::Ping {};
        let e = g.admit(&ping).unwrap_err();
        assert_eq!(e.code, zot_ext_protocol::ErrorCode::Denied);
        assert!(e.message.contains("ZOT_RPC_TOKEN"), "{}", e.message);
        assert!(g.admit(&RpcCommand::Hello { token: None }).is_ok());
        g.hello_answered(false);
        assert!(g.admit(&ping).is_err());
        g.hello_answered(true);
        assert!(g.admit(&ping).is_ok());
        // Once open, a later failed hello does not shut it again.
        g.hello_answered(false);
        assert!(g.admit(&ping).is_ok());
    }
}

//! Extensions never inherit zot's credentials: the provider keys and RPC
//! tokens, the extra names and secret values the app passes, any variable
//! holding a secret value, and (as for `bash`) any variable named like a
//! secret. The extension reports the environment it really got.

#[path = "support/support.rs"]
mod support;

use serde_json::{json, Value};
use support::*;

#[tokio::test]
async fn an_extension_never_sees_zots_credentials() {
    // This test binary holds only this test, so setting the variables here
    // races with nothing.
    let canaries = [
        ("ANTHROPIC_API_KEY", "canary-anthropic"),
        ("OPENAI_API_KEY", "canary-openai"),
        ("KIMI_API_KEY", "canary-kimi"),
        ("MOONSHOT_API_KEY", "canary-moonshot"),
        ("ZOT_RPC_TOKEN", "canary-rpc"),
        ("ZOTCORE_RPC_TOKEN", "canary-core"),
        ("ZOT_TEST_EXTRA_CRED", "canary-extra"),
        ("ZOT_TEST_HOLDS_KEY", "canary-flag-value"),
        // What the model's `bash` loses, an unsandboxed extension loses too.
        ("GITHUB_TOKEN", "canary-github"),
        ("NPM_TOKEN", "canary-npm"),
        ("AWS_SECRET_ACCESS_KEY", "canary-aws"),
        ("DB_PASSWORD", "canary-db"),
    ];
    for (k, v) in canaries {
        std::env::set_var(k, v);
    }
    std::env::set_var("ZOT_TEST_HARMLESS", "visible");
    let env = Env::new();
    let dir = env.global("envy", json!({"env": true}));
    let mut cfg = env.config();
    cfg.secret_env_names = vec!["ZOT_TEST_EXTRA_CRED".into()];
    cfg.secret_env_values = vec!["canary-flag-value".into()];
    let (host, _rx) = start(cfg).await;
    let seen: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("env.json")).unwrap()).unwrap();
    for (k, v) in canaries {
        assert!(seen.get(k).is_none(), "{k} reached the extension");
        assert!(!seen.to_string().contains(v), "{v} reached the extension");
    }
    assert_eq!(seen["ZOT_TEST_HARMLESS"], "visible");
    assert!(seen.get("PATH").is_some());
    host.shutdown().await;
}

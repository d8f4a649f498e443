//! `ext_config_get` / `ext_config_set` on a running host: find the
//! extension's schema, read or store its settings, and tell a running
//! extension with `config_changed`. An extension that was `failed` only
//! for want of a required setting starts once it has them all.

use std::sync::Arc;

use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::rpc_results::ExtConfigResult;
use zot_ext_protocol::{ConfigChanged, HostToExt, SettingValues, SettingsSchema};

use crate::api::host::Host;
use crate::error::HostError;
use crate::io::codec::encode;
use crate::records::extension::Ext;
use crate::settings::settings_schema::masked;
use crate::settings::settings_store::{self, Owner, Resolved, MISSING_MARK};

/// What a front end may see of resolved settings: secrets masked.
pub fn view(name: &str, schema: &SettingsSchema, r: &Resolved) -> ExtConfigResult {
    let plain: serde_json::Map<String, serde_json::Value> = r
        .values
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    ExtConfigResult {
        name: name.to_owned(),
        values: masked(schema, &plain).into_iter().collect(),
        schema: schema.clone(),
        order: schema.keys().cloned().collect(),
        missing: r.missing.clone(),
        secret_store: r.backend.as_str().to_owned(),
        warnings: r.warnings.clone(),
        delivered: None,
    }
}

impl Host {
    /// The settings of extension `name` with secrets masked, and its schema.
    pub async fn config_get(&self, name: &str) -> Result<ExtConfigResult, HostError> {
        let (schema, owner) = self.schema_of(name)?;
        let home = self.inner.cfg.zot_home.clone();
        let s = schema.clone();
        let r = blocking(name, move || settings_store::resolve(&home, &owner, &s)).await?;
        Ok(view(name, &schema, &r))
    }

    /// Validates and stores `values` for extension `name`, then sends
    /// `config_changed` when it is ready, or starts it when it was only
    /// waiting for required settings.
    pub async fn config_set(
        &self,
        name: &str,
        values: SettingValues,
    ) -> Result<ExtConfigResult, HostError> {
        let (schema, owner) = self.schema_of(name)?;
        let home = self.inner.cfg.zot_home.clone();
        let s = schema.clone();
        let r = blocking(name, move || {
            settings_store::apply(&home, &owner, &s, &values)
        })
        .await?;
        let mut out = view(name, &schema, &r);
        let ext = self.find(name);
        let mut delivered = false;
        if let Some(ext) = &ext {
            let (state, waiting) = {
                let m = ext.lock();
                let waiting = m.error.as_deref().is_some_and(|e| e.contains(MISSING_MARK));
                (m.state, waiting)
            };
            if state == Some(ExtState::Ready) {
                ext.send_one_way(&encode(&HostToExt::ConfigChanged(ConfigChanged {
                    config: r.values.clone(),
                })));
                delivered = true;
            } else if state == Some(ExtState::Failed) && waiting && r.missing.is_empty() {
                self.restart(name).await?;
            }
        }
        out.delivered = Some(delivered);
        Ok(out)
    }

    fn find(&self, name: &str) -> Option<Arc<Ext>> {
        self.inner
            .lock()
            .exts
            .iter()
            .find(|e| e.name == name)
            .cloned()
    }

    /// The schema of `name` and whose settings they are (its folder): from
    /// the current load, else from its manifest on disk (an extension that
    /// is disabled still has settings).
    fn schema_of(&self, name: &str) -> Result<(SettingsSchema, Owner), HostError> {
        if let Some(ext) = self.find(name) {
            if let Some(m) = &ext.manifest {
                return Ok((m.config.clone(), Owner::of(name, &ext.dir)));
            }
        }
        let cfg = &self.inner.cfg;
        let located = crate::manage::ext_ops::locate(&cfg.zot_home, &cfg.cwd, name)
            .map_err(|_| HostError::UnknownExtension(name.to_owned()))?;
        crate::manifest::load(&located.manifest_path())
            .map(|m| (m.config, Owner::of(name, &located.dir)))
            .map_err(|e| HostError::Settings {
                extension: name.to_owned(),
                message: e.to_string(),
            })
    }
}

async fn blocking(
    name: &str,
    f: impl FnOnce() -> Result<Resolved, settings_store::SettingsError> + Send + 'static,
) -> Result<Resolved, HostError> {
    let err = |message: String| HostError::Settings {
        extension: name.to_owned(),
        message,
    };
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| err(e.to_string()))?
        .map_err(|e| err(e.to_string()))
}

//! The extension manager's commands: thin wrappers over the host's
//! management library (the same code as `zot ext`), each followed by a
//! reload so the window shows the change at once.

use std::path::PathBuf;

use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;
use zot_ext_host::install::{self, Cancel, Consent, InstallOptions, Progress};
use zot_ext_host::{catalog, ext_ops, logs, remove, toggle};
use zot_ext_protocol::CatalogEntry;

use super::error::{IpcError, IpcResult};
use super::Desktop;

pub use zot_ext_protocol::desktop::{DevelopSummary, InstallProgress, InstallSummary, LogChunk};

/// Installs by the host's one install policy (`install_and_describe`,
/// as `zot ext install`), leaving the extension disabled: the user decides
/// on the summary, which lists its permissions in words and what it
/// registers as its manifest declares it. Nothing of it runs before Enable.
#[tauri::command]
pub async fn ext_install(
    state: State<'_, Desktop>,
    source: String,
    progress: Channel<InstallProgress>,
) -> IpcResult<InstallSummary> {
    let zot_home = state.ctx.zot_home.clone();
    let arg = source.clone();
    let send = progress.clone();
    let done = tauri::async_runtime::spawn_blocking(move || {
        let mut report = |p: Progress| {
            let message = match p {
                Progress::Copying { from } => format!("copying {}", from.display()),
                Progress::Cloning { url } => format!("cloning {url}"),
                Progress::Unpacking { from } => format!("unpacking {from}"),
                Progress::Git(line) => line,
                Progress::Validating => "checking extension.json".to_string(),
            };
            let _ = send.send(InstallProgress {
                source: arg.clone(),
                message,
            });
        };
        let options = InstallOptions {
            force: false,
            consent: Consent::OnSummary,
            update: false,
        };
        let hooks = install::Hooks {
            progress: &mut report,
            // Not an update (no force): nothing more to approve.
            approve_more: &mut |_| false,
        };
        install::install_and_describe(&zot_home, &arg, options, &Cancel::new(), hooks)
            .map_err(|e| IpcError::new("install", e))
    })
    .await
    .map_err(|e| IpcError::new("install", e))??;
    state.reload().await?;
    Ok(done.summary())
}

/// Accepts the permissions an extension asks for now (an update asked
/// for more, so it did not start), remembers them, and reloads.
#[tauri::command]
pub async fn ext_accept_permissions(state: State<'_, Desktop>, name: String) -> IpcResult<()> {
    let (zot_home, cwd) = (state.ctx.zot_home.clone(), state.cwd());
    tauri::async_runtime::spawn_blocking(move || {
        zot_ext_host::consent::accept(&zot_home, &cwd, &name)
    })
    .await
    .map_err(|e| IpcError::new("accept", e))?
    .map_err(|e| IpcError::new("accept", e))?;
    state.reload().await
}

/// The extensions zot ships, each checked (available, or why not) and
/// marked when installed; the manager's "Available" section.
#[tauri::command]
pub async fn ext_catalog(state: State<'_, Desktop>) -> IpcResult<Vec<CatalogEntry>> {
    let zot_home = state.ctx.zot_home.clone();
    tauri::async_runtime::spawn_blocking(move || catalog::list(&zot_home))
        .await
        .map_err(|e| IpcError::new("catalog", e))?
        .map_err(|e| IpcError::new("catalog", e))
}

/// Scaffolds a new extension (`zot ext new`) as `parent/name` and returns
/// its folder; the UI then offers to install it.
#[tauri::command]
pub async fn ext_new(
    state: State<'_, Desktop>,
    name: String,
    lang: String,
    panel: bool,
    parent: String,
) -> IpcResult<String> {
    use zot_ext_host::scaffold::{scaffold, Lang, NewExtension};
    let lang = Lang::parse(&lang).ok_or_else(|| {
        IpcError::new(
            "new",
            format!("unknown language `{lang}`: use python, typescript or rust"),
        )
    })?;
    let zot_home = state.ctx.zot_home.clone();
    tauri::async_runtime::spawn_blocking(move || {
        let spec = NewExtension {
            name,
            lang,
            panel,
            rust_sdk: std::env::var_os("ZOT_RUST_SDK").map(PathBuf::from),
            sdk_dir: zot_ext_host::sdk::ensure(&zot_home).ok(),
        };
        scaffold(std::path::Path::new(&parent), &spec)
            .map(|dir| dir.display().to_string())
            .map_err(|e| IpcError::new("new", e))
    })
    .await
    .map_err(|e| IpcError::new("new", e))?
}

/// Loads a working copy as a dev extension for the rest of this run and
/// reloads it when its sources change: `zot --ext DIR --watch` without a
/// restart ([`zot_ext_host::Host::develop`]).
#[tauri::command]
pub async fn ext_develop(state: State<'_, Desktop>, dir: String) -> IpcResult<DevelopSummary> {
    let backend = state.backend().await?;
    let report = backend
        .host()
        .develop(std::path::Path::new(&dir))
        .await
        .map_err(|e| IpcError::new("develop", e))?;
    // `develop` succeeded, so the folder resolves.
    let dir = std::fs::canonicalize(&dir).unwrap_or_else(|_| PathBuf::from(&dir));
    Ok(DevelopSummary {
        dir: dir.display().to_string(),
        ready: report.ready,
        errors: report
            .errors
            .iter()
            .map(|e| format!("{}: {} (log: {})", e.extension, e.message, e.log_path))
            .collect(),
    })
}

/// The folders being developed with live reload: those added by
/// "Develop a folder…" and, when zot was started with `--watch`, its
/// `--ext` folders (resolved as discovery resolves them).
#[tauri::command]
pub async fn ext_dev_folders(state: State<'_, Desktop>) -> IpcResult<Vec<String>> {
    let backend = state.backend().await?;
    let opts = backend.options();
    let mut dirs: Vec<PathBuf> = Vec::new();
    if opts.watch {
        let cwd = std::env::current_dir().unwrap_or_default();
        for p in &opts.explicit {
            let p = cwd.join(p);
            let p = if p.file_name().is_some_and(|n| n == ext_ops::MANIFEST_FILE) {
                p.parent().map(PathBuf::from).unwrap_or(p)
            } else {
                p
            };
            dirs.push(p);
        }
    }
    dirs.extend(backend.host().dev_folders());
    Ok(dirs.iter().map(|d| d.display().to_string()).collect())
}

/// Enables or disables an extension by name, then reloads.
#[tauri::command]
pub async fn ext_set_enabled(
    state: State<'_, Desktop>,
    name: String,
    enabled: bool,
) -> IpcResult<()> {
    let located = ext_ops::locate(&state.ctx.zot_home, &state.cwd(), &name)
        .map_err(|e| IpcError::new("toggle", e))?;
    toggle::set_enabled(&located.manifest_path(), enabled)
        .map_err(|e| IpcError::new("toggle", e))?;
    state.reload().await
}

/// Adds an MCP server from one `mcpServers` entry (JSON), as
/// `zot ext add-mcp` does, then reloads (docs/mcp.md).
#[tauri::command]
pub async fn ext_add_mcp(state: State<'_, Desktop>, name: String, entry: String) -> IpcResult<()> {
    let value: serde_json::Value = serde_json::from_str(&entry)
        .map_err(|e| IpcError::new("mcp", format!("the entry is not JSON: {e}")))?;
    let server = zot_ext_host::mcp_install::parse_entry(&value)
        .map_err(|e| IpcError::new("mcp", format!("'{name}' cannot be used: {e}")))?;
    zot_ext_host::mcp_install::add(&state.ctx.zot_home, &name, &server, false)
        .map_err(|e| IpcError::new("mcp", e))?;
    state.reload().await
}

/// Removes an installed extension (the UI has asked for confirmation), then reloads.
#[tauri::command]
pub async fn ext_remove(state: State<'_, Desktop>, name: String) -> IpcResult<()> {
    remove::remove(&state.ctx.zot_home, &state.cwd(), &name)
        .map_err(|e| IpcError::new("remove", e))?;
    state.reload().await
}

/// The doctor's report, as the CLI's `--json` gives it.
#[tauri::command]
pub async fn ext_doctor(
    state: State<'_, Desktop>,
) -> IpcResult<zot_ext_host::doctor::DoctorReport> {
    let backend = state.backend().await?;
    let mut cfg = backend.options().host_config();
    // A trust given for this run only (the banner without "Remember") counts.
    cfg.run_trust = backend.host().run_trust();
    // Folders added by "Develop a folder…" load like `--ext` paths.
    cfg.explicit.extend(backend.host().dev_folders());
    Ok(zot_ext_host::doctor::diagnose(cfg).await)
}

/// Most a single read returns, so a huge log never stalls the page.
const LOG_CHUNK: u64 = 256 * 1024;

/// Reads an extension's log from `offset`; a shrunk file starts over.
#[tauri::command]
pub async fn ext_log_read(
    state: State<'_, Desktop>,
    name: String,
    offset: u64,
) -> IpcResult<LogChunk> {
    let path = logs::log_file(&state.ctx.zot_home, &state.cwd(), &name)
        .map_err(|e| IpcError::new("log", e))?;
    let (text, offset) = logs::read_chunk(&path, offset, LOG_CHUNK)
        .map_err(|e| IpcError::new("log", format!("cannot read {}: {e}", path.display())))?;
    Ok(LogChunk {
        path: path.display().to_string(),
        text,
        offset,
    })
}

/// Opens a log with the desktop's default app (or its folder when the file
/// is missing). Only paths under `$ZOT_HOME/logs` are opened.
#[tauri::command]
pub fn ext_log_open(app: AppHandle, state: State<'_, Desktop>, path: String) -> IpcResult<()> {
    let logs_dir = state.ctx.zot_home.join("logs");
    let wanted = PathBuf::from(&path);
    let target = if wanted.is_file() {
        wanted.clone()
    } else {
        logs_dir.clone()
    };
    let inside = target
        .canonicalize()
        .ok()
        .zip(logs_dir.canonicalize().ok())
        .is_some_and(|(t, l)| t.starts_with(l));
    if !inside {
        return Err(IpcError::new(
            "log",
            format!(
                "{path} is not an extension log under {}",
                logs_dir.display()
            ),
        ));
    }
    open_path(&app, &target)
}

#[allow(deprecated)] // `Shell::open` is the plugin's Rust-side opener; the page cannot reach it.
fn open_path(app: &AppHandle, path: &std::path::Path) -> IpcResult<()> {
    use tauri_plugin_shell::ShellExt;
    app.shell()
        .open(path.display().to_string(), None)
        .map_err(|e| IpcError::new("open", format!("cannot open {}: {e}", path.display())))
}

/// Debug builds only: a folder that [`pick_folder`] returns without opening
/// the native dialog, so the E2E suite can drive the actions behind it
/// (WebDriver cannot reach a GTK dialog). A release binary has no such
/// variable at all.
#[cfg(debug_assertions)]
pub const TEST_PICK_FOLDER: &str = "ZOT_TEST_PICK_FOLDER";

/// A native folder picker for "install from a folder", "New extension…"
/// and "Develop a folder…"; `None` when cancelled.
#[tauri::command]
pub async fn pick_folder(app: AppHandle) -> IpcResult<Option<String>> {
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os(TEST_PICK_FOLDER) {
        return Ok(Some(PathBuf::from(dir).display().to_string()));
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Choose an extension folder")
        .pick_folder(move |dir| {
            let _ = tx.send(dir);
        });
    let picked = rx
        .await
        .map_err(|_| IpcError::new("dialog", "the folder picker closed unexpectedly"))?;
    Ok(picked
        .and_then(|p| p.into_path().ok())
        .map(|p| p.display().to_string()))
}

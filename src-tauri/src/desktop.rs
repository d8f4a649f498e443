//! The desktop window: a Tauri shell around the same backend the headless
//! modes use. This module is glue (CONTRIBUTING.md "The app crate is glue"): it starts the backend
//! without waiting for extensions, forwards its events to the page, and
//! exposes a few commands that call the backend or the host's management
//! library. No agent or extension logic lives here.

mod bridge;
mod commands;
mod drop;
mod error;
mod first_theme;
mod manager;
mod notify;
mod pace;
mod panel_frame;
mod panel_window;
mod project;
mod renderer;
mod settings;
#[cfg(target_os = "linux")]
mod webkit_memory;

use std::path::PathBuf;

use tauri::{Manager, RunEvent};
use tokio::sync::watch;

use crate::backend::{Backend, BackendOptions};
use crate::projects::switch::Projects;
use crate::signals::Signals;

use error::{IpcError, IpcResult};

/// What the manager and settings commands need to know about this run.
#[derive(Debug, Clone)]
pub(crate) struct RunContext {
    /// `$ZOT_HOME`.
    pub zot_home: PathBuf,
    /// Provider at start.
    pub provider: String,
    /// Model at start.
    pub model: String,
    /// `--api-key`, which wins over auth.json (for the key hint).
    pub api_key: Option<String>,
}

impl RunContext {
    fn from_options(o: &BackendOptions) -> Self {
        RunContext {
            zot_home: o.zot_home.clone(),
            provider: o.provider.as_str().to_string(),
            model: o.model_or_default(),
            api_key: o.api_key.clone(),
        }
    }
}

/// State shared by every command.
pub(crate) struct Desktop {
    /// The current project and its backend (swapped by "Open folder…").
    pub projects: Projects,
    /// Flipped by `ui_ready`; the event bridge holds events until then.
    ui_ready: watch::Sender<bool>,
    /// This run's paths and names.
    pub ctx: RunContext,
}

impl Desktop {
    /// The backend, waiting for its start (which never waits on extensions).
    pub async fn backend(&self) -> IpcResult<Backend> {
        let mut rx = self.projects.subscribe();
        let got = rx
            .wait_for(|b| b.is_some())
            .await
            .map_err(|_| IpcError::new("backend", "the backend is gone; restart zot"))?;
        match got.as_ref() {
            Some(Ok(b)) => Ok(b.clone()),
            Some(Err(e)) => Err(IpcError::new("backend", e)),
            None => unreachable!("wait_for returned without a value"),
        }
    }

    /// The current project folder (project-local extensions live under it).
    pub fn cwd(&self) -> PathBuf {
        self.projects.cwd()
    }

    /// Reloads extensions after a manager action, so the change shows at once.
    pub async fn reload(&self) -> IpcResult<()> {
        let backend = self.backend().await?;
        backend
            .handle(zot_ext_protocol::rpc::RpcCommand::Command {
                name: "reload-ext".into(),
                args: String::new(),
            })
            .await
            .map(|_| ())
            .map_err(|e| IpcError::new("reload", e))
    }
}

/// Opens the window and runs until it closes; returns the exit code.
pub fn run(opts: BackendOptions) -> i32 {
    // Before any thread starts or WebKit reads its environment.
    renderer::apply();
    // Before Tauri builds the window's web context.
    #[cfg(target_os = "linux")]
    webkit_memory::install();
    let ctx = RunContext::from_options(&opts);
    let theme = crate::settings::theme(&ctx.zot_home);
    let (ready_tx, ready_rx) = watch::channel(false);
    let desktop = Desktop {
        projects: Projects::new(opts.clone()),
        ui_ready: ready_tx,
        ctx,
    };

    let app = tauri::Builder::default()
        .plugin(tauri_plugin_shell::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(first_theme::init(&theme))
        .manage(desktop)
        .manage(panel_frame::PanelFrames::default())
        .manage(panel_window::PanelWindows::default())
        .register_uri_scheme_protocol(panel_frame::SCHEME, panel_frame::serve)
        .invoke_handler(tauri::generate_handler![
            commands::rpc,
            commands::ui_ready,
            commands::dialog_open_url,
            commands::app_open_link,
            manager::ext_install,
            manager::ext_accept_permissions,
            manager::ext_catalog,
            manager::ext_new,
            manager::ext_develop,
            manager::ext_dev_folders,
            manager::ext_set_enabled,
            manager::ext_remove,
            manager::ext_add_mcp,
            manager::ext_doctor,
            manager::ext_log_read,
            manager::ext_log_open,
            manager::pick_folder,
            settings::settings_get,
            settings::settings_save,
            settings::themes_list,
            settings::panel_placements,
            settings::panel_placement_set,
            settings::dock_sizes,
            settings::dock_sizes_set,
            panel_frame::panel_frame_open,
            panel_frame::panel_frame_close,
            panel_window::panel_window_open,
            panel_window::panel_window_close,
            panel_window::panel_window_sync,
            panel_window::panel_window_ready,
            panel_window::panel_window_action,
            project::project_open,
            project::project_current,
            project::projects_recent,
            project::project_forget,
            drop::dropped_paths,
        ])
        .setup(move |app| {
            // SIGINT, SIGTERM and SIGHUP close the app like its window's
            // close button: `RunEvent::Exit` below shuts extensions down.
            let on_signal = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                match Signals::install() {
                    Ok(mut signals) => {
                        let sig = signals.recv().await;
                        eprintln!("zot: {}: shutting down", sig.name());
                        on_signal.exit(sig.exit_code());
                    }
                    Err(e) => eprintln!("zot: cannot install signal handlers ({e}); Ctrl-C will not stop extensions cleanly"),
                }
            });
            #[cfg(target_os = "linux")]
            if !webkit_memory::applied() {
                eprintln!("zot: WebKit's memory check could not be slowed down; the page may stall for a frame every 30 s");
            }
            let handle = app.handle().clone();
            project::set_title(&handle, &opts.cwd);
            tauri::async_runtime::spawn(async move {
                let state = handle.state::<Desktop>();
                match Backend::start(opts).await {
                    Ok((backend, events)) => {
                        state.projects.set_initial(Ok(backend));
                        bridge::forward(handle.clone(), events, ready_rx).await;
                    }
                    Err(e) => {
                        let message = format!("zot could not start its backend: {e:#}");
                        eprintln!("{message}");
                        state.projects.set_initial(Err(message));
                    }
                }
            });
            Ok(())
        })
        .build(tauri::generate_context!());

    let app = match app {
        Ok(app) => app,
        Err(e) => {
            eprintln!("zot: cannot open the window: {e} (is a display available? try `zot --mode rpc` headless)");
            return 1;
        }
    };
    app.run_return(|handle, event| {
        if let RunEvent::WindowEvent {
            label,
            event: tauri::WindowEvent::Destroyed,
            ..
        } = &event
        {
            // The app is its main window: its panel windows go with it.
            if label == "main" {
                panel_window::main_closed(handle);
            }
        }
        if let RunEvent::Exit = event {
            // Panel windows still open come back where they are now.
            panel_window::save_open(handle);
            // Extensions get their shutdown frame and grace before we go.
            let state = handle.state::<Desktop>();
            tauri::async_runtime::block_on(state.projects.shutdown());
        }
    })
}

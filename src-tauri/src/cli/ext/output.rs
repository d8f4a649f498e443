//! Small pieces of terminal behaviour the subcommands share: clone progress
//! that redraws in place on a terminal and stays terse in a pipe, and the
//! Ctrl-C handler that turns an interrupt into a clean cancel.

use std::io::{IsTerminal, Write};

use zot_ext_host::install::{Cancel, Progress};

/// Prints install progress to stderr.
pub(super) struct ProgressPrinter {
    /// Redraw one line in place (a terminal) or print each stage once.
    tty: bool,
    /// The last git stage printed (`Receiving objects`), in pipe mode.
    stage: String,
    /// Whether an in-place line is open and needs a newline.
    open_line: bool,
}

impl ProgressPrinter {
    /// A printer for this process's stderr.
    pub(super) fn new() -> Self {
        ProgressPrinter {
            tty: std::io::stderr().is_terminal(),
            stage: String::new(),
            open_line: false,
        }
    }

    /// Shows one progress step.
    pub(super) fn show(&mut self, progress: &Progress) {
        let mut err = std::io::stderr();
        match progress {
            Progress::Copying { from } => {
                let _ = writeln!(err, "copying {}", from.display());
            }
            Progress::Cloning { url } => {
                let _ = writeln!(err, "cloning {url} (shallow)");
            }
            Progress::Unpacking { from } => {
                let _ = writeln!(err, "unpacking {from}");
            }
            Progress::Git(line) if self.tty => {
                let _ = write!(err, "\r\x1b[K  {line}");
                let _ = err.flush();
                self.open_line = true;
            }
            Progress::Git(line) => {
                // In a pipe, one line per stage instead of every percentage.
                let stage = line.split(':').next().unwrap_or(line).to_string();
                if stage != self.stage {
                    let _ = writeln!(err, "  {line}");
                    self.stage = stage;
                }
            }
            Progress::Validating => {
                self.finish();
                let _ = writeln!(err, "checking extension.json");
            }
        }
    }

    /// Ends an in-place line.
    pub(super) fn finish(&mut self) {
        if self.open_line {
            eprintln!();
            self.open_line = false;
        }
    }
}

/// The exit code after an interrupt, as shells expect (128 + SIGINT).
pub(super) fn interrupted_code() -> i32 {
    130
}

/// Sets `cancel` on Ctrl-C or SIGTERM while the returned runtime lives.
/// The handlers are registered before this returns, so no early interrupt
/// is lost.
pub(super) fn on_interrupt(cancel: Cancel) -> std::io::Result<tokio::runtime::Runtime> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let _enter = runtime.enter();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut int = signal(SignalKind::interrupt())?;
        let mut term = signal(SignalKind::terminate())?;
        runtime.spawn(async move {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
            cancel.cancel();
        });
    }
    #[cfg(not(unix))]
    runtime.spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.cancel();
        }
    });
    drop(_enter);
    Ok(runtime)
}

/// The wire spelling of a unit enum (`global`, `ready`, `auto_ready`…), so
/// text output uses the same words as `--json`.
pub(super) fn word(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "?".into(),
    }
}

/// Left-aligned columns separated by two spaces; the last column is not
/// padded so long paths do not leave trailing blanks.
pub(super) fn table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let rows: Vec<Vec<String>> = std::iter::once(header.iter().map(|h| h.to_string()).collect())
        .chain(rows)
        .collect();
    let mut widths = vec![0; header.len()];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let last = row.len() - 1;
        for (i, cell) in row.iter().enumerate() {
            if i == last {
                out.push_str(cell);
            } else {
                out.push_str(&format!("{cell:<width$}  ", width = widths[i]));
            }
        }
        out.push('\n');
    }
    out
}

/// Writes `text` to stdout. A reader that went away (`zot ext list | head`)
/// is not an error: the command already did its work.
pub(super) fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

// The one door between the UI and zot's backend. Components and state never
// call Tauri directly: they get a `Backend`, which is the real IPC in the
// app (tauri.ts) and an in-memory fake in tests and in a plain browser.
import type { RpcCommand } from "../bindings/RpcCommand";
import type { UiEvent } from "../bindings/UiEvent";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { CatalogEntry } from "../bindings/CatalogEntry";

/** An IPC failure, decoded in one place (errors.ts). */
export interface BackendError {
  code: string;
  message: string;
}

/** One step of an install, for the progress line. */
export interface InstallProgress {
  source: string;
  message: string;
}

/** What an install put on disk and what it will register once enabled. */
export interface InstallSummary {
  name: string;
  version?: string | null;
  dir: string;
  description?: string | null;
  /** What it registered when zot started it once, alone, after copying. */
  commands: string[];
  tools: string[];
  themes: string[];
  /** Why that trial start failed (with the log path), if it did. */
  problem?: string | null;
}

/** What "Develop a folder…" started (`ext_develop`). */
export interface DevelopSummary {
  /** The folder, resolved; its card is marked "dev". */
  dir: string;
  /** Extensions ready after the reload that started it. */
  ready: number;
  /** Load errors of that reload, each with its log path. */
  errors: string[];
}

/** New text of a log file from `offset`, for the live viewer. */
export interface LogChunk {
  path: string;
  text: string;
  /** Where the next read starts. */
  offset: number;
}

/** Provider, model, key hint and theme, as the settings view shows them. */
export interface Settings {
  provider: string;
  model: string;
  /** e.g. `sk-…a1b2`; never the whole key. `null` when none is set. */
  key_hint: string | null;
  theme: string;
  providers: string[];
}

/** A change from the settings view; absent fields stay as they are. */
export interface SettingsUpdate {
  provider?: string;
  model?: string;
  api_key?: string;
  theme?: string;
}

/** Everything the UI asks of zot. */
export interface Backend {
  /** One rpc.md command; resolves with its `data`. */
  rpc(cmd: RpcCommand): Promise<unknown>;
  /** Subscribes to the single UiEvent stream; resolves to an unsubscribe. */
  onEvent(handler: (e: UiEvent) => void): Promise<() => void>;
  /** Tells the backend the UI listens, so it flushes events held since start. */
  uiReady(): Promise<void>;
  /** Installs from a folder, a git URL or a catalog name; the extension stays disabled. */
  install(source: string, onProgress: (p: InstallProgress) => void): Promise<InstallSummary>;
  /** Scaffolds `parent/name` (`zot ext new`); resolves to its folder. */
  newExtension(name: string, lang: string, panel: boolean, parent: string): Promise<string>;
  /** Loads a working copy as a dev extension with live reload, for this run. */
  develop(dir: string): Promise<DevelopSummary>;
  /** The folders developed with live reload (Develop a folder…, or `--ext` with `--watch`). */
  devFolders(): Promise<string[]>;
  /** The extensions zot ships (`zot ext catalog`), each checked. */
  catalog(): Promise<CatalogEntry[]>;
  /** Enables or disables an extension (by name), then reloads. */
  setEnabled(name: string, enabled: boolean): Promise<void>;
  /** Removes an installed extension, then reloads. */
  remove(name: string): Promise<void>;
  /** The `zot ext doctor` report (the host's DoctorReport, as `--json` gives it). */
  doctor(): Promise<unknown>;
  /** Reads an extension's log from `offset` (follow by calling again). */
  readLog(name: string, offset: number): Promise<LogChunk>;
  /** Opens a log file (or its folder) with the desktop's default app. */
  openLog(path: string): Promise<void>;
  /** A native folder picker; `null` when cancelled. */
  pickFolder(): Promise<string | null>;
  /** Current settings (the key only as a hint). */
  getSettings(): Promise<Settings>;
  /** Saves settings; the key goes to auth.json (0600), the theme to config.json. */
  saveSettings(update: SettingsUpdate): Promise<Settings>;
  /** Themes from theme-only extensions (built-ins live in the UI). */
  listThemes(): Promise<ThemeFile[]>;
}

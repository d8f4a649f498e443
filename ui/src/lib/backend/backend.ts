// The one door between the UI and zot's backend. Components and state never
// call Tauri directly: they get a `Backend`, which is the real IPC in the
// app (tauri.ts) and an in-memory fake in tests and in a plain browser.
import type { PanelSnapshot, PanelWindowAction, PanelWindowNote } from "../panels/windowSync";
import type { DevelopSummary } from "../bindings/DevelopSummary";
import type { InstallProgress } from "../bindings/InstallProgress";
import type { InstallSummary } from "../bindings/InstallSummary";
import type { LogChunk } from "../bindings/LogChunk";
import type { PanelPlacementChoice } from "../bindings/PanelPlacementChoice";
import type { PanelFrameOpen } from "../bindings/PanelFrameOpen";
import type { DoctorReport } from "../bindings/DoctorReport";
import type { ErrorCode } from "../bindings/ErrorCode";
import type { RpcCommand } from "../bindings/RpcCommand";
import type { RpcResultOf } from "../bindings/RpcResultOf";
import type { Settings } from "../bindings/Settings";
import type { SettingsUpdate } from "../bindings/SettingsUpdate";
import type { UiEvent } from "../bindings/UiEvent";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { CatalogEntry } from "../bindings/CatalogEntry";

/** What each rpc.md command answers: generated from the protocol crate's
 * command table (extensions/protocol/src/rpc_commands.rs). */
export type { RpcResultOf };

// Fails to compile when a command has no row in the generated table (the
// protocol crate's own test fails first).
type Unmapped = Exclude<RpcCommand["type"], keyof RpcResultOf>;
const everyCommandHasAResult: [Unmapped] extends [never] ? true : Unmapped = true;
void everyCommandHasAResult;

/** An IPC failure, decoded in one place (errors.ts): a command's
 * `ErrorCode` (`invalid`, `not_found`, `denied`, `busy`, `failed`), a
 * desktop operation's own code (`install`, `io`, …), or `error` when
 * Tauri itself refused. */
export interface BackendError {
  code: ErrorCode | (string & {});
  message: string;
}

// The manager's and the settings view's shapes are generated from the
// protocol crate (extensions/protocol/src/desktop.rs).
export type { DevelopSummary, InstallProgress, InstallSummary, LogChunk, Settings, SettingsUpdate };

/** Everything the UI asks of zot. */
export interface Backend {
  /** One rpc.md command; resolves with its typed `data`. */
  rpc<C extends RpcCommand>(cmd: C): Promise<RpcResultOf[C["type"]]>;
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
  /** Accepts the permissions an extension asks for now (an update asked for
   * more, so it did not start), then reloads (`zot ext accept`). */
  acceptPermissions(name: string): Promise<void>;
  /** Adds an MCP server entry (`mcpServers` format, as JSON) named `name`, then reloads. */
  addMcp(name: string, entry: string): Promise<void>;
  /** The `zot ext doctor` report (the host's DoctorReport, as `--json` gives it). */
  doctor(): Promise<DoctorReport>;
  /** Reads an extension's log from `offset` (follow by calling again). */
  readLog(name: string, offset: number): Promise<LogChunk>;
  /** Opens a log file (or its folder) with the desktop's default app. */
  openLog(path: string): Promise<void>;
  /** Accepts the waiting `url` dialog `requestId` (an MCP server's
   * URL-mode elicitation) and opens its address in the browser: the page
   * never opens an address itself. */
  openDialogUrl(requestId: string): Promise<void>;
  /** Opens an http(s) address an MCP App asked for, once the user
   * confirmed it in the app's card. */
  appOpenLink(url: string): Promise<void>;
  /** A native folder picker; `null` when cancelled. */
  pickFolder(): Promise<string | null>;
  /** Current settings (the key only as a hint). */
  getSettings(): Promise<Settings>;
  /** Saves settings; the key goes to auth.json (0600), the theme to config.json. */
  saveSettings(update: SettingsUpdate): Promise<Settings>;
  /** Themes from theme-only extensions (built-ins live in the UI). */
  listThemes(): Promise<ThemeFile[]>;
  /** Where the user put each panel (remembered per extension and panel id). */
  panelPlacements(): Promise<PanelPlacementChoice[]>;
  /** Remembers where the user put one panel. */
  setPanelPlacement(choice: PanelPlacementChoice): Promise<void>;
  /** Hands an HTML panel's page to the frame server under its token
   * (`zotpanel://localhost/<token>`: panels/frames.ts). */
  panelFrameOpen(frame: PanelFrameOpen): Promise<void>;
  /** Forgets a closed HTML panel's page. */
  panelFrameClose(token: string): Promise<void>;
  /** How big the user made the docks (remembered across restarts). */
  dockSizes(): Promise<DockSizes>;
  /** Remembers a dock's new size; the other is kept. */
  setDockSizes(sizes: DockSizes): Promise<DockSizes>;
  /** This page's window label (`main`, or `panel-…` for a panel's own
   * window: panels/windowSync.ts). */
  windowLabel(): string;
  /** Main window: opens (or brings to the front) the OS window of
   * `extension`'s panel `panelId`, where it was last. */
  panelWindowOpen(extension: string, panelId: string, title: string): Promise<void>;
  /** Main window: closes that panel's OS window (none is fine). */
  panelWindowClose(extension: string, panelId: string): Promise<void>;
  /** Main window: sends a panel window its panel. */
  panelWindowSync(snapshot: PanelSnapshot): Promise<void>;
  /** Main window: what the panel windows say (ready, closed, close, move). */
  onPanelWindowNote(handler: (n: PanelWindowNote) => void): Promise<() => void>;
  /** Panel window: its panel, each time the main window sends it. */
  onPanelSync(handler: (s: PanelSnapshot) => void): Promise<() => void>;
  /** Panel window: its page listens; the main window will send the panel. */
  panelWindowReady(): Promise<void>;
  /** Panel window: the main window closes or moves its panel. */
  panelWindowAction(action: PanelWindowAction): Promise<void>;
  /** Opens `path` (or, with `null`, the folder the user picks) as the
   * project: the backend restarts there. `null` when the picker was
   * cancelled; rejects (nothing changed) for a folder that cannot be one. */
  openProject(path: string | null): Promise<ProjectInfo | null>;
  /** The project this window works in. */
  currentProject(): Promise<ProjectInfo>;
  /** Recent projects, newest first ($ZOT_HOME/recent.json). */
  recentProjects(): Promise<RecentProject[]>;
  /** Removes a folder from the recent list. */
  forgetProject(path: string): Promise<void>;
  /** Called after the backend switched project (the page then reloads). */
  onProjectChanged(handler: (p: ProjectInfo) => void): Promise<() => void>;
  /** Files dragged over and dropped on the window (the native drop, which
   * carries paths); resolves to an unsubscribe. */
  onFileDrop(handler: (e: FileDrop) => void): Promise<() => void>;
  /** What dropped paths ask for: a folder to open, or images, read and
   * checked with the prompt's rules (src-tauri/src/dropped.rs). */
  droppedPaths(paths: string[]): Promise<Dropped>;
}

/** The docks' sizes in CSS px (src-tauri/src/dock_sizes.rs); absent is
 * "never sized by the user". */
export interface DockSizes {
  side_width?: number;
  bottom_height?: number;
}

/** Files dragged over the window, gone, or dropped. */
export type FileDrop = { type: "hover" } | { type: "leave" } | { type: "drop"; paths: string[] };

/** An image read from a dropped file. */
export interface DroppedImage {
  name: string;
  mime_type: string;
  /** Base64. */
  data: string;
  bytes: number;
}

/** What a drop asks for; `refused` names each file left out, and why. */
export type Dropped =
  { kind: "folder"; path: string } | { kind: "images"; images: DroppedImage[]; refused: string[] };

/** A project folder and its display name. */
export interface ProjectInfo {
  path: string;
  name: string;
}

/** One row of the recent list; `missing` folders are shown greyed. */
export interface RecentProject extends ProjectInfo {
  missing: boolean;
}

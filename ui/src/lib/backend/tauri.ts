// The real backend: Tauri IPC. Command names mirror the Rust side
// (src-tauri/src/desktop/commands.rs); events arrive on one channel.
import { invoke, Channel } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { getCurrentWebviewWindow } from "@tauri-apps/api/webviewWindow";
import type { DoctorReport } from "../bindings/DoctorReport";
import type { PanelSnapshot, PanelWindowAction, PanelWindowNote } from "../panels/windowSync";
import type { RpcCommand } from "../bindings/RpcCommand";
import type { UiEvent } from "../bindings/UiEvent";
import type { PanelPlacementChoice } from "../bindings/PanelPlacementChoice";
import type { PanelFrameOpen } from "../bindings/PanelFrameOpen";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { CatalogEntry } from "../bindings/CatalogEntry";
import type {
  Backend,
  DevelopSummary,
  InstallProgress,
  RpcResultOf,
  InstallSummary,
  LogChunk,
  Settings,
  SettingsUpdate,
  ProjectInfo,
  RecentProject,
  Dropped,
  DockSizes,
  FileDrop,
} from "./backend";

/** The Tauri event every UiEvent travels on. */
export const UI_EVENT = "zot://ui-event";
/** Sent after a project switch (src-tauri/src/desktop/project.rs). */
export const PROJECT_EVENT = "zot://project-changed";
/** To the main window about a panel window, and to a panel window with its
 * panel (src-tauri/src/desktop/panel_window.rs). */
export const PANEL_WINDOW_EVENT = "zot://panel-window";
export const PANEL_SYNC_EVENT = "zot://panel-sync";

/** Backend over Tauri IPC. */
export class TauriBackend implements Backend {
  rpc<C extends RpcCommand>(cmd: C): Promise<RpcResultOf[C["type"]]> {
    return invoke<RpcResultOf[C["type"]]>("rpc", { cmd });
  }
  async onEvent(handler: (e: UiEvent) => void): Promise<() => void> {
    return listen<UiEvent>(UI_EVENT, (ev) => handler(ev.payload));
  }
  openProject(path: string | null): Promise<ProjectInfo | null> {
    return invoke("project_open", { path });
  }
  currentProject(): Promise<ProjectInfo> {
    return invoke("project_current");
  }
  recentProjects(): Promise<RecentProject[]> {
    return invoke("projects_recent");
  }
  forgetProject(path: string): Promise<void> {
    return invoke("project_forget", { path });
  }
  async onProjectChanged(handler: (p: ProjectInfo) => void): Promise<() => void> {
    return listen<ProjectInfo>(PROJECT_EVENT, (ev) => handler(ev.payload));
  }
  async onFileDrop(handler: (e: FileDrop) => void): Promise<() => void> {
    return getCurrentWebview().onDragDropEvent(({ payload: p }) => {
      if (p.type === "drop") handler({ type: "drop", paths: p.paths });
      else handler({ type: p.type === "leave" ? "leave" : "hover" });
    });
  }
  droppedPaths(paths: string[]): Promise<Dropped> {
    return invoke("dropped_paths", { paths });
  }
  uiReady(): Promise<void> {
    return invoke("ui_ready");
  }
  install(source: string, onProgress: (p: InstallProgress) => void): Promise<InstallSummary> {
    const progress = new Channel<InstallProgress>();
    progress.onmessage = onProgress;
    return invoke("ext_install", { source, progress });
  }
  newExtension(name: string, lang: string, panel: boolean, parent: string): Promise<string> {
    return invoke("ext_new", { name, lang, panel, parent });
  }
  develop(dir: string): Promise<DevelopSummary> {
    return invoke("ext_develop", { dir });
  }
  devFolders(): Promise<string[]> {
    return invoke("ext_dev_folders");
  }
  catalog(): Promise<CatalogEntry[]> {
    return invoke("ext_catalog");
  }
  setEnabled(name: string, enabled: boolean): Promise<void> {
    return invoke("ext_set_enabled", { name, enabled });
  }
  remove(name: string): Promise<void> {
    return invoke("ext_remove", { name });
  }
  acceptPermissions(name: string): Promise<void> {
    return invoke("ext_accept_permissions", { name });
  }
  addMcp(name: string, entry: string): Promise<void> {
    return invoke("ext_add_mcp", { name, entry });
  }
  doctor(): Promise<DoctorReport> {
    return invoke<DoctorReport>("ext_doctor");
  }
  readLog(name: string, offset: number): Promise<LogChunk> {
    return invoke("ext_log_read", { name, offset });
  }
  openLog(path: string): Promise<void> {
    return invoke("ext_log_open", { path });
  }
  appOpenLink(url: string): Promise<void> {
    return invoke("app_open_link", { url });
  }
  openDialogUrl(requestId: string): Promise<void> {
    return invoke("dialog_open_url", { requestId });
  }
  pickFolder(): Promise<string | null> {
    return invoke("pick_folder");
  }
  getSettings(): Promise<Settings> {
    return invoke("settings_get");
  }
  saveSettings(update: SettingsUpdate): Promise<Settings> {
    return invoke("settings_save", { update });
  }
  listThemes(): Promise<ThemeFile[]> {
    return invoke("themes_list");
  }
  panelPlacements(): Promise<PanelPlacementChoice[]> {
    return invoke("panel_placements");
  }
  setPanelPlacement(choice: PanelPlacementChoice): Promise<void> {
    return invoke("panel_placement_set", { choice });
  }
  panelFrameOpen(frame: PanelFrameOpen): Promise<void> {
    return invoke("panel_frame_open", { frame });
  }
  panelFrameClose(token: string): Promise<void> {
    return invoke("panel_frame_close", { token });
  }
  dockSizes(): Promise<DockSizes> {
    return invoke("dock_sizes");
  }
  setDockSizes(sizes: DockSizes): Promise<DockSizes> {
    return invoke("dock_sizes_set", { sizes });
  }
  windowLabel(): string {
    return getCurrentWebviewWindow().label;
  }
  async panelWindowOpen(extension: string, panelId: string, title: string): Promise<void> {
    await invoke("panel_window_open", { extension, panelId, title });
  }
  panelWindowClose(extension: string, panelId: string): Promise<void> {
    return invoke("panel_window_close", { extension, panelId });
  }
  panelWindowSync(snapshot: PanelSnapshot): Promise<void> {
    return invoke("panel_window_sync", {
      extension: snapshot.extension,
      panelId: snapshot.panel_id,
      panel: snapshot,
    });
  }
  onPanelWindowNote(handler: (n: PanelWindowNote) => void): Promise<() => void> {
    return getCurrentWebviewWindow().listen<PanelWindowNote>(PANEL_WINDOW_EVENT, (ev) => handler(ev.payload));
  }
  onPanelSync(handler: (s: PanelSnapshot) => void): Promise<() => void> {
    return getCurrentWebviewWindow().listen<PanelSnapshot>(PANEL_SYNC_EVENT, (ev) => handler(ev.payload));
  }
  panelWindowReady(): Promise<void> {
    return invoke("panel_window_ready");
  }
  panelWindowAction(action: PanelWindowAction): Promise<void> {
    return invoke("panel_window_action", { action });
  }
}

/** Whether the page runs inside the Tauri webview. */
export function inTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

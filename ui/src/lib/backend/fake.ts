// An in-memory backend for unit tests and for opening the UI in a plain
// browser (`npm run dev`). It records every call and lets a test push
// UiEvents as if the real backend had sent them.
import type { DoctorReport } from "../bindings/DoctorReport";
import type { PanelSnapshot, PanelWindowAction, PanelWindowNote } from "../panels/windowSync";
import type { ErrorCode } from "../bindings/ErrorCode";
import type { CheckpointPreviewResult } from "../bindings/CheckpointPreviewResult";
import type { RememberedRule } from "../bindings/RememberedRule";
import type { RpcCommand } from "../bindings/RpcCommand";
import type { UiEvent } from "../bindings/UiEvent";
import type { PanelPlacementChoice } from "../bindings/PanelPlacementChoice";
import type { PanelFrameOpen } from "../bindings/PanelFrameOpen";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { ExtensionSummary } from "../bindings/ExtensionSummary";
import type { UpdateInfo } from "../bindings/UpdateInfo";
import type { CatalogEntry } from "../bindings/CatalogEntry";
import type { ExtConfigResult } from "../bindings/ExtConfigResult";
import type { SettingSpec } from "../bindings/SettingSpec";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type {
  Backend,
  DevelopSummary,
  InstallProgress,
  RpcResultOf,
  InstallSummary,
  LogChunk,
  Settings,
  ProjectInfo,
  RecentProject,
  SettingsUpdate,
  Dropped,
  FileDrop,
  DockSizes,
} from "./backend";

/** A fake backend; `calls` records what the UI asked for. */
export class FakeBackend implements Backend {
  calls: { method: string; args: unknown }[] = [];
  extensions: ExtensionSummary[] = [];
  settings: Settings = {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    key_hint: null,
    theme: "dark",
    providers: ["anthropic", "openai", "ollama", "kimi"],
    approvals: "ask",
    notifications: { turn_end: false, approval: false, extension_crash: false },
    checkpoints_bytes: 3 * 1024 * 1024,
    update_check: false,
  };
  themes: ThemeFile[] = [];
  /** When set, `prompt` streams this reply back as events. */
  reply: string | null = "Hello from the **fake** backend.";
  #handlers = new Set<(e: UiEvent) => void>();

  /** Delivers an event to every subscriber, as the real backend would. */
  emit(e: UiEvent): void {
    for (const h of this.#handlers) h(e);
  }

  /** The rules remembered in config.json, as `approval_rules` lists them. */
  rules: RememberedRule[] = [];
  /** What `ext_update` finds; an update removes its entry. */
  updatesAvailable: UpdateInfo[] = [];

  /** When set, `approve_tool` fails with this message (and code: zot's
   * `ErrorCode`, `failed` unless given). */
  approveError: string | null = null;
  approveErrorCode: ErrorCode = "failed";
  /** Settings per extension, as the host stores them (secrets in full, as
   * the keychain would hold them); answers are masked like the host's. */
  config: Record<
    string,
    { schema: Record<string, SettingSpec>; order: string[]; values: Record<string, JsonValue> }
  > = {};

  #configView(name: string, delivered?: boolean): ExtConfigResult {
    const c = this.config[name];
    if (!c) throw { code: "ext_config", message: `no extension '${name}'` };
    const values: Record<string, JsonValue> = {};
    const missing: string[] = [];
    for (const k of c.order) {
      const spec = c.schema[k];
      const v = c.values[k] ?? spec?.default;
      if (v === undefined || v === null) {
        if (spec?.required) missing.push(k);
        continue;
      }
      values[k] = spec?.sensitive && typeof v === "string" ? "••••" + (v.length >= 12 ? v.slice(-4) : "") : v;
    }
    return {
      name,
      values,
      schema: c.schema,
      order: c.order,
      missing,
      secret_store: "keychain",
      warnings: [],
      delivered,
    };
  }

  /** What `checkpoint_preview` answers; tests replace it. */
  preview: CheckpointPreviewResult = {
    checkpoint: "cp-1",
    message_index: 0,
    files: [{ path: "a.txt", change: "modified", outside: false, now: "two\n", then: "one\n" }],
    outside: 0,
  };
  #prompts = 0;

  /** The state an `ext_restart` answers; tests replace it. */
  restartState: "ready" | "failed" | "crashed" = "ready";

  async rpc<C extends RpcCommand>(cmd: C): Promise<RpcResultOf[C["type"]]> {
    this.calls.push({ method: "rpc", args: cmd });
    // A test double answers only what the UI reads of each result.
    return this.#data(cmd) as RpcResultOf[C["type"]];
  }

  #data(cmd: RpcCommand): unknown {
    switch (cmd.type) {
      case "ext_list":
        return { extensions: this.extensions };
      case "ext_restart":
        return { name: cmd.name, state: this.restartState };
      case "ext_update": {
        if (cmd.daily) {
          if (!this.settings.update_check)
            throw { code: "backend", message: "the daily update check is off" };
          return { updates: [...this.updatesAvailable], checked_at: 1_800_000_000 };
        }
        const hit = this.updatesAvailable.filter((u) => !cmd.name || u.name === cmd.name);
        if (cmd.check) return { updates: hit };
        this.updatesAvailable = this.updatesAvailable.filter((u) => !hit.includes(u));
        return { updates: hit.map((u) => ({ ...u, installed: true })) };
      }
      case "ext_rollback":
        return { name: cmd.name, from: "1.1.0", to: "1.0.0" };
      case "approve_tool":
        if (this.approveError) throw { code: this.approveErrorCode, message: this.approveError };
        return { id: cmd.id, decision: cmd.decision, remembered: cmd.remember ? "the rule" : undefined };
      case "approval_rules":
        return { rules: this.rules };
      case "approval_rule_forget": {
        const at = this.rules.findIndex(
          (r) =>
            r.kind === cmd.rule.kind &&
            r.value === cmd.rule.value &&
            r.tool === cmd.rule.tool &&
            r.extension === cmd.rule.extension,
        );
        if (at < 0)
          throw {
            code: "backend",
            message:
              "approval_rule_forget: config.json has no such rule; list the rules again with approval_rules",
          };
        this.rules.splice(at, 1);
        return { rules: this.rules };
      }
      case "ext_config_get":
        return this.#configView(cmd.name);
      case "ext_config_set": {
        const c = this.config[cmd.name];
        if (!c) throw { code: "ext_config", message: `no extension '${cmd.name}'` };
        for (const [k, v] of Object.entries(cmd.values)) {
          const spec = c.schema[k];
          if (!spec)
            throw { code: "ext_config", message: `setting '${k}': no such setting; nothing was stored` };
          if (spec.type === "number" && typeof v === "number" && spec.max !== undefined && v > spec.max)
            throw {
              code: "ext_config",
              message: `setting '${k}': must be at most ${spec.max}; nothing was stored`,
            };
        }
        for (const [k, v] of Object.entries(cmd.values)) {
          if (v === null) delete c.values[k];
          else if (!(typeof v === "string" && v.startsWith("••••"))) c.values[k] = v;
        }
        return this.#configView(cmd.name, true);
      }
      case "checkpoint_preview":
        return { ...this.preview, checkpoint: cmd.checkpoint };
      case "rewind":
        return {
          files: cmd.scope === "conversation" ? [] : this.preview.files.map((f) => f.path),
          ...(cmd.scope === "conversation" ? {} : { undo: "cp-undo" }),
          messages: 0,
        };
      case "fork":
        return { path: "/sessions/fork.jsonl", messages: 0, files: [] };
      case "app_tool_call":
        return { content: [{ type: "text", text: `${cmd.tool} ran` }], is_error: false };
      case "app_message":
        return { started: true };
      case "get_state":
        return { provider: this.settings.provider, model: this.settings.model, busy: false };
      case "get_models":
        return { models: [{ id: this.settings.model, provider: this.settings.provider }] };
      case "prompt":
        queueMicrotask(() => this.#answer(cmd.message));
        return { started: true };
      case "command":
        if (cmd.name === "reload-ext") {
          queueMicrotask(() =>
            this.emit({ type: "ext_reload", stopped: 0, loaded: 0, ready: 0, errors: [] }),
          );
          return {};
        }
        throw { code: "unknown_command", message: `unknown command /${cmd.name}` };
      default:
        return {};
    }
  }

  #answer(message: string): void {
    this.emit({ type: "user_message", content: message, checkpoint: `cp-${++this.#prompts}` });
    if (this.reply === null) return;
    this.emit({ type: "assistant_start" });
    for (const word of this.reply.split(/(?<= )/)) this.emit({ type: "text_delta", delta: word });
    this.emit({ type: "assistant_message", content: this.reply });
    this.emit({ type: "turn_end", stop: "end_turn" });
    this.emit({ type: "done" });
  }

  async onEvent(handler: (e: UiEvent) => void): Promise<() => void> {
    this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }
  async uiReady(): Promise<void> {
    this.calls.push({ method: "uiReady", args: null });
  }
  async install(source: string, onProgress: (p: InstallProgress) => void): Promise<InstallSummary> {
    this.calls.push({ method: "install", args: source });
    onProgress({ source, message: `copying ${source}` });
    const name = source.split("/").filter(Boolean).pop() ?? "ext";
    return {
      name,
      dir: `/zot/extensions/${name}`,
      commands: [],
      tools: [],
      themes: [],
      registers_known: false,
      settings_required: [],
      permissions: "unrestricted",
      permission_words: ["unrestricted: its manifest declares no permissions"],
      notes: [],
      replaced: false,
      enabled: false,
    };
  }
  /** What `catalog()` returns; tests replace it. */
  catalogEntries: CatalogEntry[] = [
    {
      name: "todo",
      version: "1.0.0",
      description: "a persistent todo panel (/todo) and the todo_manage tool, with the Python SDK",
      source: "extensions/todo",
      language: "python",
      registers: { commands: ["todo"], tools: ["todo_manage"], panels: ["todos-main"], themes: [] },
      permissions: ["runs python3", "reads and writes todos.json in its own folder"],
      requires_files: [],
      available: true,
      installed: false,
      signer: "signed by zot",
    },
    {
      name: "dusk",
      version: "1.0.0",
      description: "a warm dark theme (theme-only: no process runs)",
      source: "extensions/dusk",
      language: "theme",
      registers: { commands: [], tools: [], panels: [], themes: ["dusk"] },
      permissions: [],
      requires_files: [],
      available: true,
      installed: false,
      signer: "signed by zot",
    },
  ];
  async newExtension(name: string, lang: string, panel: boolean, parent: string): Promise<string> {
    this.calls.push({ method: "newExtension", args: { name, lang, panel, parent } });
    return `${parent}/${name}`;
  }
  /** Folders "developed" in this fake run. */
  dev: string[] = [];
  async develop(dir: string): Promise<DevelopSummary> {
    this.calls.push({ method: "develop", args: dir });
    if (!this.dev.includes(dir)) this.dev.push(dir);
    return { dir, ready: 1, errors: [] };
  }
  async devFolders(): Promise<string[]> {
    return [...this.dev];
  }
  async catalog(): Promise<CatalogEntry[]> {
    this.calls.push({ method: "catalog", args: null });
    return this.catalogEntries.map((e) => ({ ...e }));
  }
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    this.calls.push({ method: "setEnabled", args: { name, enabled } });
  }
  async remove(name: string): Promise<void> {
    this.calls.push({ method: "remove", args: name });
  }
  async acceptPermissions(name: string): Promise<void> {
    this.calls.push({ method: "acceptPermissions", args: name });
  }
  async addMcp(name: string, entry: string): Promise<void> {
    this.calls.push({ method: "addMcp", args: { name, entry: JSON.parse(entry) } });
  }
  async doctor(): Promise<DoctorReport> {
    return { ok: true, problems: [], manifest_errors: [], extensions: [], interception: [], conflicts: [] };
  }
  async readLog(name: string, offset: number): Promise<LogChunk> {
    return { path: `/zot/logs/ext-${name}.log`, text: offset === 0 ? "log line\n" : "", offset: 9 };
  }
  async appOpenLink(url: string): Promise<void> {
    this.calls.push({ method: "appOpenLink", args: url });
  }
  async openDialogUrl(requestId: string): Promise<void> {
    this.calls.push({ method: "openDialogUrl", args: requestId });
  }

  async openLog(path: string): Promise<void> {
    this.calls.push({ method: "openLog", args: path });
  }
  async pickFolder(): Promise<string | null> {
    return null;
  }
  project: ProjectInfo = { path: "/work/demo", name: "demo" };
  recent: RecentProject[] = [];
  async openProject(path: string | null): Promise<ProjectInfo | null> {
    this.calls.push({ method: "openProject", args: path });
    if (path === null) return null;
    if (path === "/" || path.includes("missing")) throw new Error(`cannot open ${path}`);
    this.project = { path, name: path.split("/").filter(Boolean).pop() ?? path };
    return this.project;
  }
  async currentProject(): Promise<ProjectInfo> {
    return this.project;
  }
  async recentProjects(): Promise<RecentProject[]> {
    return this.recent;
  }
  async forgetProject(path: string): Promise<void> {
    this.recent = this.recent.filter((r) => r.path !== path);
  }
  async onProjectChanged(): Promise<() => void> {
    return () => {};
  }
  /** The window's drop listener, for tests to drive. */
  fileDrop: ((e: FileDrop) => void) | null = null;
  /** What `droppedPaths` answers (a rejection when it is a string). */
  dropAnswer: Dropped | string = { kind: "images", images: [], refused: [] };
  async onFileDrop(handler: (e: FileDrop) => void): Promise<() => void> {
    this.fileDrop = handler;
    return () => (this.fileDrop = null);
  }
  async droppedPaths(paths: string[]): Promise<Dropped> {
    this.calls.push({ method: "droppedPaths", args: paths });
    if (typeof this.dropAnswer === "string") throw new Error(this.dropAnswer);
    return this.dropAnswer;
  }
  async getSettings(): Promise<Settings> {
    return { ...this.settings };
  }
  async saveSettings(update: SettingsUpdate): Promise<Settings> {
    this.calls.push({
      method: "saveSettings",
      args: { ...update, api_key: update.api_key ? "***" : undefined },
    });
    const { api_key, ...rest } = update;
    this.settings = { ...this.settings, ...rest };
    if (api_key) this.settings.key_hint = `…${api_key.slice(-4)}`;
    return { ...this.settings };
  }
  async listThemes(): Promise<ThemeFile[]> {
    return this.themes;
  }
  /** What `setPanelPlacement` remembered, as the backend's file would. */
  placements: PanelPlacementChoice[] = [];
  async panelPlacements(): Promise<PanelPlacementChoice[]> {
    return this.placements.map((c) => ({ ...c }));
  }
  /** HTML panels' pages handed over, by token. */
  frames = new Map<string, PanelFrameOpen>();
  async panelFrameOpen(frame: PanelFrameOpen): Promise<void> {
    this.frames.set(frame.token, frame);
  }
  async panelFrameClose(token: string): Promise<void> {
    this.frames.delete(token);
  }
  /** What `setDockSizes` remembered. */
  docks: DockSizes = {};
  async dockSizes(): Promise<DockSizes> {
    return { ...this.docks };
  }
  async setDockSizes(sizes: DockSizes): Promise<DockSizes> {
    this.calls.push({ method: "setDockSizes", args: sizes });
    this.docks = { ...this.docks, ...sizes };
    return { ...this.docks };
  }
  /** The window this fake page is (tests set `panel-…` for a panel window). */
  label = "main";
  windowLabel(): string {
    return this.label;
  }
  /** Panel windows open, by `extension/panel id`. */
  panelWindows = new Set<string>();
  async panelWindowOpen(extension: string, panelId: string, title: string): Promise<void> {
    this.calls.push({ method: "panelWindowOpen", args: { extension, panelId, title } });
    this.panelWindows.add(`${extension}/${panelId}`);
  }
  async panelWindowClose(extension: string, panelId: string): Promise<void> {
    this.calls.push({ method: "panelWindowClose", args: { extension, panelId } });
    this.panelWindows.delete(`${extension}/${panelId}`);
  }
  /** Snapshots sent to panel windows, in order. */
  synced: PanelSnapshot[] = [];
  async panelWindowSync(snapshot: PanelSnapshot): Promise<void> {
    this.synced.push(snapshot);
  }
  #noteHandlers: ((n: PanelWindowNote) => void)[] = [];
  async onPanelWindowNote(handler: (n: PanelWindowNote) => void): Promise<() => void> {
    this.#noteHandlers.push(handler);
    return () => (this.#noteHandlers = this.#noteHandlers.filter((h) => h !== handler));
  }
  /** Test helper: a panel window says something to the main window. */
  note(n: PanelWindowNote): void {
    for (const h of this.#noteHandlers) h(n);
  }
  #syncHandlers: ((s: PanelSnapshot) => void)[] = [];
  async onPanelSync(handler: (s: PanelSnapshot) => void): Promise<() => void> {
    this.#syncHandlers.push(handler);
    return () => (this.#syncHandlers = this.#syncHandlers.filter((h) => h !== handler));
  }
  /** Test helper: the main window sends this panel window its panel. */
  sync(s: PanelSnapshot): void {
    for (const h of this.#syncHandlers) h(s);
  }
  async panelWindowReady(): Promise<void> {
    this.calls.push({ method: "panelWindowReady", args: {} });
  }
  async panelWindowAction(action: PanelWindowAction): Promise<void> {
    this.calls.push({ method: "panelWindowAction", args: action });
  }
  async setPanelPlacement(choice: PanelPlacementChoice): Promise<void> {
    this.calls.push({ method: "setPanelPlacement", args: choice });
    this.placements = [
      ...this.placements.filter((c) => c.extension !== choice.extension || c.panel_id !== choice.panel_id),
      { ...choice },
    ];
  }
}

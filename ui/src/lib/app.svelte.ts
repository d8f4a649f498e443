// The app's state and the one place UiEvents are dispatched. Components read
// these fields and call these methods; they never talk to the backend.
import type { ChatItem } from "./chat/chat.svelte";
import { ProjectsState } from "./projects/projects.svelte";
import type { ApprovalScope } from "./bindings/ApprovalScope";
import type { Backend, DroppedImage } from "./backend/backend";
import { decodeError, errorMessage } from "./backend/errors";
import type { UiEvent } from "./bindings/UiEvent";
import type { UsageTotals } from "./bindings/UsageTotals";
import type { ExtensionSummary } from "./bindings/ExtensionSummary";
import type { ThemeFile } from "./bindings/ThemeFile";
import type { PanelKey } from "./bindings/PanelKey";
import type { MouseAction } from "./bindings/MouseAction";
import type { RpcCommand } from "./bindings/RpcCommand";
import type { ImageInput } from "./bindings/ImageInput";
import { ChatState, sentBy, type TranscriptMessage } from "./chat/chat.svelte";
import { markdownRenderer } from "./chat/renderer.svelte";
import { allCommands, BUILTINS, canonical, parseCommand } from "./chat/commands";
import { NotesState } from "./notes/notes.svelte";
import { PanelsState } from "./panels/panels.svelte";
import { PanelWindowsHost } from "./panels/panelWindows.svelte";
import { DockSizesState } from "./panels/dockSizes.svelte";
import { encodeMessage, MAX_HELD, MAX_IN_FLIGHT } from "./panels/frames";
import type { PanelPlacement } from "./bindings/PanelPlacement";
import { StatusState } from "./status/status.svelte";
import { mergeThemes, isThemeChoice, SYSTEM_THEME } from "./settings/themes";
import { TrustState } from "./trust/trust.svelte";
import { AnnouncerState } from "./a11y/announcer.svelte";
import { RewindState } from "./rewind/rewind.svelte";
import { SessionsState } from "./sessions/sessions.svelte";
import type { Settings } from "./backend/backend";
import type { UpdateInfo } from "./bindings/UpdateInfo";
import { DialogsState, type DialogAnswer } from "./dialogs/dialogs.svelte";

/** Which view fills the main area. */
/** How often the app asks for the daily update check (the backend runs
 * it only once a day; asking hourly catches a window left open). */
export const UPDATE_CHECK_EVERY_MS = 60 * 60 * 1000;

export type View = "chat" | "manager" | "settings";

/** Everything the UI shows, plus the actions on it. */
export class AppState {
  readonly backend: Backend;
  readonly chat = new ChatState();
  readonly notes = new NotesState();
  readonly panels: PanelsState;
  /** The docks' sizes, remembered across restarts. */
  readonly docks: DockSizesState;
  /** Panels in their own OS windows (the main window's side of them). */
  readonly windows: PanelWindowsHost = new PanelWindowsHost(this);
  readonly status = new StatusState();
  /** What screen readers hear (a11y/announce.ts). */
  readonly announcer = new AnnouncerState();
  /** Dialogs extensions and MCP servers raised (dialogs/). */
  readonly dialogs = new DialogsState();
  /** The dialog host registers this: brings the keyboard into the dialog
   * on screen (Ctrl+Shift+A when no approval waits); false when none. */
  focusDialog: (fromPanel?: boolean) => boolean = () => false;
  /** The sessions sidebar (sessions/). */
  readonly sessions: SessionsState = new SessionsState(this);
  /** "Rewind to here" and `/rewind` (docs/desktop.md "Checkpoints"). */
  readonly rewind: RewindState = new RewindState(this);
  /** Whether this folder's own extensions may run (the trust banner). */
  readonly trust: TrustState;
  /** This window's project and the recent list. */
  readonly projects: ProjectsState;
  extensions: ExtensionSummary[] = $state([]);
  /** The session's tokens and cost, from the last `usage` event. */
  usage: UsageTotals | null = $state(null);
  themes: ThemeFile[] = $state(mergeThemes([]));
  theme = $state("dark");
  settings: Settings | null = $state(null);
  /** The extension updates the last check found: the manager's "Check for
   * updates", or the daily background one Settings turns on. The
   * manager's Updates count. */
  extUpdates: UpdateInfo[] = $state([]);
  view: View = $state("chat");
  /** A .zotx or .mcpb dropped on the window, for the manager to install. */
  droppedBundle: string | null = $state(null);
  /** Prompts sent, oldest first, for the editor's history. */
  history: string[] = $state([]);
  /** The editor registers this so `ext_insert` can reach the cursor. */
  insertAtCursor: (text: string) => void = () => {};
  /** Replaces the editor's text and focuses it at the end (the palette's
   * "/command " for commands that take arguments); set by the editor. */
  setEditorText: (text: string) => void = () => {};
  /** The editor registers this so an answered approval card can hand the
   * keyboard back. */
  focusEditor: () => void = () => {};
  /** The transcript registers this: brings the oldest approval card that
   * waits into view and focuses it (Ctrl+Shift+A); false when none waits. */
  focusApproval: () => boolean = () => false;
  /** The editor registers this to take images dropped on the window, and
   * to show why other files were not taken. */
  attachImages: (images: DroppedImage[], refused: string[]) => void = () => {};
  /** Files are being dragged over the window: the drop hint shows. */
  dragging = $state(false);
  /** The images of the prompt in flight, for its `user_message` row. */
  #sentImages: ImageInput[] = [];
  /** Each extension's last slash command, and the one that opened its
   * panel last: a crash row's "Reopen panel" runs it again. */
  #lastCommand = new Map<string, string>();
  #panelCommand = new Map<string, string>();
  /** Every command for autocomplete. */
  commands = $derived(allCommands(this.extensions));

  /** `panels` is given by a panel's own window (PanelWindowState). */
  constructor(backend: Backend, panels = new PanelsState()) {
    this.backend = backend;
    this.panels = panels;
    this.docks = new DockSizesState(backend);
    this.trust = new TrustState(backend);
    this.projects = new ProjectsState(backend);
  }

  /** Subscribes, asks for held events, then loads lists and settings. */
  async start(): Promise<void> {
    // Each subscription is an IPC round trip (the file drop takes four):
    // made together, not one after another, they stop holding up the
    // first loads. The backend holds its events until `uiReady`, so
    // nothing is missed while they are made.
    await Promise.all([
      this.backend.onEvent((e) => this.handle(e)),
      // A new project means a new backend: reload everything from it.
      this.backend.onProjectChanged(() => location.reload()),
      this.backend.onFileDrop((e) => {
        this.dragging = e.type === "hover";
        if (e.type === "drop") void this.drop(e.paths);
      }),
      this.windows.start(),
    ]);
    await this.backend.uiReady();
    await Promise.all([
      this.refreshExtensions(),
      this.loadSettings(),
      this.loadThemes(),
      this.loadPanelPlacements(),
      this.loadDockSizes(),
      this.loadSession(),
      this.trust.load(),
      this.projects.load(),
    ]);
    // The daily update check, when Settings turned it on: asked now and
    // every hour; the backend runs it at most once a day.
    void this.dailyUpdateCheck();
    setInterval(() => void this.dailyUpdateCheck(), UPDATE_CHECK_EVERY_MS);
    // The backend answered every first load and the editor takes input:
    // "editor usable", which the scale bench reads from the page.
    if (typeof performance !== "undefined") performance.mark("zot-started");
  }

  /** The daily background check for extension updates (never running
   * them), when Settings turned it on; its result is the Updates count.
   * A failure has nobody to tell: the next hour asks again. */
  async dailyUpdateCheck(): Promise<void> {
    if (!this.settings?.update_check) return;
    try {
      const r = await this.backend.rpc({ type: "ext_update", daily: true });
      const installed = new Set(this.extensions.map((e) => e.name));
      this.extUpdates = r.updates.filter((u) => installed.has(u.name));
    } catch {
      // Said nowhere: the manager's own "Check for updates" says why.
    }
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await this.backend.getSettings();
      this.theme = this.settings.theme || "dark";
      if (!this.settings.key_hint && this.settings.provider !== "ollama") {
        this.chat.push({
          kind: "status",
          level: "warn",
          text: `No API key is set for ${this.settings.provider}. Open /settings to add one (it is saved to auth.json, readable only by you); everything else works without it.`,
        });
      }
    } catch (e) {
      this.chat.push({ kind: "error", text: `could not read settings: ${errorMessage(e)}` });
    }
  }

  /** Where the user put panels before (panels/placement.ts). */
  async loadPanelPlacements(): Promise<void> {
    try {
      this.panels.remember(await this.backend.panelPlacements());
    } catch (e) {
      this.status.show(`could not read where panels were placed: ${errorMessage(e)}`, "error");
    }
  }

  /** How big the user made the docks before. */
  async loadDockSizes(): Promise<void> {
    try {
      await this.docks.load();
    } catch (e) {
      this.status.show(`could not read the docks' sizes: ${errorMessage(e)}`, "error");
    }
  }

  /** The user moves a panel (title bar, Ctrl+Shift+M): it moves at once,
   * and the backend remembers it for that extension and panel id. */
  async movePanel(panelId: string, placement: PanelPlacement): Promise<void> {
    const choice = this.panels.move(panelId, placement);
    if (!choice) return;
    try {
      await this.backend.setPanelPlacement(choice);
    } catch (e) {
      this.status.show(
        `the panel moved, but its place could not be saved for the next start: ${errorMessage(e)}`,
        "error",
      );
    }
  }

  /** Shows a resumed session (`--continue`, `--session`). */
  async loadSession(): Promise<void> {
    try {
      const data = await this.backend.rpc({ type: "get_messages" });
      // The transcript's shape is the agent's (docs/agent.md), not the protocol's.
      const messages = (data?.messages ?? []) as TranscriptMessage[];
      if (messages.length) this.chat.loadTranscript(messages);
      if (typeof performance !== "undefined") performance.mark("zot-session-loaded");
    } catch (e) {
      this.chat.push({ kind: "error", text: `could not read the session: ${errorMessage(e)}` });
    }
  }

  async loadThemes(): Promise<void> {
    try {
      this.themes = mergeThemes(await this.backend.listThemes());
    } catch {
      this.themes = mergeThemes([]);
    }
  }

  async refreshExtensions(): Promise<void> {
    try {
      const data = await this.backend.rpc({ type: "ext_list" });
      this.extensions = data?.extensions ?? [];
      this.chat.extensionStates(this.extensions);
    } catch (e) {
      this.status.show(`could not list extensions: ${errorMessage(e)}`, "error");
    }
  }

  /** A crash row's Restart: starts the extension again with a fresh
   * restart budget; the row follows from the next `ext_list`. Answers
   * whether it came back ready (the reason goes on the row otherwise). */
  async restartExtension(row: Extract<ChatItem, { kind: "ext_error" }>): Promise<boolean> {
    try {
      const r = await this.backend.rpc({ type: "ext_restart", name: row.extension });
      if (r.state !== "ready") row.text = `restart: it is ${r.state} again${r.error ? `: ${r.error}` : ""}`;
    } catch (e) {
      row.text = `restart failed: ${errorMessage(e)}`;
    }
    await this.refreshExtensions();
    return row.recovery === "back";
  }

  /** A crash row's "Reopen panel": runs the command that had opened the
   * closed panel again, starting the extension first when it is down. */
  async reopenPanel(row: Extract<ChatItem, { kind: "ext_error" }>): Promise<void> {
    if (!row.reopen) return;
    if (row.recovery !== "back" && !(await this.restartExtension(row))) return;
    await this.submit(row.reopen);
  }

  /** Answers an approval card: `allow` (with `remember` for "Always
   * allow") or `deny`. A refused answer stays on the card, which can be
   * answered again. */
  async answerApproval(
    approvalId: string,
    decision: "allow" | "deny",
    remember = false,
    scope?: ApprovalScope,
  ): Promise<void> {
    const card = this.chat.findApproval(approvalId);
    if (!card || card.state !== "waiting") return;
    card.state = "sending";
    card.problem = undefined;
    try {
      const r = await this.backend.rpc({ type: "approve_tool", id: approvalId, decision, remember, scope });
      if (r.remembered) card.remember = r.remembered;
      card.state = decision === "deny" ? "denied" : remember ? "always" : "allowed";
      this.chat.settleApproval(approvalId);
    } catch (e) {
      const err = decodeError(e);
      card.problem = err.message;
      // `not_found`: no approval waits under that id any more (answered
      // elsewhere, its prompt aborted), so another answer cannot land.
      if (card.state === "sending") this.chat.answerRefused(card, err.code === "not_found");
    }
  }

  /** Sends the user's answer to a dialog; rejects with zot's reason
   * (a form value that does not fit), and the dialog then stays open. */
  async respondDialog(requestId: string, answer: DialogAnswer): Promise<void> {
    const d = this.dialogs.queue.find((q) => q.request_id === requestId);
    // A url dialog's accept opens the address, from the backend.
    if (d?.kind === "url" && answer.action === "accept") return this.backend.openDialogUrl(requestId);
    const value = answer.action === "accept" ? answer.value : undefined;
    await this.backend.rpc({
      type: "ui_respond",
      request_id: requestId,
      action: answer.action,
      ...(value !== undefined ? { value: value as never } : {}),
    });
  }

  /** Dispatches one backend event. */
  handle(e: UiEvent): void {
    this.announcer.event(e);
    switch (e.type) {
      case "ready":
      case "ext_changed":
        // A theme-only extension may have come or gone as well.
        void this.refreshExtensions();
        void this.loadThemes();
        break;
      case "user_message": {
        // The event carries the text only; the images are the ones this
        // window just sent with it.
        const images = this.#sentImages;
        this.#sentImages = [];
        this.chat.push({
          kind: "user",
          text: e.content,
          ...(images.length ? { images } : {}),
          ...(e.checkpoint ? { checkpoint: e.checkpoint } : {}),
          ...(e.extension ? { sentBy: sentBy(e.extension, e.command, e.app) } : {}),
        });
        break;
      }
      case "assistant_start":
        this.chat.startAssistant();
        break;
      case "text_delta":
        this.chat.delta(e.delta);
        break;
      case "assistant_message":
        this.chat.finishAssistant(e.content);
        break;
      case "tool_call":
        this.chat.toolCall(e.id, e.name, e.args, e.extension);
        break;
      case "tool_progress":
        this.chat.toolProgress(e);
        break;
      case "tool_result":
        this.chat.toolResult(e.id, e.content, e.is_error, e.extension, { app: e.app, note: e.app_note });
        break;
      case "tool_approval":
        this.chat.approval(e);
        break;
      case "ui_request":
        this.dialogs.add(e);
        break;
      case "ui_request_done":
        this.dialogs.remove(e.request_id);
        break;
      case "turn_start":
        this.chat.busy = true;
        break;
      case "turn_end":
        this.chat.endStream();
        if (e.stop === "error") this.chat.push({ kind: "error", text: e.error ?? "the turn failed" });
        if (e.stop === "aborted") this.chat.push({ kind: "status", level: "warn", text: "aborted" });
        if (e.stop === "length")
          this.chat.push({ kind: "status", level: "warn", text: "the model hit its output limit" });
        break;
      case "done":
        this.chat.endStream();
        this.chat.expireApprovals();
        this.chat.busy = false;
        break;
      case "error":
        this.chat.push({ kind: "error", text: e.message });
        break;
      case "ext_notify":
        this.notes.notify(e.extension, e.style, e.message);
        break;
      case "ext_display":
        this.notes.display(e.extension, e.text);
        break;
      case "ext_clear_notes":
        this.notes.clearExtension(e.extension);
        break;
      case "ext_insert":
        this.view = "chat";
        this.insertAtCursor(e.text);
        break;
      case "ext_panel_open":
        this.view = "chat";
        // What opened it, so a crash row can open it again.
        if (this.#lastCommand.has(e.extension))
          this.#panelCommand.set(e.extension, this.#lastCommand.get(e.extension)!);
        this.panels.open(e.extension, e.panel, e.capabilities, e.net);
        break;
      case "ext_panel_message":
        this.panels.inbox(e.panel_id)?.deliver(e.data);
        break;
      case "ext_panel_render":
        this.panels.render(e.panel_id, e.lines, e.title, e.footer);
        break;
      case "ext_panel_close": {
        // A crash closes its panels itself and its row says so: the host's
        // reason for a panel already gone would repeat it.
        const open = this.panels.panels.some((p) => p.id === e.panel_id);
        this.panels.remove(e.panel_id);
        if (e.reason && open)
          this.chat.push({ kind: "status", level: "warn", text: e.reason, extension: e.extension });
        break;
      }
      case "ext_restarting": {
        // The crash's row (its ext_error came first) says it; a line only
        // when there is none.
        if (!this.chat.restarting(e.extension, e.attempt, e.delay_ms)) {
          const how = e.exit_status ? ` (${e.exit_status})` : "";
          const text = `${e.extension} crashed${how}; restarting in ${e.delay_ms / 1000} s (attempt ${e.attempt} of 3)`;
          this.chat.push({ kind: "status", level: "warn", text, extension: e.extension });
        }
        void this.refreshExtensions();
        break;
      }
      case "ext_status":
        this.chat.push({ kind: "status", level: e.level, text: e.text, extension: e.extension });
        break;
      case "ext_error": {
        // Its panels' own windows stay open and say so (PanelWindowState).
        this.windows.crashed(e.extension);
        const closed = this.panels.removeOwnedBy(e.extension);
        this.chat.push({
          kind: "ext_error",
          extension: e.extension,
          text: e.message,
          logPath: e.log_path,
          exitStatus: e.exit_status,
          recovery: "none",
          closedPanels: closed.length,
          reopen: closed.length ? this.#panelCommand.get(e.extension) : undefined,
        });
        void this.refreshExtensions();
        break;
      }
      case "ext_reload": {
        const summary = `extensions reloaded: ${e.stopped} stopped, ${e.loaded} loaded, ${e.ready} ready`;
        this.status.show(summary, e.errors.length ? "error" : "info", e.errors);
        void this.refreshExtensions();
        break;
      }
      case "usage":
        this.usage = e.cumulative;
        break;
      case "session_start":
        break;
      case "project_untrusted":
        this.trust.handle(e);
        break;
    }
  }

  /** The editor's Enter: a slash command or a prompt. */
  async submit(text: string, images: ImageInput[] = []): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (this.history[this.history.length - 1] !== text) this.history.push(text);
    const cmd = parseCommand(trimmed);
    if (cmd) {
      if (images.length)
        this.chat.push({
          kind: "status",
          level: "warn",
          text: "images go with prompts, not commands; they were not sent",
        });
      await this.runCommand(cmd.name, cmd.args);
      return;
    }
    this.notes.clearAll();
    this.chat.busy = true;
    // The answer will be markdown: load the renderer while the model thinks.
    void markdownRenderer.load();
    this.#sentImages = images;
    try {
      await this.backend.rpc({ type: "prompt", message: text, images });
    } catch (e) {
      this.#sentImages = [];
      this.chat.busy = false;
      this.chat.push({ kind: "error", text: errorMessage(e) });
    }
  }

  /** Files dropped on the window: a folder opens as the project (its
   * refusal shows in the project banner), images go to the editor. */
  async drop(paths: string[]): Promise<void> {
    // A .zotx or .mcpb bundle goes to the extension manager, which
    // installs it and shows its summary (who signed it) before anything
    // is enabled.
    const bundle = paths.find((p) => /\.(zotx|mcpb)$/i.test(p));
    if (bundle) {
      this.droppedBundle = bundle;
      this.view = "manager";
      return;
    }
    try {
      const dropped = await this.backend.droppedPaths(paths);
      if (dropped.kind === "folder") await this.projects.open(dropped.path);
      else this.attachImages(dropped.images, dropped.refused);
    } catch (e) {
      this.attachImages([], [errorMessage(e)]);
    }
  }

  /** Built-ins are handled here; everything else goes to the backend. */
  async runCommand(name: string, args: string): Promise<void> {
    const known = canonical(name, this.commands);
    const builtin = known && !known.extension ? known.name : null;
    switch (builtin) {
      case "clear":
        this.chat.clear();
        this.usage = null;
        this.notes.clearAll();
        await this.call({ type: "clear" });
        return;
      case "help":
        this.chat.push({
          kind: "status",
          level: "info",
          text: this.commands
            .map(
              (c) =>
                `/${c.name}${c.description ? ` — ${c.description}` : ""}${c.extension ? ` [${c.extension}]` : ""}`,
            )
            .join("\n"),
        });
        return;
      case "extensions":
        this.view = "manager";
        return;
      case "settings":
        this.view = "settings";
        return;
      case "rewind":
        await this.rewind.openLatest();
        return;
      case "theme":
        if (args) await this.setTheme(args);
        else
          this.chat.push({
            kind: "status",
            level: "info",
            text: `themes: ${[SYSTEM_THEME, ...this.themes.map((t) => t.name)].join(", ")}`,
          });
        return;
      case "model":
        if (args) {
          if (await this.call({ type: "set_model", model: args })) {
            this.status.show(`model: ${args}`);
            await this.loadSettings();
          }
        } else this.view = "settings";
        return;
      case "reload-ext":
        this.status.show("reloading extensions…");
        await this.call({ type: "command", name: "reload-ext", args });
        return;
      case "compact":
        this.status.show("compacting the conversation…");
        try {
          const r = await this.backend.rpc({ type: "command", name: "compact", args });
          if ("before_tokens" in r)
            this.status.show(`compacted: about ${r.before_tokens} → ${r.after_tokens} tokens`);
        } catch (e) {
          this.chat.push({ kind: "status", level: "error", text: errorMessage(e) });
        }
        return;
    }
    this.notes.clearAll();
    if (known?.extension) this.#lastCommand.set(known.extension, `/${known.name}${args ? ` ${args}` : ""}`);
    try {
      // An extension's `error` also arrives as an ext_status event, which
      // shows it; the response needs no handling here.
      await this.backend.rpc({ type: "command", name: known?.name ?? name, args });
    } catch (e) {
      this.chat.push({ kind: "status", level: "error", text: errorMessage(e) });
    }
  }

  async call(cmd: Parameters<Backend["rpc"]>[0]): Promise<boolean> {
    try {
      await this.backend.rpc(cmd);
      return true;
    } catch (e) {
      this.chat.push({ kind: "status", level: "error", text: errorMessage(e) });
      return false;
    }
  }

  /** Stop button and Esc while busy. */
  async abort(): Promise<void> {
    await this.call({ type: "abort" });
  }

  /** Esc in the editor: aborts a turn in flight and clears the notes. */
  escape(): void {
    this.notes.clearAll();
    if (this.chat.busy) void this.abort();
  }

  /** Switches the theme live and saves the choice. */
  async setTheme(name: string): Promise<void> {
    if (!isThemeChoice(this.themes, name)) {
      this.chat.push({
        kind: "status",
        level: "error",
        text: `no theme named "${name}"; try one of: ${[SYSTEM_THEME, ...this.themes.map((t) => t.name)].join(", ")}`,
      });
      return;
    }
    this.theme = name;
    try {
      this.settings = await this.backend.saveSettings({ theme: name });
    } catch (e) {
      this.status.show(`theme not saved: ${errorMessage(e)}`, "error");
    }
  }

  /** Panel keys and closes, one after the other: the backend handles
   * concurrent calls on several threads, so keys typed faster than a round
   * trip overtook each other ("item" arrived as "imet", `a` after the text
   * meant for its editor). */
  #panelInput: Promise<unknown> = Promise.resolve();

  /** Sends `cmd` once every panel key and close before it has been handed
   * over; settles when it has been. */
  #sendPanelInput(cmd: RpcCommand): Promise<unknown> {
    this.#panelInput = this.#panelInput.then(() => this.backend.rpc(cmd)).catch(() => {});
    return this.#panelInput;
  }

  /** A normalised key for the active panel. */
  panelKey(key: PanelKey, text?: string): void {
    const p = this.panels.active;
    if (!p) return;
    this.#sendPanelInput({ type: "panel_key", panel_id: p.id, key, text });
  }

  /** A click, double click, context click (with its row/col) or wheel
   * (with its delta in lines) over panel `panelId`, in order with its keys.
   * Only for an owner that declared `panel_mouse`; a panel that is gone
   * (closed meanwhile) gets nothing. */
  panelMouse(
    panelId: string,
    action: MouseAction,
    at: { row?: number; col?: number; delta?: number },
  ): Promise<unknown> {
    const p = this.panels.panels.find((x) => x.id === panelId);
    if (!p?.mouse) return Promise.resolve();
    return this.#sendPanelInput({ type: "panel_mouse", panel_id: panelId, action, ...at });
  }

  /** An HTML panel's frame loaded: what its extension sent meanwhile goes
   * in; more than MAX_HELD waiting were dropped, said in one line. */
  attachPage(panelId: string, post: (data: unknown) => void): void {
    const dropped = this.panels.inbox(panelId)?.attach(post);
    const p = this.panels.panels.find((x) => x.id === panelId);
    if (dropped && p)
      this.status.show(
        `${p.extension}: ${dropped} message(s) for panel '${panelId}' dropped: more than ${MAX_HELD} came before its page loaded`,
      );
  }

  /** What HTML panel `panelId`'s page posted to `window.parent`, for its
   * extension: in order, at most MAX_IN_FLIGHT on their way (a flooding
   * page loses the rest, counted in one status line per burst), and on a
   * chain of their own so a flood never delays the keys. */
  panelMessage(panelId: string, data: unknown): void {
    const p = this.panels.panels.find((x) => x.id === panelId);
    const out = this.panels.outbox(panelId);
    if (!p || !out) return;
    const enc = encodeMessage(data);
    if (!enc.ok) {
      this.status.show(`${p.extension}: a message from panel '${panelId}' was dropped: ${enc.why}`);
      return;
    }
    if (!out.admit()) {
      out.drops.hit();
      return;
    }
    this.#pageMessages = this.#pageMessages
      .then(() => this.backend.rpc({ type: "panel_message", panel_id: panelId, data: enc.json }))
      .catch(() => {})
      .finally(() => {
        const dropped = out.done();
        if (dropped)
          this.status.show(
            `${p.extension}: ${dropped} message(s) from panel '${panelId}' dropped: its page sent more than ${MAX_IN_FLIGHT} faster than they could be delivered`,
          );
      });
  }

  #pageMessages: Promise<unknown> = Promise.resolve();

  /** The text area of panel `panelId` is `cols` × `rows` cells (its owner
   * declared `panel_resize`; resize.ts decides when to say it). */
  panelResize(panelId: string, cols: number, rows: number): void {
    const p = this.panels.panels.find((x) => x.id === panelId);
    if (!p?.resize) return;
    void this.#sendPanelInput({ type: "panel_resize", panel_id: panelId, cols, rows });
  }

  /** Esc / Ctrl+C / the close button: closes it here and tells the owner. */
  closePanel(panelId?: string): void {
    const id = panelId ?? this.panels.activeId;
    if (!id) return;
    this.panels.remove(id);
    this.#sendPanelInput({ type: "panel_close", panel_id: id });
  }

  /** The names of the built-in commands (for /help and tests). */
  static builtins = BUILTINS.map((c) => c.name);
}

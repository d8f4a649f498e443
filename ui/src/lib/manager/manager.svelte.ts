// The extension manager's own state: install progress and summary, the
// confirmation for remove, the doctor report and the busy flag. Every
// action goes through the backend, which runs the same library code as
// `zot ext`, and is followed by a reload.
import type { AppState } from "../app.svelte";
import { mcpName, parseMcpInput } from "./mcp";
import type { DevelopSummary, InstallSummary } from "../backend/backend";
import { errorMessage } from "../backend/errors";
import { formatDoctor } from "./doctor";
import { catalogRows, type CatalogRow } from "./catalog";
import { SettingsFormState } from "./settingsForm.svelte";
import type { UpdateInfo } from "../bindings/UpdateInfo";
import { catalogKey, installedKey, type ListView } from "./list";

/** Reactive manager state. */
export class ManagerState {
  readonly app: AppState;
  busy = $state(false);
  source = $state("");
  progress: string[] = $state([]);
  installed: InstallSummary | null = $state(null);
  error: string | null = $state(null);
  confirmRemove: string | null = $state(null);
  doctor: string | null = $state(null);
  logFor: string | null = $state(null);
  /** The "Available" section: zot's catalog, checked. */
  available: CatalogRow[] = $state([]);
  catalogError: string | null = $state(null);
  /** The "New extension…" form, when open. */
  draft: { name: string; lang: string; panel: boolean } | null = $state(null);
  /** The "Add MCP server" form: a name and a command line, URL or JSON entry. */
  mcpDraft: { name: string; input: string } | null = $state(null);
  /** The folder the last "New extension…" created. */
  created: string | null = $state(null);
  /** Folders developed with live reload in this run; their cards say "dev". */
  devDirs: string[] = $state([]);
  /** What the last "Develop a folder…" started. */
  developed: DevelopSummary | null = $state(null);
  /** The updates the last check found (`ext_update` with `check`, or the
   * daily background check): the app's, so the count outlives the view. */
  get updates(): UpdateInfo[] {
    return this.app.extUpdates;
  }
  set updates(v: UpdateInfo[]) {
    this.app.extUpdates = v;
  }
  /** Whether a check has run (so "up to date" can be said). */
  checked = $state(false);

  /** The open settings form ("Configure…"), if any. */
  configFor: SettingsFormState | null = $state(null);

  /** The row shown in the detail pane (`list.ts` keys), if any. */
  selected: string | null = $state(null);
  /** Which rows the list shows, and the search box. */
  view: ListView = $state("all");
  query = $state("");

  /** The installed extension the detail pane shows, if one is selected. */
  get selectedExt() {
    const key = this.selected;
    return key ? (this.app.extensions.find((e) => installedKey(e) === key) ?? null) : null;
  }

  /** The catalog entry the detail pane shows, if one is selected. */
  get selectedEntry() {
    const key = this.selected;
    return key ? (this.available.find((r) => catalogKey(r.name) === key) ?? null) : null;
  }

  /** The name behind the selected row (also before an installed one is listed). */
  get selectedName(): string | null {
    const key = this.selected;
    if (!key) return null;
    return key.slice(key.lastIndexOf(":") + 1);
  }

  /** Shows `key`'s row in the detail pane; a pending removal is forgotten. */
  select(key: string | null): void {
    if (key !== this.selected) this.confirmRemove = null;
    this.selected = key;
  }

  /** The user chose `key` in the list: its detail pane. Choosing the row
   * whose install summary is showing puts its detail (with the same
   * switch) in place of the summary, as "Later" would. */
  choose(key: string): void {
    if (key === this.selected && this.installed && this.selectedName === this.installed.name)
      this.installed = null;
    this.select(key);
  }

  /** Selects the installed extension `name` (the first listed of that name;
   * a fresh install's global one when none is listed yet). */
  selectName(name: string): void {
    const ext = this.app.extensions.find((e) => e.name === name);
    this.select(installedKey(ext ?? { scope: "global", name }));
  }

  /** Opens the log of `name` in its detail pane. */
  openLog(name: string): void {
    this.selectName(name);
    this.logFor = name;
  }

  constructor(app: AppState) {
    this.app = app;
  }

  async #run(what: string, f: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await f();
    } catch (e) {
      this.error = `${what}: ${errorMessage(e)}`;
    } finally {
      this.busy = false;
      await this.app.refreshExtensions();
    }
  }

  /** Asks the native picker for a folder and puts it in the source field. */
  async pick(): Promise<void> {
    try {
      const dir = await this.app.backend.pickFolder();
      if (dir) this.source = dir;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Installs from the source field; the result stays disabled until enabled. */
  install(): Promise<void> {
    const source = this.source.trim();
    if (!source) return Promise.resolve();
    this.progress = [];
    this.installed = null;
    return this.#run("install failed", async () => {
      const installed = await this.app.backend.install(source, (p) => this.progress.push(p.message));
      this.installed = installed;
      this.source = "";
      // The summary opens in the detail pane of what was installed.
      this.select(installedKey({ scope: "global", name: installed.name }));
    });
  }

  /** Reads zot's catalog; a failure is shown in the section, never thrown. */
  async loadCatalog(): Promise<void> {
    try {
      this.available = catalogRows(await this.app.backend.catalog());
      this.catalogError = null;
    } catch (e) {
      this.catalogError = errorMessage(e);
    }
  }

  /** One-click install of a catalog entry: the same path and summary as any install. */
  async installFromCatalog(name: string): Promise<void> {
    this.source = name;
    await this.install();
    await this.loadCatalog();
  }

  /** Scaffolds the draft in a folder the user picks, then puts the new
   * folder in the install field so one click installs it. */
  async createDraft(): Promise<void> {
    const d = this.draft;
    if (!d || !d.name.trim()) return;
    let parent: string | null;
    try {
      parent = await this.app.backend.pickFolder();
    } catch (e) {
      this.error = errorMessage(e);
      return;
    }
    if (!parent) return;
    await this.#run("new extension failed", async () => {
      this.created = await this.app.backend.newExtension(d.name.trim(), d.lang, d.panel, parent);
      this.source = this.created;
      this.draft = null;
    });
  }

  /** Which folders are developed with live reload (their cards say "dev"). */
  async loadDevFolders(): Promise<void> {
    try {
      this.devDirs = await this.app.backend.devFolders();
    } catch {
      // The marks are a hint; the cards are still right without them.
    }
  }

  /** "Develop a folder…": the picked working copy loads like
   * `zot --ext DIR --watch` for the rest of this run. */
  async develop(): Promise<void> {
    let dir: string | null;
    try {
      dir = await this.app.backend.pickFolder();
    } catch (e) {
      this.error = errorMessage(e);
      return;
    }
    if (!dir) return;
    const picked = dir;
    this.developed = null;
    await this.#run("develop failed", async () => {
      this.developed = await this.app.backend.develop(picked);
    });
    await this.loadDevFolders();
  }

  /** Opens the settings form of `name` ("Configure…"). */
  async configure(name: string): Promise<void> {
    if (this.selectedName !== name) this.selectName(name);
    const form = new SettingsFormState(this.app.backend, name);
    this.configFor = form;
    await form.load();
  }

  /** After a save: the cards show the new state (an extension that only
   * lacked a required setting has started); the install summary no longer
   * asks for what was just set. */
  async settingsSaved(): Promise<void> {
    const r = this.configFor?.result;
    if (r && this.installed?.name === r.name) {
      this.installed = { ...this.installed, settings_required: r.missing };
    }
    await this.app.refreshExtensions();
  }

  /** Enables what was just installed. */
  async enableInstalled(): Promise<void> {
    const name = this.installed?.name;
    if (!name) return;
    await this.setEnabled(name, true);
    this.installed = null;
  }

  /** Adds the MCP server of the form (docs/mcp.md); the host checks the entry. */
  addMcp(): Promise<void> {
    const d = this.mcpDraft;
    if (!d) return Promise.resolve();
    return this.#run("adding the MCP server failed", async () => {
      let parsed;
      try {
        parsed = parseMcpInput(d.input);
      } catch (e) {
        throw { code: "mcp", message: (e as Error).message };
      }
      const name = d.name.trim() || mcpName(parsed.name ?? "");
      if (!name) throw { code: "mcp", message: "give the server a name" };
      await this.app.backend.addMcp(name, JSON.stringify(parsed.entry));
      this.mcpDraft = null;
    });
  }

  setEnabled(name: string, enabled: boolean): Promise<void> {
    return this.#run(`${enabled ? "enable" : "disable"} ${name} failed`, () =>
      this.app.backend.setEnabled(name, enabled),
    );
  }

  /** The extension whose new permissions are being reviewed (the dialog). */
  reviewing: string | null = $state(null);

  /** Accepts what `name` asks for now (the review dialog's Accept). */
  acceptPermissions(name: string): Promise<void> {
    this.reviewing = null;
    return this.#run(`accept ${name} failed`, () => this.app.backend.acceptPermissions(name));
  }

  /** Removes after the user confirmed. */
  remove(name: string): Promise<void> {
    this.confirmRemove = null;
    return this.#run(`remove ${name} failed`, () => this.app.backend.remove(name));
  }

  /**
   * Starts one extension again (`ext_restart`), with a fresh restart budget;
   * says why when it does not come back ready.
   */
  restart(name: string): Promise<void> {
    return this.#run(`restart ${name} failed`, async () => {
      const r = await this.app.backend.rpc({ type: "ext_restart", name });
      if (r.state !== "ready")
        throw { code: "ext", message: `it is ${r.state} again${r.error ? `: ${r.error}` : ""}` };
    });
  }

  /** Asks every extension's source whether it has something newer; runs
   * nothing of the extensions. */
  checkUpdates(): Promise<void> {
    return this.#run("checking for updates failed", async () => {
      const r = await this.app.backend.rpc({ type: "ext_update", check: true });
      this.updates = r.updates;
      this.checked = true;
    });
  }

  /** Installs the update of `name` (the replaced copy is kept for Rollback).
   * One that asks for more waits on the card's review, as any change does. */
  update(name: string): Promise<void> {
    return this.#run(`update ${name} failed`, async () => {
      await this.app.backend.rpc({ type: "ext_update", name });
      this.updates = this.updates.filter((u) => u.name !== name);
    });
  }

  /** "Update all": every update the check found. */
  updateAll(): Promise<void> {
    return this.#run("update failed", async () => {
      const r = await this.app.backend.rpc({ type: "ext_update" });
      const done = new Set(r.updates.map((u) => u.name));
      this.updates = this.updates.filter((u) => !done.has(u.name));
    });
  }

  /** Puts back the copy the last update of `name` replaced. */
  rollback(name: string): Promise<void> {
    return this.#run(`rollback of ${name} failed`, async () => {
      await this.app.backend.rpc({ type: "ext_rollback", name });
    });
  }

  reload(): Promise<void> {
    return this.#run("reload failed", async () => {
      await this.app.backend.rpc({ type: "command", name: "reload-ext", args: "" });
    });
  }

  async runDoctor(): Promise<void> {
    await this.#run("doctor failed", async () => {
      this.doctor = formatDoctor(await this.app.backend.doctor());
    });
  }
}

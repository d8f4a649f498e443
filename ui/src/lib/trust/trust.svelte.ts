// Project trust in the window: whether this folder's own extensions
// (.zot/extensions) may run, what would run, and the folders the user has
// trusted. The banner and the Settings section are thin views of this.
import type { Backend } from "../backend/backend";
import { errorMessage } from "../backend/errors";
import type { TrustStatus } from "../bindings/TrustStatus";
import type { UntrustedExtension } from "../bindings/UntrustedExtension";
import type { UiEvent } from "../bindings/UiEvent";

/** The last path segment, for "shadows your global guard" lines. */
export function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** One line per extension, as the banner words it. */
export function describe(ext: UntrustedExtension): string {
  const parts = [`${ext.name}: runs ${ext.exec || "(no program)"}`];
  if (ext.description) parts.push(ext.description);
  if (ext.shadows_global) parts.push(`shadows your global ${ext.name} (${ext.shadows_global})`);
  return parts.join(" — ");
}

/** The trust of the open folder and every remembered folder. */
export class TrustState {
  readonly #backend: Backend;
  /** The project folder (canonical), once known. */
  dir = $state("");
  /** Its extensions may run now. */
  trusted = $state(true);
  /** Project extensions that wait for the user's trust. */
  waiting: UntrustedExtension[] = $state([]);
  /** Folders remembered in trust.json. */
  folders: string[] = $state([]);
  /** Why trust.json could not be read, if it could not. */
  problem = $state("");
  /** "Not now" was chosen; the banner stays away until the next start. */
  dismissed = $state(false);
  /** Whether the banner's choice should be remembered for this folder. */
  remember = $state(true);
  /** A trust or revoke is under way. */
  busy = $state(false);
  /** The banner's last outcome or error. */
  message = $state("");
  /** The Settings list's last outcome or error. */
  foldersMessage = $state("");

  /**
   * The banner shows while something waits and the user has not declined:
   * an untrusted folder's extensions, or, in a trusted one, extensions that
   * appeared since (zot has not run them: `new`).
   */
  visible = $derived(this.waiting.length > 0 && !this.dismissed);

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  /** Reads the trust status (at start, and after every change). */
  async load(): Promise<void> {
    try {
      const s: Partial<TrustStatus> | null = await this.#backend.rpc({ type: "trust_status" });
      this.dir = s?.dir ?? "";
      this.trusted = s?.trusted ?? true;
      this.waiting = s?.extensions ?? [];
      this.folders = s?.trusted_dirs ?? [];
      this.problem = s?.problem ?? "";
    } catch (e) {
      this.foldersMessage = `could not read project trust: ${errorMessage(e)}`;
    }
  }

  /** Takes the `project_untrusted` event (the other events are not ours). */
  handle(e: UiEvent): void {
    if (e.type !== "project_untrusted") return;
    this.dir = e.dir;
    // Only a trusted folder's extensions can be new since its trust.
    this.trusted = e.details.length > 0 && e.details.every((d) => d.new);
    this.waiting = e.details;
    // Something new since "Not now" was chosen is worth asking about.
    if (this.trusted) this.dismissed = false;
  }

  /** "Trust and run": trusts the folder and starts its extensions. */
  async trust(): Promise<void> {
    this.busy = true;
    this.message = "";
    try {
      // A trusted folder's new extensions are accepted without touching its
      // trust: one trusted for this run only stays so.
      const remember = this.trusted ? false : this.remember;
      const data = await this.#backend.rpc({ type: "trust_project", remember });
      const started = data?.started ?? [];
      this.message = started.length ? `Started ${started.join(", ")}.` : "Trusted; nothing needed starting.";
      await this.load();
    } catch (e) {
      this.message = errorMessage(e);
    } finally {
      this.busy = false;
    }
  }

  /** "Not now": hides the banner for this run; nothing runs. */
  notNow(): void {
    this.dismissed = true;
  }

  /** Settings' "Revoke": forgets a folder; the open one's extensions stop. */
  async revoke(dir: string): Promise<void> {
    this.busy = true;
    this.foldersMessage = "";
    try {
      const data = await this.#backend.rpc({ type: "untrust_project", dir });
      const stopped = data?.stopped ?? [];
      this.foldersMessage = stopped.length
        ? `No longer trusted: ${folderName(dir)}; stopped ${stopped.join(", ")}.`
        : `No longer trusted: ${folderName(dir)}.`;
      // A revoked open folder offers the banner again.
      this.dismissed = false;
      await this.load();
    } catch (e) {
      this.foldersMessage = errorMessage(e);
    } finally {
      this.busy = false;
    }
  }
}

// The current project and the recent list, as the header, the start screen
// and the palette show them. Opening a folder restarts the backend there;
// the page then reloads from the new backend (`onProjectChanged`), so
// settings, extensions, transcript and trust all come from the new project.
import type { Backend, ProjectInfo, RecentProject } from "../backend/backend";
import { errorMessage } from "../backend/errors";

export class ProjectsState {
  current: ProjectInfo | null = $state(null);
  recent: RecentProject[] = $state([]);
  /** Why the last open failed (the old project stays open). */
  error: string | null = $state(null);
  #backend: Backend;

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  async load(): Promise<void> {
    try {
      [this.current, this.recent] = await Promise.all([
        this.#backend.currentProject(),
        this.#backend.recentProjects(),
      ]);
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Opens `path`, or the picked folder with `null`. */
  async open(path: string | null): Promise<boolean> {
    this.error = null;
    try {
      const opened = await this.#backend.openProject(path);
      if (opened) this.current = opened;
      return opened !== null;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    }
  }

  async forget(path: string): Promise<void> {
    try {
      await this.#backend.forgetProject(path);
      this.recent = this.recent.filter((r) => r.path !== path);
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** The recent list without the project already open. */
  others(): RecentProject[] {
    return this.recent.filter((r) => r.path !== this.current?.path);
  }
}

// The state of one extension's settings form: what `ext_config_get`
// answered, the draft, errors per field, and saving through
// `ext_config_set`. A secret is never in the draft unless the user types a
// new one; the page only ever receives its mask.
import type { Backend } from "../backend/backend";
import type { ExtConfigResult } from "../bindings/ExtConfigResult";
import { errorMessage } from "../backend/errors";
import { collect, fieldOfError, initialDraft, type FieldValue } from "./settings";

/** Reactive form state for one extension. */
export class SettingsFormState {
  readonly name: string;
  readonly #backend: Backend;
  result: ExtConfigResult | null = $state(null);
  draft: Record<string, FieldValue> = $state({});
  errors: Record<string, string> = $state({});
  /** An error no field owns (the extension is gone, the keychain failed). */
  error: string | null = $state(null);
  saving = $state(false);
  saved = $state(false);

  constructor(backend: Backend, name: string) {
    this.#backend = backend;
    this.name = name;
  }

  async load(): Promise<void> {
    try {
      this.result = await this.#backend.rpc({ type: "ext_config_get", name: this.name });
      this.draft = initialDraft(this.result);
      this.errors = {};
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** Checks the draft, then stores it; true when it was stored. */
  async save(): Promise<boolean> {
    const r = this.result;
    if (!r) return false;
    const { values, errors } = collect(r, this.draft);
    this.errors = errors;
    this.error = null;
    this.saved = false;
    if (Object.keys(errors).length) return false;
    this.saving = true;
    try {
      this.result = await this.#backend.rpc({ type: "ext_config_set", name: this.name, values });
      this.draft = initialDraft(this.result);
      this.saved = true;
      return true;
    } catch (e) {
      const msg = errorMessage(e);
      const key = fieldOfError(msg);
      if (key && r.schema[key]) this.errors = { [key]: msg.slice(msg.indexOf(`setting '${key}'`)) };
      else this.error = msg;
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** The native folder picker for a path setting. */
  async pick(key: string): Promise<void> {
    try {
      const dir = await this.#backend.pickFolder();
      if (dir) this.draft[key] = dir;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }
}

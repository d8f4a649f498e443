// The settings form's rules, without Svelte: what each field starts as,
// and how a draft becomes the `values` of `ext_config_set`. They mirror
// the host's rules (extensions/host/src/settings/settings_schema.rs) so the form
// says what is wrong before a round trip; the host checks again, and its
// answer (which names the setting) is shown under that field.
import type { ExtConfigResult } from "../bindings/ExtConfigResult";
import type { SettingSpec } from "../bindings/SettingSpec";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

/** What an input holds: text for most types, a flag for booleans. */
export type FieldValue = string | boolean;

/** The draft of every field. A secret starts empty: the page never holds it. */
export function initialDraft(r: ExtConfigResult): Record<string, FieldValue> {
  const draft: Record<string, FieldValue> = {};
  for (const key of r.order) {
    const spec = r.schema[key];
    const v = r.values[key];
    if (!spec) continue;
    if (spec.type === "boolean") draft[key] = v === true;
    else if (spec.sensitive) draft[key] = "";
    else draft[key] = v === undefined || v === null ? "" : String(v);
  }
  return draft;
}

/** Whether a secret has a stored value (its masked form is in `values`). */
export function secretIsSet(r: ExtConfigResult, key: string): boolean {
  return typeof r.values[key] === "string";
}

/** One field's value for `ext_config_set`, or why it is refused. `skip`:
 * leave it as stored (an untouched secret). */
export function checkField(
  spec: SettingSpec,
  raw: FieldValue,
  stored: boolean,
): { value?: JsonValue; error?: string; skip?: boolean } {
  if (spec.type === "boolean") return { value: raw === true };
  const text = String(raw).trim();
  if (text === "") {
    if (spec.sensitive && stored) return { skip: true };
    if (spec.required) return { error: "required" };
    return { value: null };
  }
  switch (spec.type) {
    case "number": {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: "must be a number" };
      if (spec.min !== undefined && n < spec.min) return { error: `must be at least ${spec.min}` };
      if (spec.max !== undefined && n > spec.max) return { error: `must be at most ${spec.max}` };
      return { value: n };
    }
    case "enum":
      if (!(spec.enum ?? []).includes(text))
        return { error: `must be one of ${(spec.enum ?? []).join(", ")}` };
      return { value: text };
    default:
      return { value: spec.sensitive ? String(raw) : text };
  }
}

/** The whole draft as `values`, or the errors per field. */
export function collect(
  r: ExtConfigResult,
  draft: Record<string, FieldValue>,
): { values: Record<string, JsonValue>; errors: Record<string, string> } {
  const values: Record<string, JsonValue> = {};
  const errors: Record<string, string> = {};
  for (const key of r.order) {
    const spec = r.schema[key];
    if (!spec) continue;
    const c = checkField(spec, draft[key] ?? "", secretIsSet(r, key));
    if (c.error) errors[key] = c.error;
    else if (!c.skip && c.value !== undefined) values[key] = c.value;
  }
  return { values, errors };
}

/** The setting a host error names (`setting 'KEY': …`), to show it there. */
export function fieldOfError(message: string): string | null {
  const m = /setting '([^']+)'/.exec(message);
  return m ? m[1] : null;
}

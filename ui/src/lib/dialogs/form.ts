// A form dialog's fields as the window edits them: what each schema
// property looks like as a control, its text while the user types, and
// the value that text becomes for zot (an empty box is left out; a number
// box that does not read as a number is sent as text, so the rules say
// "must be a number").
import { choicesOf } from "./rules";

type Obj = Record<string, unknown>;

/** One field of the form, in schema order. */
export interface Field {
  name: string;
  label: string;
  description: string;
  required: boolean;
  control: "text" | "number" | "checkbox" | "choice" | "multi";
  /** For `text`: the expected shape, as a hint. */
  hint: string;
  choices: { value: string; label: string }[];
}

const HINTS: Record<string, string> = {
  email: "name@example.com",
  uri: "https://…",
  date: "YYYY-MM-DD",
  "date-time": "YYYY-MM-DDTHH:MM:SSZ",
};

/** The fields of `schema` (already checked by zot). */
export function fields(schema: Obj): Field[] {
  const props = (schema.properties ?? {}) as Record<string, Obj>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, p]) => {
    let control: Field["control"] = "text";
    let choices: Field["choices"] = [];
    if (p.type === "number" || p.type === "integer") control = "number";
    else if (p.type === "boolean") control = "checkbox";
    else if (p.type === "array") {
      control = "multi";
      choices = choicesOf((p.items ?? {}) as Obj) ?? [];
    } else {
      const c = choicesOf(p);
      if (c) {
        control = "choice";
        choices = c;
      }
    }
    return {
      name,
      label: typeof p.title === "string" ? p.title : name,
      description: typeof p.description === "string" ? p.description : "",
      required: required.has(name),
      control,
      hint: typeof p.format === "string" ? (HINTS[p.format] ?? "") : "",
      choices,
    };
  });
}

/** What a field holds while it is edited. */
export type Draft = Record<string, string | boolean | string[]>;

/** The first draft: each property's default, or the request's. */
export function initialDraft(schema: Obj, requestDefault: unknown): Draft {
  const props = (schema.properties ?? {}) as Record<string, Obj>;
  const given = (requestDefault && typeof requestDefault === "object" ? requestDefault : {}) as Obj;
  const out: Draft = {};
  for (const f of fields(schema)) {
    const d = f.name in given ? given[f.name] : props[f.name]?.default;
    if (f.control === "checkbox") out[f.name] = d === true;
    else if (f.control === "multi") out[f.name] = Array.isArray(d) ? d.map(String) : [];
    else out[f.name] = d === undefined || d === null ? "" : String(d);
  }
  return out;
}

/** The value zot gets for `draft`. */
export function formValue(schema: Obj, draft: Draft): Obj {
  const out: Obj = {};
  for (const f of fields(schema)) {
    const v = draft[f.name];
    if (f.control === "checkbox") out[f.name] = v === true;
    else if (f.control === "multi") {
      if (Array.isArray(v) && (v.length || f.required)) out[f.name] = v;
    } else if (typeof v === "string" && v !== "") {
      if (f.control === "number") {
        const n = Number(v.trim());
        out[f.name] = v.trim() !== "" && Number.isFinite(n) ? n : v;
      } else out[f.name] = v;
    }
  }
  return out;
}

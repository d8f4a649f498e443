// The dialog rules as the window checks them while the user types: a port
// of extensions/host/src/policy/dialog_rules.rs, which zot applies again before
// answering. Both run the vectors of dialog_rules_vectors.json (the same
// file, with the same messages), so the window never accepts what zot
// refuses or refuses what zot accepts.

/** A field that does not fit, and why. */
export interface Problem {
  field: string;
  reason: string;
}

type Json = unknown;
type Obj = Record<string, Json>;

/** The most choices a select or a schema's choice may offer. */
export const MAX_OPTIONS = 1000;
/** The most fields a form may have. */
export const MAX_FIELDS = 100;

function isObj(v: Json): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isWhole(v: Json): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function kindOf(v: Json): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return "a boolean";
  if (typeof v === "number") return "a number";
  if (typeof v === "string") return "a string";
  if (Array.isArray(v)) return "an array";
  return "an object";
}

/** `message` for a problem, as zot words it. */
export function problemText(p: Problem): string {
  return `${p.field}: ${p.reason}`;
}

/** A string property's choices (`enum`, or `oneOf`/`anyOf` of
 * `{const, title}`), with their labels; null for free text. Throws the
 * reason when they are malformed. */
export function choicesOf(p: Obj): { value: string; label: string }[] | null {
  if ("enum" in p) {
    const list = p.enum;
    if (!Array.isArray(list)) throw "enum must be an array";
    if (!list.every((v) => typeof v === "string")) throw "enum must list strings";
    if (list.length === 0 || list.length > MAX_OPTIONS) throw `enum must list 1 to ${MAX_OPTIONS} values`;
    const names = Array.isArray(p.enumNames) ? p.enumNames : null;
    return (list as string[]).map((v, i) => ({ value: v, label: String(names?.[i] ?? v) }));
  }
  for (const key of ["oneOf", "anyOf"]) {
    if (key in p) {
      const list = p[key];
      if (!Array.isArray(list)) throw `${key} must be an array`;
      if (!list.every((v) => isObj(v) && typeof v.const === "string"))
        throw `${key} must list {const, title} objects`;
      if (list.length === 0 || list.length > MAX_OPTIONS) throw `${key} must list 1 to ${MAX_OPTIONS} values`;
      return (list as Obj[]).map((v) => ({
        value: v.const as string,
        label: typeof v.title === "string" ? v.title : (v.const as string),
      }));
    }
  }
  return null;
}

function itemsChoices(items: Obj): { value: string; label: string }[] | null {
  try {
    return choicesOf(items);
  } catch (r) {
    throw `items: ${String(r)}`;
  }
}

/** Checks one property of the subset; throws the reason. */
function checkProperty(p: Json): void {
  if (!isObj(p)) throw `must be an object, not ${kindOf(p)}`;
  if ("$ref" in p) throw "uses $ref, which the subset does not allow";
  const ty = typeof p.type === "string" ? p.type : "";
  switch (ty) {
    case "string": {
      for (const k of ["minLength", "maxLength"])
        if (k in p && !isWhole(p[k])) throw `${k} must be a whole number`;
      if ("format" in p) {
        const f = typeof p.format === "string" ? p.format : "";
        if (!["email", "uri", "date", "date-time"].includes(f))
          throw `format ${JSON.stringify(f)} is not one of email, uri, date, date-time`;
      }
      const choices = choicesOf(p);
      if ("enumNames" in p) {
        const names = p.enumNames;
        if (!Array.isArray(names)) throw "enumNames must be an array";
        if (names.length !== (choices?.length ?? 0) || !names.every((n) => typeof n === "string"))
          throw "enumNames must name each enum value, as strings";
      }
      break;
    }
    case "number":
    case "integer":
      for (const k of ["minimum", "maximum"])
        if (k in p && typeof p[k] !== "number") throw `${k} must be a number`;
      break;
    case "boolean":
      break;
    case "array": {
      const items = p.items;
      if (!isObj(items)) throw 'an array needs "items" with its choices (enum or anyOf)';
      if (itemsChoices(items) === null)
        throw "an array's items must be a choice (enum or anyOf of {const, title})";
      for (const k of ["minItems", "maxItems"])
        if (k in p && !isWhole(p[k])) throw `${k} must be a whole number`;
      break;
    }
    case "object":
      throw "nested objects are outside the subset";
    case "":
      throw 'has no "type"';
    default:
      throw `type ${JSON.stringify(ty)} is outside the subset`;
  }
  if ("default" in p) {
    const r = fieldProblem(p, p.default);
    if (r) throw `its default ${r}`;
  }
}

/** Checks that `schema` is in the elicitation subset. */
export function checkSchema(schema: Json): Problem | null {
  if (!isObj(schema)) return { field: "schema", reason: `must be an object, not ${kindOf(schema)}` };
  if (schema.type !== "object") return { field: "schema", reason: 'its "type" must be "object"' };
  if ("$ref" in schema || "$defs" in schema)
    return { field: "schema", reason: "uses $ref, which the subset does not allow" };
  const props = schema.properties;
  if (props === undefined) return { field: "schema.properties", reason: "is missing" };
  if (!isObj(props)) return { field: "schema.properties", reason: `must be an object, not ${kindOf(props)}` };
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS)
    return { field: "schema.properties", reason: `has ${names.length} fields (at most ${MAX_FIELDS})` };
  for (const name of names) {
    try {
      checkProperty(props[name]);
    } catch (r) {
      return { field: `schema.properties.${name}`, reason: String(r) };
    }
  }
  const req = schema.required;
  if (req !== undefined) {
    if (!Array.isArray(req))
      return { field: "schema.required", reason: `must be an array, not ${kindOf(req)}` };
    for (const r of req) {
      if (typeof r !== "string") return { field: "schema.required", reason: "must list property names" };
      if (!(r in props))
        return { field: "schema.required", reason: `names ${JSON.stringify(r)}, which is not a property` };
    }
  }
  return null;
}

/** Why `v` does not fit property `p`, or null when it does. */
export function fieldProblem(p: Obj, v: Json): string | null {
  try {
    return fieldCheck(p, v);
  } catch (r) {
    return String(r);
  }
}

function fieldCheck(p: Obj, v: Json): string | null {
  switch (p.type) {
    case "string": {
      if (typeof v !== "string") return `must be text, not ${kindOf(v)}`;
      const choices = choicesOf(p);
      if (choices) return choices.some((c) => c.value === v) ? null : "must be one of the choices";
      // Characters (Unicode scalar values), as zot counts them.
      const n = [...v].length;
      if (typeof p.minLength === "number" && n < p.minLength)
        return `must be at least ${p.minLength} characters`;
      if (typeof p.maxLength === "number" && n > p.maxLength)
        return `must be at most ${p.maxLength} characters`;
      if (p.format === "email" && !isEmail(v)) return "must be an email address like name@example.com";
      if (p.format === "uri" && !isUri(v)) return "must be a URI like https://example.com";
      if (p.format === "date" && !isDate(v)) return "must be a date like 2026-12-31";
      if (p.format === "date-time" && !isDateTime(v))
        return "must be a date and time like 2026-12-31T18:00:00Z";
      return null;
    }
    case "number":
    case "integer": {
      if (typeof v !== "number") return `must be a number, not ${kindOf(v)}`;
      if (p.type === "integer" && !Number.isInteger(v)) return "must be a whole number";
      if (typeof p.minimum === "number" && v < p.minimum) return `must be at least ${p.minimum}`;
      if (typeof p.maximum === "number" && v > p.maximum) return `must be at most ${p.maximum}`;
      return null;
    }
    case "boolean":
      return typeof v === "boolean" ? null : `must be true or false, not ${kindOf(v)}`;
    case "array": {
      if (!Array.isArray(v)) return `must be a list, not ${kindOf(v)}`;
      const choices = (isObj(p.items) ? itemsChoices(p.items) : null) ?? [];
      for (const item of v)
        if (!(typeof item === "string" && choices.some((c) => c.value === item)))
          return "must list only the choices";
      if (typeof p.minItems === "number" && v.length < p.minItems)
        return `must have at least ${p.minItems} chosen`;
      if (typeof p.maxItems === "number" && v.length > p.maxItems)
        return `must have at most ${p.maxItems} chosen`;
      return null;
    }
    default:
      return "has a type outside the subset";
  }
}

/** Checks a form's answer against its schema: only its fields, each
 * fitting, every required one present. */
export function checkFormValue(schema: Obj, value: Json): Problem | null {
  if (!isObj(value)) return { field: "value", reason: `must be an object, not ${kindOf(value)}` };
  const props = isObj(schema.properties) ? schema.properties : {};
  for (const [name, v] of Object.entries(value)) {
    const p = props[name];
    if (!isObj(p)) return { field: name, reason: "is not a field of this form" };
    const r = fieldProblem(p, v);
    if (r) return { field: name, reason: r };
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const r of required)
    if (typeof r === "string" && !(r in value)) return { field: r, reason: "is required" };
  return null;
}

/** Every field's problem at once, for showing beside each field as the
 * user types (same rules as `checkFormValue`). */
export function fieldProblems(schema: Obj, value: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  const props = isObj(schema.properties) ? schema.properties : {};
  for (const [name, v] of Object.entries(value)) {
    const p = props[name];
    if (!isObj(p)) out[name] = "is not a field of this form";
    else {
      const r = fieldProblem(p, v);
      if (r) out[name] = r;
    }
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const r of required) if (typeof r === "string" && !(r in value)) out[r] = "is required";
  return out;
}

function isEmail(s: string): boolean {
  const at = s.indexOf("@");
  if (at < 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  return (
    local.length > 0 &&
    !domain.includes("@") &&
    domain.includes(".") &&
    !domain.startsWith(".") &&
    !domain.endsWith(".") &&
    !/\s/u.test(s)
  );
}

function isUri(s: string): boolean {
  const colon = s.indexOf(":");
  if (colon < 0) return false;
  return /^[A-Za-z][A-Za-z0-9+.-]*$/.test(s.slice(0, colon)) && colon + 1 < s.length && !/\s/u.test(s);
}

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return days !== undefined && d >= 1 && d <= days;
}

function isDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1])) return false;
  const ok = (x: string | undefined, max: number) => x === undefined || Number(x) <= max;
  return ok(m[2], 23) && ok(m[3], 59) && ok(m[4], 60) && ok(m[7], 23) && ok(m[8], 59);
}

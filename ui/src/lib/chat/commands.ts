// Slash commands: the built-ins the UI handles itself, parsing of the
// editor's text, and the autocomplete that lists built-in and extension
// commands (matched case-insensitively, the owning extension shown).
import { BUILTIN_COMMANDS } from "../bindings/builtinCommands";
import type { CommandInfo } from "../bindings/CommandInfo";
import type { ExtensionSummary } from "../bindings/ExtensionSummary";

/** Built-in commands (the protocol crate's one table); they win over any
 *  extension command of the same name. */
export const BUILTINS: CommandInfo[] = BUILTIN_COMMANDS.map(({ name, description }) => ({
  name,
  description,
}));

/** `/name args` split; `null` when the text is not a command. */
export function parseCommand(text: string): { name: string; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}

/** Every command: built-ins first, then extension commands in load order. */
export function allCommands(extensions: ExtensionSummary[]): CommandInfo[] {
  const seen = new Set(BUILTINS.map((c) => c.name.toLowerCase()));
  const out = [...BUILTINS];
  for (const ext of extensions) {
    for (const c of ext.commands) {
      const key = c.name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...c, extension: c.extension ?? ext.name });
    }
  }
  return out;
}

/** Suggestions for the editor's text: only while the first word is being
 * typed. Prefix matches come first, then substring matches; both
 * case-insensitive. */
export function complete(text: string, commands: CommandInfo[]): CommandInfo[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const q = m[1].toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter(
    (c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q),
  );
  return [...prefix, ...inner];
}

/** Resolves a typed name to its canonical spelling (case-insensitive). */
export function canonical(name: string, commands: CommandInfo[]): CommandInfo | undefined {
  const lower = name.toLowerCase();
  return commands.find((c) => c.name.toLowerCase() === lower);
}

// "Add MCP server": what the user typed or pasted, as one `mcpServers`
// entry for `ext_add_mcp` (the host's mcp_install checks it and says why
// when it cannot be used).

export interface McpEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** A parsed entry and, from a pasted `{"mcpServers": {name: …}}`, its name. */
export interface ParsedMcp {
  entry: McpEntry;
  name?: string;
}

/**
 * Reads a command line (`npx -y server`), an http(s) URL, or a pasted JSON
 * entry (one server, or an `mcpServers` object holding exactly one).
 */
export function parseMcpInput(text: string): ParsedMcp {
  const t = text.trim();
  if (!t) throw new Error("give a command, a URL or a JSON entry");
  if (t.startsWith("{")) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new Error(`the pasted entry is not JSON: ${(e as Error).message}`);
    }
    const obj = v as Record<string, unknown>;
    const servers = (obj.mcpServers ?? obj.servers) as Record<string, McpEntry> | undefined;
    if (servers && typeof servers === "object") {
      const names = Object.keys(servers);
      if (names.length !== 1)
        throw new Error(
          `the pasted object has ${names.length} servers; paste one, or use zot ext import-mcp FILE`,
        );
      return { entry: servers[names[0]], name: names[0] };
    }
    return { entry: obj as McpEntry };
  }
  if (/^https?:\/\//.test(t)) return { entry: { url: t } };
  const words = t.split(/\s+/);
  return { entry: { command: words[0], args: words.slice(1) } };
}

/** A usable entry name from a server's key ("GitHub Server" → "github-server"). */
export function mcpName(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

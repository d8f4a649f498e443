import { describe, expect, it } from "vitest";
import { mcpName, parseMcpInput } from "./mcp";

describe("Add MCP server input", () => {
  it("reads a command line, a URL and a pasted entry", () => {
    expect(parseMcpInput("npx -y @modelcontextprotocol/server-everything")).toEqual({
      entry: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] },
    });
    expect(parseMcpInput(" https://example.com/mcp ")).toEqual({
      entry: { url: "https://example.com/mcp" },
    });
    expect(parseMcpInput('{"command":"uvx","args":["x"],"env":{"K":"v"}}').entry.env).toEqual({ K: "v" });
    expect(parseMcpInput('{"mcpServers":{"GitHub":{"url":"https://g/mcp"}}}')).toEqual({
      entry: { url: "https://g/mcp" },
      name: "GitHub",
    });
  });

  it("says what is wrong with bad input", () => {
    expect(() => parseMcpInput("")).toThrow(/command/);
    expect(() => parseMcpInput("{nope")).toThrow(/not JSON/);
    expect(() => parseMcpInput('{"mcpServers":{"a":{},"b":{}}}')).toThrow(/import-mcp/);
  });

  it("makes names zot can use", () => {
    expect(mcpName("GitHub Server")).toBe("github-server");
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AppHost,
  ERR,
  MAX_HEIGHT,
  MAX_PER_SECOND,
  MAX_TOOL_CALLS,
  PROTOCOL_VERSION,
  isWebLink,
  messageText,
} from "./appHost";
import type { AppDoors } from "./appHost";
import type { AppToolResult } from "../bindings/AppToolResult";

type Posted = {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: any;
  result?: any;
  error?: any;
};

function setup(over: Partial<AppDoors> = {}, now = () => 0) {
  const posted: Posted[] = [];
  const notes: string[] = [];
  const heights: number[] = [];
  const doors: AppDoors = {
    post: (m) => posted.push(m as Posted),
    callTool: async (name, args) => ({
      content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
      is_error: false,
      structured_content: { ok: true },
    }),
    sendMessage: async () => {},
    openLink: async () => true,
    resize: (h) => heights.push(h),
    note: (l) => notes.push(l),
    ...over,
  };
  const host = new AppHost(
    doors,
    { tool: "show_chart", args: { title: "q3" }, context: { theme: "dark", displayMode: "inline" } },
    now,
  );
  return { host, posted, notes, heights };
}

const req = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: "2.0", id, method, params });
const note = (method: string, params: unknown = {}) => ({ jsonrpc: "2.0", method, params });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("the MCP Apps host", () => {
  it("answers ui/initialize with its context, then sends the input and the result once initialised", async () => {
    const { host, posted } = setup();
    host.setResult({
      content: [{ type: "text", text: "3 bars" }],
      isError: false,
      structured: { bars: [3] },
    });
    host.receive(
      req(1, "ui/initialize", { protocolVersion: PROTOCOL_VERSION, appInfo: { name: "t", version: "1" } }),
    );
    expect(posted[0].id).toBe(1);
    expect(posted[0].result.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(posted[0].result.hostInfo.name).toBe("zot");
    expect(posted[0].result.hostContext.theme).toBe("dark");
    expect(posted[0].result.hostContext.toolInfo.tool.name).toBe("show_chart");
    // Nothing is sent before `initialized`.
    expect(posted).toHaveLength(1);
    host.receive(note("ui/notifications/initialized"));
    expect(posted.map((p) => p.method)).toEqual([
      undefined,
      "ui/notifications/tool-input",
      "ui/notifications/tool-result",
    ]);
    expect(posted[1].params).toEqual({ arguments: { title: "q3" } });
    expect(posted[2].params).toEqual({
      content: [{ type: "text", text: "3 bars" }],
      structuredContent: { bars: [3] },
    });
    // Each once.
    host.setResult({ content: [], isError: false });
    expect(posted).toHaveLength(3);
  });

  it("a result that arrives after the handshake is sent when it comes", () => {
    const { host, posted } = setup();
    host.receive(note("ui/notifications/initialized"));
    expect(posted.map((p) => p.method)).toEqual(["ui/notifications/tool-input"]);
    host.setResult({ content: [{ type: "text", text: "boom" }], isError: true });
    expect(posted[1]).toMatchObject({ method: "ui/notifications/tool-result", params: { isError: true } });
  });

  it("tools/call goes through the door and answers the MCP result", async () => {
    const calls: string[] = [];
    const { host, posted } = setup({
      callTool: async (name, args) => {
        calls.push(`${name}:${JSON.stringify(args)}`);
        return { content: [{ type: "text", text: "sum: 5" }], is_error: false } as AppToolResult;
      },
    });
    host.receive(req(7, "tools/call", { name: "add", arguments: { a: 2, b: 3 } }));
    await flush();
    expect(calls).toEqual(['add:{"a":2,"b":3}']);
    expect(posted[0]).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "sum: 5" }] },
    });
  });

  it("a denied or refused tools/call is a JSON-RPC error for the app, and said once", async () => {
    const { host, posted, notes } = setup({
      callTool: async () => {
        throw new Error("app_tool_call: the MCP App of apps asked for echo, a tool of other; refused");
      },
    });
    host.receive(req(3, "tools/call", { name: "echo", arguments: {} }));
    await flush();
    expect(posted[0].error.code).toBe(ERR.denied);
    expect(posted[0].error.message).toContain("refused");
    expect(notes).toHaveLength(1);
    host.receive(req(4, "tools/call", { arguments: {} }));
    host.receive(req(5, "tools/call", { name: "x", arguments: [1] }));
    await flush();
    expect(posted[1].error.code).toBe(ERR.params);
    expect(posted[2].error.code).toBe(ERR.params);
  });

  it("at most a few tool calls of an app run at once", async () => {
    const waiting: (() => void)[] = [];
    const { host, posted } = setup({
      callTool: () =>
        new Promise((r) => waiting.push(() => r({ content: [], is_error: false } as AppToolResult))),
    });
    for (let i = 0; i < MAX_TOOL_CALLS + 2; i++)
      host.receive(req(i, "tools/call", { name: "add", arguments: {} }));
    await flush();
    expect(waiting).toHaveLength(MAX_TOOL_CALLS);
    expect(posted.filter((p) => p.error?.code === ERR.denied)).toHaveLength(2);
    waiting.forEach((w) => w());
    await flush();
    expect(posted.filter((p) => p.result)).toHaveLength(MAX_TOOL_CALLS);
  });

  it("ui/message sends the user's text; anything else is refused", async () => {
    const sent: string[] = [];
    const { host, posted } = setup({ sendMessage: async (t) => void sent.push(t) });
    host.receive(req(1, "ui/message", { role: "user", content: [{ type: "text", text: "explain bar 2" }] }));
    host.receive(req(2, "ui/message", { role: "assistant", content: [{ type: "text", text: "x" }] }));
    host.receive(
      req(3, "ui/message", { role: "user", content: [{ type: "text", text: "x".repeat(20000) }] }),
    );
    await flush();
    expect(sent).toEqual(["explain bar 2"]);
    expect(posted.find((p) => p.id === 1)?.result).toEqual({});
    expect(posted.find((p) => p.id === 2)?.error.code).toBe(ERR.params);
    expect(posted.find((p) => p.id === 3)?.error.message).toContain("over the limit");
  });

  it("ui/open-link opens only http(s), and only when the user confirms", async () => {
    let answer = false;
    const asked: string[] = [];
    const { host, posted } = setup({
      openLink: async (u) => {
        asked.push(u);
        return answer;
      },
    });
    host.receive(req(1, "ui/open-link", { url: "javascript:alert(1)" }));
    host.receive(req(2, "ui/open-link", { url: "https://example.com/a" }));
    await flush();
    answer = true;
    host.receive(req(3, "ui/open-link", { url: "https://example.com/b" }));
    await flush();
    expect(asked).toEqual(["https://example.com/a", "https://example.com/b"]);
    expect(posted.find((p) => p.id === 1)?.error.code).toBe(ERR.params);
    expect(posted.find((p) => p.id === 2)?.error.message).toBe("Link opening denied by user");
    expect(posted.find((p) => p.id === 3)?.result).toEqual({});
  });

  it("size changes resize the card within its limits", () => {
    const { host, heights } = setup();
    host.receive(note("ui/notifications/size-changed", { width: 300, height: 200 }));
    host.receive(note("ui/notifications/size-changed", { height: 100000 }));
    host.receive(note("ui/notifications/size-changed", { height: 1 }));
    host.receive(note("ui/notifications/size-changed", { height: "tall" }));
    expect(heights).toEqual([200, MAX_HEIGHT, 48]);
  });

  it("unknown methods and malformed messages get an error or nothing", () => {
    const { host, posted } = setup();
    host.receive(req(1, "sampling/createMessage"));
    host.receive("not json-rpc");
    host.receive({ id: 2, method: "ping" });
    host.receive(req(3, "ping"));
    expect(posted[0].error.code).toBe(ERR.method);
    expect(posted[1]).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(posted).toHaveLength(2);
  });

  describe("a flood", () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it("is cut at the rate and counted in one line per burst", () => {
      let t = 0;
      const { host, posted, notes } = setup({}, () => t);
      for (let i = 0; i < 10000; i++) host.receive(req(i, "ping"));
      expect(posted).toHaveLength(MAX_PER_SECOND);
      expect(host.dropped).toBe(10000 - MAX_PER_SECOND);
      expect(notes).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(notes).toEqual([
        `${10000 - MAX_PER_SECOND} of its messages were dropped (over ${MAX_PER_SECOND} a second)`,
      ]);
      // The next second is read again.
      t = 1000;
      host.receive(req(1, "ping"));
      expect(posted).toHaveLength(MAX_PER_SECOND + 1);
    });
  });
});

describe("helpers", () => {
  it("reads ui/message text from one block or many", () => {
    expect(messageText({ role: "user", content: { type: "text", text: "a" } })).toBe("a");
    expect(
      messageText({ content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }] }),
    ).toBe("a\nb");
    expect(messageText({ role: "user", content: [] })).toBeNull();
  });

  it("knows a web link", () => {
    expect(isWebLink("https://a.b/c")).toBe(true);
    expect(isWebLink("http://a.b")).toBe(true);
    for (const bad of ["file:///etc/passwd", "javascript:1", "zotpanel://localhost/x", "nope"])
      expect(isWebLink(bad)).toBe(false);
  });
});

// A minimal W3C WebDriver client over fetch: just the calls the E2E tests
// use, so the suite needs no npm dependencies.

/** Keys as WebDriver encodes them. */
export const Keys = {
  up: "\uE013",
  down: "\uE015",
  left: "\uE012",
  right: "\uE014",
  enter: "\uE007",
  escape: "\uE00C",
  tab: "\uE004",
  backspace: "\uE003",
  shift: "\uE008",
  control: "\uE009",
};

const ELEMENT = "element-6066-11e4-a52e-4f735466cecc";

/** One WebDriver session. */
export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  /** Creates a session for a Tauri application binary. */
  static async create(base, application) {
    const res = await call(base, "POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application } } },
    });
    return new Session(base, res.sessionId);
  }

  cmd(method, path, body) {
    return call(this.base, method, `/session/${this.id}${path}`, body);
  }

  async find(css) {
    const el = await this.cmd("POST", "/element", { using: "css selector", value: css });
    this.elKey = Object.keys(el)[0];
    return el[this.elKey];
  }

  async findAll(css) {
    const els = await this.cmd("POST", "/elements", { using: "css selector", value: css });
    return els.map((e) => Object.values(e)[0]);
  }

  async click(el) {
    // The target may be scrolled out of view (or out of a windowed list), so bring it into view first.
    await this.exec(`arguments[0].scrollIntoView({ block: "center" });`, [{ [this.elKey ?? ELEMENT]: el }]);
    return this.cmd("POST", `/element/${el}/click`, {});
  }

  type(el, text) {
    return this.cmd("POST", `/element/${el}/value`, { text });
  }

  text(el) {
    return this.cmd("GET", `/element/${el}/text`);
  }

  /** Runs a script in the page; `args` are passed as `arguments`. */
  exec(script, args = []) {
    return this.cmd("POST", "/execute/sync", { script, args });
  }

  /** Runs an async script; it finishes by calling its last argument. */
  async execAsync(script, args = []) {
    return this.cmd("POST", "/execute/async", { script, args });
  }

  /** Presses keys on whatever has focus (Actions API). */
  async keys(...keys) {
    const actions = [];
    for (const k of keys) actions.push({ type: "keyDown", value: k }, { type: "keyUp", value: k });
    await this.cmd("POST", "/actions", { actions: [{ type: "key", id: "kbd", actions }] });
    await this.cmd("DELETE", "/actions");
  }

  /** A key pressed with modifiers held, e.g. chord(["\uE009"], "k") for Ctrl+K. */
  async chord(mods, key) {
    const actions = [
      ...mods.map((m) => ({ type: "keyDown", value: m })),
      { type: "keyDown", value: key },
      { type: "keyUp", value: key },
      ...mods.map((m) => ({ type: "keyUp", value: m })).reverse(),
    ];
    await this.cmd("POST", "/actions", { actions: [{ type: "key", id: "kbd", actions }] });
    await this.cmd("DELETE", "/actions");
  }

  /** Mouse presses at a point of the viewport (Actions API): `clicks`
   * presses of `button` (0 primary, 2 context) in a row, so 2 is a double
   * click. */
  async pointerAt(x, y, { button = 0, clicks = 1 } = {}) {
    const actions = [{ type: "pointerMove", duration: 0, origin: "viewport", x: Math.round(x), y: Math.round(y) }];
    for (let i = 0; i < clicks; i++) actions.push({ type: "pointerDown", button }, { type: "pointerUp", button });
    await this.cmd("POST", "/actions", {
      actions: [{ type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions }],
    });
    await this.cmd("DELETE", "/actions");
  }

  /** A press at one point of the viewport, a move to another, a release. */
  async pointerDrag(x0, y0, x1, y1) {
    const at = (x, y) => ({ type: "pointerMove", duration: 50, origin: "viewport", x: Math.round(x), y: Math.round(y) });
    await this.cmd("POST", "/actions", {
      actions: [
        {
          type: "pointer",
          id: "mouse",
          parameters: { pointerType: "mouse" },
          actions: [at(x0, y0), { type: "pointerDown", button: 0 }, at(x1, y1), { type: "pointerUp", button: 0 }],
        },
      ],
    });
    await this.cmd("DELETE", "/actions");
  }

  /** A wheel turn of `deltaY` pixels over a point of the viewport. */
  async wheelAt(x, y, deltaY) {
    await this.cmd("POST", "/actions", {
      actions: [
        {
          type: "wheel",
          id: "wheel",
          actions: [{ type: "scroll", origin: "viewport", x: Math.round(x), y: Math.round(y), deltaX: 0, deltaY, duration: 0 }],
        },
      ],
    });
    await this.cmd("DELETE", "/actions");
  }

  /** A PNG of the viewport. With WebKit's compositing off (what zot picks
   * without a GPU, docs/desktop.md), WebKitWebDriver answers only after the
   * page paints again, and a page at rest never does: the shot would hang.
   * So one corner pixel changes shade (1 % black, then 2 %) every frame
   * until the shot is taken. */
  async screenshot() {
    await this.exec(`
      const px = document.createElement('div');
      px.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none;z-index:2147483647';
      document.body.append(px);
      let on = true, n = 0;
      const tick = () => {
        if (!on) return px.remove();
        px.style.background = n++ % 2 ? 'rgba(0,0,0,0.01)' : 'rgba(0,0,0,0.02)';
        requestAnimationFrame(tick);
      };
      tick();
      window.__zotShotDone = () => { on = false; };`);
    try {
      const b64 = await this.cmd("GET", "/screenshot");
      return Buffer.from(b64, "base64");
    } finally {
      await this.exec(`window.__zotShotDone?.()`);
    }
  }

  /** Polls `fn` until it returns a truthy value; fails with `what`. */
  async until(what, fn, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
      try {
        last = await fn();
        if (last) return last;
      } catch (e) {
        last = e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
  }

  /** Text content of every element matching `css`. */
  texts(css) {
    return this.exec(`return [...document.querySelectorAll(arguments[0])].map(e => e.textContent);`, [css]);
  }

  close() {
    return call(this.base, "DELETE", `/session/${this.id}`).catch(() => {});
  }
}

async function call(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.value ?? json)}`);
  return json.value;
}

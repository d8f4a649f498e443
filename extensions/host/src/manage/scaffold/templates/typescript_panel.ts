
const PANEL = "{{name}}-panel";
let count = 0;
let clicked = "nothing yet";
let size = "not told yet";
const panel = () => ({
  id: PANEL,
  title: "{{name}}",
  lines: [`count: ${count}`, "", "press + or - (or turn the wheel) to change it", `last click: ${clicked}`, `panel size: ${size}`],
  footer: "+/- count · wheel · click · esc close",
});

ext.command("{{name}}-panel", "open the {{name}} panel", () => Response.openPanel(panel()));

ext.onPanelKey((ctx: Context, k) => {
  if (k.key === "esc") return ctx.closePanel(k.panel_id);
  if (k.key === "rune" && (k.text === "+" || k.text === "-")) count += k.text === "+" ? 1 : -1;
  ctx.renderPanel(panel());
});

// Registering these declares `panel_mouse` and `panel_resize`.
ext.onPanelMouse((ctx: Context, ev) => {
  if (ev.action === "wheel") count -= ev.delta ?? 0; // wheel up counts up
  else clicked = `${ev.action} on line ${ev.row}, character ${ev.col}`;
  ctx.renderPanel(panel());
});

ext.onPanelResize((ctx: Context, ev) => {
  size = `${ev.cols} x ${ev.rows} cells`;
  ctx.renderPanel(panel());
});

// The extension manager's list and detail pane, as the E2E tests read and
// press them: a row per extension (its state badge), and the detail pane
// of the selected one (its switch, its buttons, its menu of rarer actions).

const row = (name) => `[data-test=ext-row][data-name="${name}"]`;
const detail = (name) => `[data-test=ext-detail][data-name="${name}"]`;

/** The state badge of extension `name`'s row, or null when it has none. */
export function cardState(s, name) {
  return s.exec(`const c = document.querySelector('${row(name)}');
    return c ? c.querySelector('[data-test=ext-state]').textContent : null;`);
}

/** Opens `name` in the detail pane (a click on its row) unless it is there. */
export async function openDetail(s, name) {
  await s.until(`the row of ${name}`, () => s.exec(`return !!document.querySelector('${row(name)}')`));
  const shown = await s.exec(`return !!document.querySelector('${detail(name)}')`);
  if (!shown) await s.click(await s.find(row(name)));
  await s.until(`the detail of ${name}`, () => s.exec(`return !!document.querySelector('${detail(name)}')`));
}

/** The text of the element `test` in `name`'s detail pane (null when absent). */
export async function detailText(s, name, test) {
  await openDetail(s, name);
  return s.exec(`return document.querySelector('${detail(name)} [data-test=${test}]')?.textContent ?? null;`);
}

/** Clicks button `test` in `name`'s detail pane once it is there and
 * enabled, opening the pane and, for a rarer action, its "⋯" menu first: a
 * state can change (from the host's event) before the manager's own action
 * has returned, and a click on a button disabled while the manager is busy
 * does nothing. `enable`/`disable` are the pane's switch in that position. */
export async function clickInCard(s, name, test) {
  await openDetail(s, name);
  const sel = `${detail(name)} [data-test=${test}]`;
  const menu = `${detail(name)} [data-test=more-actions]`;
  await s.until(`${test} on ${name} to be clickable`, async () => {
    const state = await s.exec(`const b = document.querySelector('${sel}');
      return b ? (b.disabled ? 'disabled' : 'ready') : 'absent';`);
    if (state === "ready") return true;
    if (state === "absent") {
      // A rarer action lives in the menu: open it (once; it stays open).
      const open = await s.exec(`return document.querySelector('${menu}')?.getAttribute('aria-expanded')`);
      if (open === "false") await s.click(await s.find(menu));
    }
    return false;
  });
  await s.click(await s.find(sel));
}

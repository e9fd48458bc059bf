// NetSurf 3.10 with a page area of 240×320, a cheap phone's screen, on the
// pages a subscriber lands on, in both languages:
// - the page's heading shows on the first screen;
// - the page does not scroll sideways (the mouse wheel turned sideways over
//   it moves nothing);
// - the header is legible: the brand red with light text on it, not white
//   on white (an engine without custom properties drops a `var()` that has
//   no plain declaration before it);
// - the header's "Menu" link reaches the navigation: clicked, it shows the
//   menu's links.
// The heading, the "Menu" link and the navigation's links are found on the
// screen by painting them in marker colours with NetSurf's user style sheet,
// in a second visit, so the first shows the page as it is. Screenshots and
// NetSurf's output go to RESULTS/netsurf/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { calibrate, colour, hex, openNetSurf, SHOWN, withScreen } from "./netsurf.mjs";
import { fileName, heading, keep, language, menuTarget, RESULTS, withSite } from "./site.mjs";

const PATHS = ["/", "/mpesa", "/vodacom-business", "/account", "/mpesa-agents/dar-es-salaam"];
const PAGES = PATHS.flatMap((path) => [path, path === "/" ? "/sw" : `/sw${path}`]);

let site;
let display;
let screen;
withSite((started) => (site = started));
withScreen((chosen) => (display = chosen));

/** What NetSurf's user style sheet paints: the heading green, the "Menu" link magenta, the links it leads to cyan. */
function markers(target) {
  const css = ["h1, h1 * { color: #0f0 !important; }"];
  if (target) {
    const link = `a[href="#${target}"]`;
    css.push(`#${target} a:not([href="#${target}"]), #${target} a:not([href="#${target}"]) * { color: #0ff !important; }`);
    css.push(`${link}, ${link} * { color: #f0f !important; }`);
  }
  return css.join("\n");
}

/** What is wrong with the header at the top of `pixels`, if anything. */
function headerProblem(pixels) {
  const background = pixels.commonest(0);
  if (!colour.brandRed(background)) return `the header's background is ${hex(background)}, not the brand red`;
  let rows = 0;
  while (rows < pixels.height && colour.brandRed(pixels.commonest(rows))) rows++;
  // What is drawn on the red: light text (and white fields), not dark.
  const light = pixels.find((rgb) => !colour.brandRed(rgb) && colour.light(rgb), 0, rows).count;
  const dark = pixels.find((rgb) => !colour.brandRed(rgb) && colour.dark(rgb), 0, rows).count;
  if (light < SHOWN || light <= dark) return `the header's ${rows} red rows hold ${light} light pixels and ${dark} dark ones besides the red: no light text on it`;
  return undefined;
}

test("NetSurf's window shows a 240×320 page area", async () => {
  screen = await calibrate(display);
});

for (const path of PAGES) {
  test(`NetSurf at 240×320, ${path}: heading on the first screen, no sideways scroll, a legible header, a menu that opens`, async (t) => {
    assert.ok(screen, "NetSurf's window was not sized (see the first test)");
    const html = await (await fetch(site.base + path)).text();
    const title = heading(html);
    const target = menuTarget(html, language(path));
    const name = fileName(path);
    const shots = join(RESULTS, "netsurf");
    keep("netsurf", `${name}.html`, html);
    const problems = [];

    const plain = await openNetSurf(display, site.base + path, { ...screen, log: join(shots, `${name}.log`) });
    try {
      const shown = await plain.settled();
      await plain.save(join(shots, `${name}.png`));
      const header = headerProblem(shown);
      if (header) problems.push(header);
      await plain.pointAtCorner();
      const still = await plain.settled();
      await plain.wheelRight(20);
      const turned = await plain.settled();
      if (!turned.equals(still)) {
        await plain.save(join(shots, `${name}.sideways.png`));
        problems.push(`the page scrolls sideways (by about ${turned.shiftFrom(still)} px)`);
      }
    } finally {
      await plain.stop();
    }

    const marked = await openNetSurf(display, site.base + path, { ...screen, userCss: markers(target), log: join(shots, `${name}.marked.log`) });
    try {
      const shown = await marked.settled();
      await marked.save(join(shots, `${name}.marked.png`));
      if (shown.find(colour.green).count < SHOWN) problems.push(`the heading "${title}" is not on the first screen`);
      const menu = shown.find(colour.magenta);
      if (!target) problems.push("the header has no link to the navigation");
      else if (menu.count < SHOWN) problems.push("the header's Menu link is not on the first screen");
      else {
        await marked.click(menu.x, menu.y);
        const opened = await marked.settled();
        await marked.save(join(shots, `${name}.menu.png`));
        if (opened.find(colour.cyan).count < SHOWN) problems.push(`the Menu link (to #${target}) shows none of the navigation's links`);
      }
    } finally {
      await marked.stop();
    }

    t.diagnostic(`NetSurf ${path}: ${problems.length ? problems.join("; ") : "heading shown, no sideways scroll, header legible, menu opens"}`);
    assert.deepEqual(problems, [], `${path} in NetSurf (screenshots in ${shots}/${name}*.png)`);
  });
}

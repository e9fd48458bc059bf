// NetSurf (Debian's netsurf-gtk) on a virtual screen (Xvfb), sized so that
// its page area is a feature phone's 240×320, driven with xdotool and read
// from screenshots (ImageMagick's `import`).
//
// A run has its own home: a Choices file (the window's size) and, to find
// things on the screen, a user style sheet (`user.css`, which NetSurf reads
// from its configuration folder) that paints chosen elements in marker
// colours without moving anything.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before } from "node:test";
import { run } from "./site.mjs";

/** The page area a feature phone shows. */
export const PHONE = { width: 240, height: 320 };
/**
 * The virtual screen: NetSurf's window in its top left corner, and room
 * to its right for a list's pop-up menu, which GTK opens at the mouse.
 */
const SCREEN = { x: 0, y: 0, width: 1024, height: 768 };

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Starts Xvfb on a free display before a file's tests and stops it after;
 * `assign` receives the display ("`:N`"). `-noreset`: otherwise the server
 * resets as its last client leaves, between two NetSurf runs, and the next
 * one cannot connect.
 */
export function withScreen(assign) {
  let server;
  before(async () => {
    server = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", `${SCREEN.width}x${SCREEN.height}x24`, "-nolisten", "tcp", "-noreset"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
    const display = await new Promise((ok, fail) => {
      let said = "";
      server.stdio[3].on("data", (chunk) => {
        said += chunk;
        if (said.endsWith("\n")) ok(`:${said.trim()}`);
      });
      server.once("exit", (code) => fail(new Error(`Xvfb ended (${code}) before it chose a display`)));
    });
    assign(display);
  });
  after(() => server?.kill());
}

/** A screenshot's pixels: `at(x, y)` is `[r, g, b]`. */
class Pixels {
  constructor(width, height, data) {
    Object.assign(this, { width, height, data });
  }

  at(x, y) {
    const i = 3 * (y * this.width + x);
    return [this.data[i], this.data[i + 1], this.data[i + 2]];
  }

  /**
   * The pixels `test([r, g, b])` accepts in the rows `from` to `to`
   * (excluded): how many, their centre (`x`, `y`) and the box around them
   * (`left`, `top`, `right`, `bottom`, all included).
   */
  find(test, from = 0, to = this.height) {
    const found = { count: 0, x: 0, y: 0, left: Infinity, top: Infinity, right: -1, bottom: -1 };
    for (let y = from; y < to; y++) {
      for (let x = 0; x < this.width; x++) {
        if (!test(this.at(x, y))) continue;
        found.count++;
        found.x += x;
        found.y += y;
        found.left = Math.min(found.left, x);
        found.top = Math.min(found.top, y);
        found.right = Math.max(found.right, x);
        found.bottom = Math.max(found.bottom, y);
      }
    }
    return { ...found, x: Math.round(found.x / found.count), y: Math.round(found.y / found.count) };
  }

  /** The commonest colour of row `y`. */
  commonest(y) {
    const counts = new Map();
    for (let x = 0; x < this.width; x++) {
      const key = this.at(x, y).join(",");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1])[0][0].split(",").map(Number);
  }

  equals(other) {
    return this.data.equals(other.data);
  }

  /**
   * How far left of `before` this screenshot shows the same page: the shift
   * under half the width that matches the largest share of pixels.
   */
  shiftFrom(before) {
    let best = { shift: 0, same: -1 };
    for (let shift = 1; shift < this.width / 2; shift++) {
      let same = 0;
      for (let y = 0; y < this.height; y += 2) {
        for (let x = 0; x + shift < this.width; x += 2) {
          const i = 3 * (y * this.width + x);
          const j = 3 * (y * this.width + x + shift);
          if (this.data[i] === before.data[j] && this.data[i + 1] === before.data[j + 1] && this.data[i + 2] === before.data[j + 2]) same++;
        }
      }
      same /= this.width - shift;
      if (same > best.same) best = { shift, same };
    }
    return best.shift;
  }
}

/** Within anti-aliasing's reach of `[r, g, b]`. */
const near = (want) => (rgb) => rgb.reduce((sum, c, i) => sum + Math.abs(c - want[i]), 0) <= 90;

/** Colours, with room for anti-aliasing. */
export const colour = {
  brandRed: ([r, g, b]) => r >= 180 && g <= 60 && b <= 60,
  light: ([r, g, b]) => 0.3 * r + 0.59 * g + 0.11 * b >= 190,
  dark: ([r, g, b]) => 0.3 * r + 0.59 * g + 0.11 * b < 100,
  /** The marker colours of a user style sheet (none a page or NetSurf's defaults use): green, magenta, cyan. */
  green: near([0, 255, 0]),
  magenta: near([255, 0, 255]),
  cyan: near([0, 255, 255]),
  yellow: near([255, 255, 0]),
  orange: near([255, 136, 0]),
  purple: near([136, 0, 255]),
  azure: near([0, 136, 255]),
};

/** Fewest pixels of a marker colour that count as the thing shown. */
export const SHOWN = 20;

export const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/**
 * NetSurf showing `url` on `display`, its window `window` ({ width, height })
 * big; `userCss` is its user style sheet. `area` ({ x, y, width, height }) is
 * where its page shows on the screen, once known (see `calibrate`).
 */
export async function openNetSurf(display, url, { window, area, userCss = "", log }) {
  const home = mkdtempSync(join(tmpdir(), "small-netsurf-"));
  const config = join(home, ".config", "netsurf");
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, "Choices"), `window_x:0\nwindow_y:0\nwindow_width:${window.width}\nwindow_height:${window.height}\n`);
  writeFileSync(join(config, "user.css"), userCss);
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), DISPLAY: display, NO_AT_BRIDGE: "1" };
  const child = spawn("netsurf-gtk", [url], { env, stdio: ["ignore", "pipe", "pipe"] });
  const said = [];
  child.stdout.on("data", (chunk) => said.push(chunk));
  child.stderr.on("data", (chunk) => said.push(chunk));
  const x = (...args) => run("xdotool", args, { env: { DISPLAY: display } });

  const browser = {
    area,
    /** The page area's pixels now. */
    async capture(region = browser.area) {
      const ppm = await run("import", ["-window", "root", "-crop", `${region.width}x${region.height}+${region.x}+${region.y}`, "-depth", "8", "ppm:-"], { env: { DISPLAY: display }, timeoutMs: 10_000, encoding: "buffer" });
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString("latin1", 0, 40));
      if (!header) throw new Error("import gave no PPM image");
      return new Pixels(Number(header[1]), Number(header[2]), ppm.subarray(header[0].length));
    },
    /**
     * The page area's pixels once they stopped changing (the page loaded,
     * laid out and painted): the same `times` times `every` ms apart.
     */
    async settled({ ms = 20_000, times = 3, every = 250 } = {}) {
      const until = Date.now() + ms;
      let last = await browser.capture();
      let same = 0;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`NetSurf ended (${child.exitCode}): ${Buffer.concat(said).toString().slice(-2000)}`);
        await sleep(every);
        const now = await browser.capture();
        same = now.equals(last) ? same + 1 : 0;
        last = now;
        if (same >= times) return now;
        if (Date.now() > until) throw new Error(`NetSurf's page still changing after ${ms} ms`);
      }
    },
    /** Does `act` (a click, a key) and waits for the next page to show and settle. */
    async navigate(act, ms = 20_000) {
      const before = await browser.capture();
      await act();
      const until = Date.now() + ms;
      while ((await browser.capture()).equals(before)) {
        if (Date.now() > until) throw new Error(`NetSurf showed no other page within ${ms} ms`);
        await sleep(100);
      }
      return browser.settled();
    },
    /**
     * Scrolls the page down until pixels of `test` show, at least `SHOWN`;
     * returns where (`find`). Fails naming `what` at the page's end.
     */
    async scrollTo(test, what) {
      let shown = await browser.settled();
      for (;;) {
        const found = shown.find(test);
        if (found.count >= SHOWN) return found;
        await x("mousemove", String(browser.area.x + browser.area.width / 2), String(browser.area.y + browser.area.height / 2), "click", "--repeat", "8", "5");
        const next = await browser.settled({ times: 2, every: 100 });
        if (next.equals(shown)) throw new Error(`${what} is nowhere on the page`);
        shown = next;
      }
    },
    /** Saves the page area as a PNG. */
    save(file) {
      mkdirSync(dirname(file), { recursive: true });
      const { x: left, y: top, width, height } = browser.area;
      return run("import", ["-window", "root", "-crop", `${width}x${height}+${left}+${top}`, file], { env: { DISPLAY: display } });
    },
    /** Clicks the page at (`left`, `top`) of its area. */
    click(left, top) {
      return x("mousemove", String(browser.area.x + left), String(browser.area.y + top), "click", "1");
    },
    /** Types `text` where the focus is. */
    type(text) {
      return x("type", "--delay", "20", text);
    },
    /** Presses keys (xdotool's names: `Return`, `Down`). */
    key(...keys) {
      return x("key", ...keys);
    },
    /**
     * Clicks the list at (`left`, `top`) of the page area and waits for its
     * pop-up menu; then moves the mouse off it, so that no option is
     * highlighted and the first Down highlights the first option.
     */
    async openList(left, top) {
      const before = await browser.capture(SCREEN);
      await browser.click(left, top);
      const until = Date.now() + 10_000;
      while ((await browser.capture(SCREEN)).equals(before)) {
        if (Date.now() > until) throw new Error("the list opened no menu");
        await sleep(100);
      }
      await sleep(300);
      await x("mousemove", "0", String(browser.area.y + browser.area.height + 60));
      await sleep(300);
    },
    /** Puts the mouse over the page's top left corner, where the sideways wheel turns. */
    pointAtCorner() {
      return x("mousemove", String(browser.area.x + 4), String(browser.area.y + 4));
    },
    /** Turns the mouse wheel to the right `times` over the page's top left corner. */
    async wheelRight(times) {
      await browser.pointAtCorner();
      return x("click", "--repeat", String(times), "7");
    },
    async stop() {
      if (log) {
        mkdirSync(dirname(log), { recursive: true });
        writeFileSync(log, Buffer.concat(said));
      }
      if (child.exitCode === null && child.signalCode === null) {
        const ended = new Promise((ok) => child.once("exit", ok));
        child.kill("SIGTERM");
        await ended;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
  return browser;
}

/**
 * NetSurf's window size for a page area of `PHONE` on this machine (its
 * toolbar, status bar and scroll bar depend on the GTK theme and fonts), and
 * where that page area shows: measured on a tall magenta page, then checked.
 */
export async function calibrate(display) {
  const dir = mkdtempSync(join(tmpdir(), "small-calibrate-"));
  const page = join(dir, "calibrate.html");
  writeFileSync(page, '<!doctype html><body style="margin:0;background:#f0f"><div style="height:4000px"></div>');
  const measure = async (window) => {
    const browser = await openNetSurf(display, `file://${page}`, { window, area: SCREEN });
    try {
      const page = (await browser.settled()).find(colour.magenta);
      if (!page.count) throw new Error("NetSurf showed no page on the screen");
      return { x: page.left, y: page.top, width: page.right - page.left + 1, height: page.bottom - page.top + 1 };
    } finally {
      await browser.stop();
    }
  };
  try {
    const guess = { width: 300, height: 420 };
    const seen = await measure(guess);
    const window = { width: guess.width + PHONE.width - seen.width, height: guess.height + PHONE.height - seen.height };
    const area = await measure(window);
    if (area.width !== PHONE.width || area.height !== PHONE.height) {
      throw new Error(`a ${window.width}×${window.height} window shows a ${area.width}×${area.height} page area, not ${PHONE.width}×${PHONE.height}`);
    }
    return { window, area };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

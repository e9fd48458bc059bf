// Lynx (Debian's, with its own lynx.cfg) in a terminal that tmux keeps on
// its own socket, driven as a person would: read the screen
// (`capture-pane`), type keys (`send-keys`). The terminal is 1000 lines tall,
// so a whole page is on the screen at once, links and fields numbered ("[12]")
// so a key sequence reaches any of them: the number and Enter. That is the
// one setting changed from Debian's (`DEFAULT_KEYPAD_MODE`); the cookies,
// the Referer and everything else Lynx sends are its own.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keep, run } from "./site.mjs";

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Lines of a screen that are not the menu's list items, for messages. */
function gist(screen) {
  return screen
    .split("\n")
    .filter((line) => line.trim() && !/^\s+[*+o#] /.test(line))
    .slice(0, 60)
    .join("\n");
}

export class Lynx {
  /** Lynx showing `url` with no cookies; each screen it is asked for is kept as RESULTS/`folder`/NN-step.txt. */
  static async start(url, folder) {
    const dir = mkdtempSync(join(tmpdir(), "small-lynx-"));
    const cfg = join(dir, "lynx.cfg");
    writeFileSync(cfg, "INCLUDE:/etc/lynx/lynx.cfg\nDEFAULT_KEYPAD_MODE:LINKS_AND_FIELDS_ARE_NUMBERED\n");
    writeFileSync(join(dir, "cookies"), "");
    const lynx = new Lynx(dir, folder);
    const command = ["lynx", `-cfg=${cfg}`, "-accept_all_cookies", `-cookie_file=${join(dir, "cookies")}`, "-nopause", url];
    await run("tmux", ["-S", lynx.socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "1000", "--", ...command], { env: { HOME: dir, LANG: "C.UTF-8" } });
    return lynx;
  }

  constructor(dir, folder) {
    Object.assign(this, { dir, socket: join(dir, "tmux.sock"), folder, steps: 0 });
  }

  tmux(...args) {
    return run("tmux", ["-S", this.socket, ...args]);
  }

  screen() {
    return this.tmux("capture-pane", "-p");
  }

  /**
   * Waits for the screen to show `pattern` (Lynx done loading: its status
   * line no longer says so); keeps the screen as the step `step`; returns
   * the match and the screen. Fails with what the screen shows instead.
   */
  async waitFor(pattern, step, ms = 15_000) {
    const until = Date.now() + ms;
    let screen = "";
    for (;;) {
      screen = await this.screen();
      const match = pattern.exec(screen);
      if (match && !/Getting |Looking up|Making HTTP connection|Sending HTTP request|HTTP request sent|Transferring|Read \d+ /.test(screen.split("\n").slice(-3).join("\n"))) {
        this.keep(step, screen);
        return { match, screen };
      }
      if (Date.now() > until) {
        this.keep(step, screen);
        throw new Error(`${step}: Lynx does not show ${pattern} within ${ms} ms; it shows:\n${gist(screen)}`);
      }
      await sleep(150);
    }
  }

  keep(step, screen) {
    this.steps += 1;
    keep(this.folder, `${String(this.steps).padStart(2, "0")}-${step.replace(/[^A-Za-z0-9]+/g, "-")}.txt`, screen);
  }

  keys(...keys) {
    return this.tmux("send-keys", ...keys);
  }

  /** Goes to the link or field numbered `number`; on a link, follows it. */
  async go(number) {
    await this.keys(String(number), "Enter");
    await sleep(200);
  }

  /** Types `text` into the text field numbered `number`, then moves off it. */
  async type(number, text) {
    await this.go(number);
    await this.keys("-l", text);
    await this.keys("Down");
    await sleep(150);
  }

  /** Presses the button or radio button numbered `number`. */
  async press(number) {
    await this.go(number);
    await this.keys("Enter");
    await sleep(200);
  }

  /** Chooses, in the list numbered `number`, the option whose text starts with `option`. */
  async choose(number, option) {
    await this.press(number);
    const { match } = await this.waitFor(new RegExp(`(\\d+): \\(\\d+\\)_*${literally(option)}`), `the options of list ${number}`);
    await this.keys(match[1], "Enter");
    await sleep(200);
  }

  async stop() {
    await this.tmux("kill-server").catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `text` as a regular expression that matches it literally. */
export const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The number of the first text field after the label `label` (alone on its line, or before the field) on `screen`. */
export function fieldAfter(screen, label) {
  const at = new RegExp(`^\\s*${literally(label)}(?:\\s*$|\\s+(?=\\[))`, "m").exec(screen);
  if (!at) throw new Error(`no label "${label}":\n${gist(screen)}`);
  const field = /\[(\d+)\]_{3,}/.exec(screen.slice(at.index + at[0].length));
  if (!field) throw new Error(`no text field after "${label}":\n${gist(screen)}`);
  return field[1];
}

/** The number of the button labelled `label` on `screen`. */
export function button(screen, label) {
  const found = new RegExp(`\\(\\[(\\d+)\\]BUTTON\\) ${literally(label)}`).exec(screen);
  if (!found) throw new Error(`no button "${label}":\n${gist(screen)}`);
  return found[1];
}

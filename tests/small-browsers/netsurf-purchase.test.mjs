// NetSurf 3.10 at 240×320, in Swahili, as a cheap phone's owner would:
// from the home page, "Ingia", the number, the code the sandbox "sent", the
// balances, a bundle chosen from the list, "Rafiki" with another number, the
// confirmation and the outcome. NetSurf sends a `Referer` and no `Origin` or
// `Sec-Fetch-Site`, and runs none of the site's scripts. What to click is
// found on the screen by the marker colours NetSurf's user style sheet paints
// (netsurf.mjs); each step's screenshot goes to RESULTS/netsurf-purchase/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { calibrate, colour, openNetSurf, SHOWN, withScreen } from "./netsurf.mjs";
import { RESULTS, withSite } from "./site.mjs";

const AMINA = { local: "0754000001", international: "255754000001" };
const FRIEND = "0754000002";
/** "Intaneti ya Siku 1GB", the second bundle of the list after its "Chagua kifurushi". */
const BUNDLE_DOWNS = 3;

/** Each thing the visitor acts on or looks for, in a colour of its own on its page. */
const MARKERS = `
#account-control { color: #f0f !important; }
input[name="msisdn"], input[name="code"], input[name="subscriber"] { background: #0ff !important; }
.airtime-balance { color: #0f0 !important; }
select[name="bundleId"] { background: #ff0 !important; }
form.purchase-form fieldset:first-of-type label + label { color: #f80 !important; }
form[action="/api/bundles/purchase"] button { background: #08f !important; }
.flash-notice[role="status"] { background: #80f !important; }
`;

let site;
let display;
withSite((started) => (site = started));
withScreen((chosen) => (display = chosen));

test("NetSurf at 240×320, in Swahili: sign in with the sandbox's code, see the balances, buy a bundle for a friend", async (t) => {
  const screen = await calibrate(display);
  const shots = join(RESULTS, "netsurf-purchase");
  const browser = await openNetSurf(display, `${site.base}/sw`, { ...screen, userCss: MARKERS, log: join(shots, "netsurf.log") });
  let steps = 0;
  /** Runs one step; keeps the screen it ends on; a failure names the step. */
  const step = async (name, act) => {
    try {
      return await act();
    } catch (error) {
      error.message = `${name}: ${error.message}`;
      throw error;
    } finally {
      steps += 1;
      await browser.save(join(shots, `${String(steps).padStart(2, "0")}-${name.replace(/[^A-Za-z0-9]+/g, "-")}.png`)).catch(() => {});
    }
  };
  /** Clicks the text field of the marker colour and types `text`, then Return: the form is sent. */
  const fill = async (what, text) => {
    const field = await browser.scrollTo(colour.cyan, what);
    await browser.click(field.x, field.y);
    await browser.type(text);
    await browser.navigate(() => browser.key("Return"));
  };
  try {
    await step("the log-in link", async () => {
      const link = (await browser.settled()).find(colour.magenta);
      assert.ok(link.count >= SHOWN, "no Ingia link on the first screen");
      await browser.navigate(() => browser.click(link.x, link.y));
    });
    await step("the number", () => fill("the phone number field", AMINA.local));
    await step("the code", async () => {
      const inbox = await (await fetch(`${site.base}/sandbox/inbox?msisdn=${AMINA.international}`)).json();
      await fill("the code field", inbox.code);
    });
    await step("the balances", () => browser.scrollTo(colour.green, "the airtime balance"));
    await step("the bundle", async () => {
      const list = await browser.scrollTo(colour.yellow, "the list of bundles");
      await browser.openList(list.x, list.y);
      await browser.key(...Array(BUNDLE_DOWNS).fill("Down"), "Return");
    });
    await step("a friend", async () => {
      // The radio button just left of its label "Rafiki" (NetSurf paints no colour on a radio button).
      const label = await browser.scrollTo(colour.orange, "the choice Rafiki");
      await browser.click(label.left - 12, label.y);
      await fill("the friend's number field", FRIEND);
    });
    await step("the confirmation", async () => {
      const confirm = await browser.scrollTo(colour.azure, "the button Thibitisha na ulipe");
      await browser.navigate(() => browser.click(confirm.x, confirm.y));
    });
    await step("the outcome", () => browser.scrollTo(colour.purple, "a success notice"));
    t.diagnostic(`NetSurf signed in, saw the balances and bought a bundle for ${FRIEND}`);
  } finally {
    await browser.stop();
  }
});

// Lynx, the harshest of the small engines for a form: no JavaScript, no
// `Origin`, no `Sec-Fetch-Site`, and no `Referer` from an address with a
// query (`?step=code`, `?step=confirm&…`). In Swahili, from the home page, a
// subscriber signs in with the code the sandbox "sent", sees their balances,
// chooses a bundle for a friend, confirms it and sees the outcome. Each
// screen is kept in RESULTS/lynx/.
import { test } from "node:test";
import { Lynx, button, fieldAfter, literally } from "./lynx.mjs";
import { withSite } from "./site.mjs";

const AMINA = { local: "0754000001", international: "255754000001", name: "Amina Mwakyusa" };
const FRIEND = { local: "0754000002", shown: "0754 000 002" };
const BUNDLE = "Intaneti ya Siku 1GB";
const BUNDLE_TEXT = literally(BUNDLE);

let site;
withSite((started) => (site = started));

test("Lynx, in Swahili: sign in with the sandbox's code, see the balances, buy a bundle for a friend", async (t) => {
  const lynx = await Lynx.start(`${site.base}/sw`, "lynx");
  try {
    let { match, screen } = await lynx.waitFor(/\[(\d+)\]Ingia\b/, "home page");
    await lynx.go(match[1]);

    ({ screen } = await lynx.waitFor(/^\s*Namba ya simu$/m, "the number step"));
    await lynx.type(fieldAfter(screen, "Namba ya simu"), AMINA.local);
    await lynx.press(button(screen, "Tuma msimbo"));

    ({ screen } = await lynx.waitFor(/^\s*Msimbo wa uthibitisho$/m, "the code step"));
    const inbox = await (await fetch(`${site.base}/sandbox/inbox?msisdn=${AMINA.international}`)).json();
    await lynx.type(fieldAfter(screen, "Msimbo wa uthibitisho"), inbox.code);
    await lynx.press(button(screen, "Ingia"));

    ({ screen } = await lynx.waitFor(/Salio la muda wa maongezi\s+TSh 12,500[\s\S]*Salio la M-Pesa\s+TSh 48,000/, "the balances"));
    if (!screen.includes(AMINA.name)) throw new Error(`the balances: the page does not name ${AMINA.name}`);
    const list = /\[(\d+)\]\[\(1\)_*Chagua kifurushi/.exec(screen);
    if (!list) throw new Error("the balances: no list of bundles to choose from");
    await lynx.choose(list[1], BUNDLE);
    ({ screen } = await lynx.waitFor(new RegExp(`\\[\\d+\\]\\[\\(\\d+\\)_*${BUNDLE_TEXT}`), "the bundle chosen"));
    await lynx.press(/\[(\d+)\]\( \) Rafiki/.exec(screen)[1]);
    ({ screen } = await lynx.waitFor(/\[\d+\]\(\*\) Rafiki/, "a friend chosen"));
    await lynx.type(fieldAfter(screen, "Namba ya simu ya rafiki"), FRIEND.local);
    await lynx.press(button(screen, "Endelea"));

    ({ screen } = await lynx.waitFor(new RegExp(`Hakikisha ununuzi wako[\\s\\S]*${BUNDLE_TEXT}[\\s\\S]*Kwa ajili ya\\s+${literally(FRIEND.shown)}`), "the confirmation"));
    await lynx.press(button(screen, "Thibitisha na ulipe"));

    // The bundle's TSh 1,000 came off the airtime.
    await lynx.waitFor(new RegExp(`Ombi Lako Limepokelewa\\. ${BUNDLE_TEXT} kwa ${literally(FRIEND.shown)}[\\s\\S]*Salio la muda wa maongezi\\s+TSh 11,500`), "the outcome");
    t.diagnostic(`Lynx signed in, saw the balances and bought ${BUNDLE} for ${FRIEND.shown}`);
  } finally {
    await lynx.stop();
  }
});

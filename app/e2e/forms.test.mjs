// The business community form and the foundation application in the
// browser, with and without JavaScript, in English and Swahili: the
// server's messages beside the fields, the receipt with its reference (and
// the staff export holding it), the foundation's steps, and its draft
// surviving a dropped connection and a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, openHydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

const TOKEN = "e2e-staff";
let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started), { FORMS_TOKEN: TOKEN });

/** Console errors but the browser's own line for the 422 a form is meant to get. */
const unexpected = (errors) => errors.filter((e) => !/status of 422/.test(e));

/** The submissions of `form` the staff export holds. */
async function exported(form) {
  const response = await fetch(`${site.base}/api/forms/export?form=${form}&format=json`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(response.status, 200);
  return response.json();
}

const LABELS = {
  en: {
    name: "Your name",
    email: "E-mail address",
    phone: "Phone number",
    business: "Business name",
    industry: "Industry",
    heard: "Where did you hear about us?",
    merchant: "The merchant's or agent's name",
    send: "Send to Vodacom Business",
    reference: /Your reference is (BC-[0-9A-Z]{8})/,
  },
  sw: {
    name: "Jina lako",
    email: "Anwani ya barua pepe",
    phone: "Namba ya simu",
    business: "Jina la biashara",
    industry: "Sekta",
    heard: "Ulisikia kuhusu sisi wapi?",
    merchant: "Jina la mfanyabiashara au wakala",
    send: "Tuma kwa Vodacom Business",
    reference: /Namba yako ya kumbukumbu ni (BC-[0-9A-Z]{8})/,
  },
};
const MESSAGES = {
  en: {
    email: "Enter a valid e-mail address, for example name@example.co.tz",
    services: "Choose at least one service",
  },
  sw: { email: "Weka anwani sahihi ya barua pepe, kwa mfano jina@mfano.co.tz", services: "Chagua angalau huduma moja" },
};

/** Fills the business form; `email` may be one the server refuses. */
async function fillBusiness(page, lang, email) {
  const l = LABELS[lang];
  await page.getByLabel(l.name).fill("Amina Mwakyusa");
  await page.getByLabel(l.email).fill(email);
  await page.getByLabel(l.phone, { exact: true }).fill("0754 000 001");
  await page.getByLabel(l.business).fill("Mwakyusa Traders");
  await page.getByRole("radio").first().check();
  await page.getByLabel(l.industry).fill("Retail");
  await page.getByRole("checkbox").nth(4).check();
  await page.getByLabel(l.heard).selectOption("merchant");
}

for (const lang of ["en", "sw"]) {
  const prefix = lang === "sw" ? "/sw" : "";
  const l = LABELS[lang];

  test(`${lang} with JavaScript: the business form shows the server's messages beside the fields, then its receipt`, async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${site.base}${prefix}/vodacom-business/community`);
    await hydrated(page);
    const merchant = page.getByLabel(l.merchant);
    assert.equal(await merchant.isVisible(), false, "asked only when a merchant is where they heard of us");
    await fillBusiness(page, lang, "amina@localhost");
    assert.ok(await merchant.isVisible());
    await merchant.fill("Duka la Mama");
    await page.getByRole("checkbox").nth(4).uncheck();
    await page.getByRole("button", { name: l.send }).click();
    const email = page.getByLabel(l.email);
    await page.locator(".field-error", { hasText: MESSAGES[lang].email }).waitFor();
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    assert.match(await email.getAttribute("aria-describedby"), /field-email-error/);
    assert.ok(await page.getByText(MESSAGES[lang].services).first().isVisible());
    assert.equal(
      await page.evaluate(() => document.activeElement?.className),
      "error-summary",
      "the summary takes focus",
    );
    assert.equal(await email.inputValue(), "amina@localhost", "nothing typed is lost");

    await email.fill("amina@example.co.tz");
    await page.getByRole("checkbox").nth(4).check();
    await page.getByRole("button", { name: l.send }).click();
    const receipt = page.getByText(l.reference);
    await receipt.waitFor();
    const reference = l.reference.exec(await receipt.textContent())[1];
    assert.equal(new URL(page.url()).search, `?reference=${reference}`, "a reload shows the receipt again");
    const row = (await exported("business-community")).find((r) => r.reference === reference);
    assert.equal(row?.merchantName, "Duka la Mama");
    assert.equal(row.lang, lang);
    assert.deepEqual(unexpected(errors), []);
    await page.close();
  });

  test(`${lang} without JavaScript: the business form comes back filled in with the messages, then lands on its receipt`, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}${prefix}/vodacom-business/community`);
    await fillBusiness(page, lang, "amina@localhost");
    await page.getByLabel(l.merchant).fill("Duka la Mama");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: l.send }).click(),
    ]);
    assert.equal(answer.status(), 422);
    await page.waitForLoadState();
    assert.equal(page.url(), `${site.base}/api/forms/business-community`, "the server answered the post with the page");
    assert.equal(await page.getAttribute("html", "lang"), lang);
    assert.equal(await page.locator("#field-email-error").textContent(), MESSAGES[lang].email);
    assert.equal(await page.getByLabel(l.email).inputValue(), "amina@localhost");
    assert.equal(await page.getByLabel(l.name).inputValue(), "Amina Mwakyusa");
    assert.equal(await page.getByLabel(l.heard).inputValue(), "merchant");
    assert.ok(await page.getByRole("checkbox").nth(4).isChecked());
    assert.ok(
      await page.getByLabel(l.merchant).isVisible(),
      "the stylesheet shows the merchant's name without JavaScript",
    );

    await page.getByLabel(l.email).fill("amina@example.co.tz");
    await page.getByRole("button", { name: l.send }).click();
    await page.waitForURL(/\/vodacom-business\/community\?reference=BC-/);
    assert.equal(new URL(page.url()).pathname, `${prefix}/vodacom-business/community`);
    const reference = new URL(page.url()).searchParams.get("reference");
    assert.match(await page.locator(".form-reference").textContent(), new RegExp(reference));
    assert.ok(
      (await exported("business-community")).some(
        (r) => r.reference === reference && r.merchantName === "Duka la Mama",
      ),
    );
    await context.close();
  });
}

const FOUNDATION = {
  en: {
    steps: ["Applicants", "Organisation", "Project", "Budget", "Review and send"],
    applicant: (n) => `Applicant ${n}`,
    line: (n) => `Budget line ${n}`,
    next: "Next",
    send: "Send the application",
    twoApplicants: "Give the details of at least two applicants",
    restored: "We restored the application you were filling in on this phone.",
    offline: /Your form could not be sent/,
    reference: /Your reference is (FA-[0-9A-Z]{8})/,
    f: {
      name: "Full name",
      email: "E-mail address",
      phone: "Phone number",
      role: "Role in the organisation",
      org: "Name of the organisation",
      type: "Kind of organisation",
      reg: "Registration number",
      title: "Project title",
      summary: "Summary of the project",
      start: "Start date",
      end: "End date",
      region: "Region",
      district: "District",
      size: "Number of people in the team",
      team: "Who is in the team and what they do",
      item: "What it pays for",
      amount: "Amount (TSh)",
    },
  },
  sw: {
    steps: ["Waombaji", "Taasisi", "Mradi", "Bajeti", "Hakiki na tuma"],
    applicant: (n) => `Mwombaji ${n}`,
    line: (n) => `Kipengele cha bajeti ${n}`,
    next: "Endelea",
    send: "Tuma maombi",
    twoApplicants: "Weka taarifa za waombaji wasiopungua wawili",
    restored: "Tumerejesha maombi uliyokuwa ukijaza kwenye simu hii.",
    offline: /Fomu yako haikuweza kutumwa/,
    reference: /Namba yako ya kumbukumbu ni (FA-[0-9A-Z]{8})/,
    f: {
      name: "Jina kamili",
      email: "Anwani ya barua pepe",
      phone: "Namba ya simu",
      role: "Nafasi katika taasisi",
      org: "Jina la taasisi",
      type: "Aina ya taasisi",
      reg: "Namba ya usajili",
      title: "Jina la mradi",
      summary: "Muhtasari wa mradi",
      start: "Tarehe ya kuanza",
      end: "Tarehe ya kumaliza",
      region: "Mkoa",
      district: "Wilaya",
      size: "Idadi ya watu katika timu",
      team: "Walio katika timu na kazi zao",
      item: "Gharama ya nini",
      amount: "Kiasi (TSh)",
    },
  },
};

async function fillApplicant(page, text, n, who) {
  const group = page.getByRole("group", { name: text.applicant(n), exact: true });
  await group.getByLabel(text.f.name).fill(who.name);
  await group.getByLabel(text.f.email).fill(who.email);
  await group.getByLabel(text.f.phone).fill(who.phone);
  await group.getByLabel(text.f.role).fill(who.role);
}

const NEEMA = { name: "Neema Mushi", email: "neema@example.org", phone: "0754000003", role: "Director" };
const BARAKA = { name: "Baraka Said", email: "baraka@example.org", phone: "0754000004", role: "Treasurer" };

async function fillRest(page, text, { next }) {
  if (next) await page.getByRole("button", { name: text.next }).click();
  await page.getByLabel(text.f.org).fill("Mama Afya");
  await page.getByLabel(text.f.type).selectOption("ngo");
  await page.getByLabel(text.f.reg).fill("NGO/R/1234");
  if (next) await page.getByRole("button", { name: text.next }).click();
  await page.getByLabel(text.f.title).fill("Clinics by boat");
  await page.getByLabel(text.f.summary).fill("Boats take nurses to the islands of Lake Victoria.");
  await page.getByLabel(text.f.start).fill("2026-07-01");
  await page.getByLabel(text.f.end).fill("2027-06-30");
  await page.getByLabel(text.f.region).selectOption("Mwanza");
  await page.getByLabel(text.f.district).fill("Ukerewe");
  await page.getByLabel(text.f.size).fill("12");
  await page.getByLabel(text.f.team).fill("Nurses and boat crews");
  if (next) await page.getByRole("button", { name: text.next }).click();
  const line = (n) => page.getByRole("group", { name: text.line(n), exact: true });
  await line(1).getByLabel(text.f.item).fill("Boat");
  await line(1).getByLabel(text.f.amount).fill("12,000,000");
  await line(2).getByLabel(text.f.item).fill("Fuel");
  await line(2).getByLabel(text.f.amount).fill("3000000");
}

for (const lang of ["en", "sw"]) {
  const prefix = lang === "sw" ? "/sw" : "";
  const text = FOUNDATION[lang];

  test(`${lang} with JavaScript: the foundation application in steps, the two-applicant rule, the review and the receipt`, async () => {
    const { context, page, errors } = await openHydrated(browser, `${site.base}${prefix}/foundation/apply`);
    const steps = page.locator(".form-steps li");
    assert.deepEqual(await steps.allTextContents(), text.steps);
    const current = () => page.locator('.form-steps li[aria-current="step"]').textContent();
    assert.equal(await current(), text.steps[0]);
    assert.equal(await page.getByLabel(text.f.org).isVisible(), false, "one step at a time");
    await fillApplicant(page, text, 1, NEEMA);
    await fillRest(page, text, { next: true });
    assert.equal(await current(), text.steps[3]);
    assert.match(await page.locator(".form-total").textContent(), /TSh 15,000,000/);
    await page.getByRole("button", { name: text.next }).click();
    assert.equal(await current(), text.steps[4]);
    assert.match(await page.locator(".form-review").textContent(), /Clinics by boat/);
    await page.getByRole("button", { name: text.send }).click();
    // One applicant: the server sends it back to the first step, saying why.
    await page.getByText(text.twoApplicants).first().waitFor();
    assert.equal(await current(), text.steps[0]);
    assert.ok(await page.getByRole("group", { name: text.applicant(2), exact: true }).isVisible());
    await fillApplicant(page, text, 2, BARAKA);
    for (let step = 0; step < 4; step++) await page.getByRole("button", { name: text.next }).click();
    await page.getByRole("button", { name: text.send }).click();
    const receipt = page.getByText(text.reference);
    await receipt.waitFor();
    const reference = text.reference.exec(await receipt.textContent())[1];
    const row = (await exported("foundation-application")).find((r) => r.reference === reference);
    assert.equal(row?.budgetTotalTzs, 15000000);
    assert.equal(row.applicants.length, 2);
    assert.equal(
      await page.evaluate(() => localStorage.getItem("draft:foundation-application")),
      null,
      "the draft is gone once sent",
    );
    assert.deepEqual(unexpected(errors), []);
    await context.close();
  });

  test(`${lang} without JavaScript: the foundation application is one long form, sent back filled in, then received`, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}${prefix}/foundation/apply`);
    assert.equal(await page.locator(".form-steps").count(), 0, "no steps without JavaScript");
    await fillApplicant(page, text, 1, NEEMA);
    await fillRest(page, text, { next: false });
    await page.getByRole("button", { name: text.send }).click();
    await page.getByText(text.twoApplicants).first().waitFor();
    assert.equal(await page.getByLabel(text.f.org).inputValue(), "Mama Afya");
    assert.equal(
      await page
        .getByRole("group", { name: text.line(2), exact: true })
        .getByLabel(text.f.amount)
        .inputValue(),
      "3000000",
    );
    await fillApplicant(page, text, 3, BARAKA);
    await page.getByRole("button", { name: text.send }).click();
    await page.waitForURL(/\/foundation\/apply\?reference=FA-/);
    const reference = new URL(page.url()).searchParams.get("reference");
    const row = (await exported("foundation-application")).find((r) => r.reference === reference);
    assert.equal(row?.applicants[1].name, "Baraka Said");
    await context.close();
  });
}

test("the foundation draft survives a dropped connection and a reload, and is sent once", async () => {
  const text = FOUNDATION.en;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.base}/foundation/apply`);
  await hydrated(page);
  await fillApplicant(page, text, 1, NEEMA);
  await fillApplicant(page, text, 2, BARAKA);
  await fillRest(page, text, { next: true });
  await page.getByRole("button", { name: text.next }).click();
  // The connection drops as it is sent.
  await context.setOffline(true);
  await page.getByRole("button", { name: text.send }).click();
  await page.getByText(text.offline).waitFor();
  const before = (await exported("foundation-application")).length;
  // The tab is closed; later, online again, the application is opened anew.
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  const errors = watchErrors(again);
  await again.goto(`${site.base}/foundation/apply`);
  // A draft kept is a flow started before: the form takes it back without being touched first.
  await again.getByText(text.restored).waitFor();
  await hydrated(again);
  assert.equal(
    await again
      .getByRole("group", { name: text.applicant(2), exact: true })
      .getByLabel(text.f.email)
      .inputValue(),
    BARAKA.email,
  );
  for (let step = 0; step < 4; step++) await again.getByRole("button", { name: text.next }).click();
  assert.match(await again.locator(".form-review").textContent(), /TSh 15,000,000/);
  await again.getByRole("button", { name: text.send }).click();
  const receipt = again.getByText(text.reference);
  await receipt.waitFor();
  const rows = await exported("foundation-application");
  assert.equal(rows.length, before + 1, "sent once");
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The login dialog without React: the account page's own sign-in forms
 * (the number, then the code and its resend), fetched and shown in a
 * native modal `<dialog>`, and posted as the browser would post them
 * without JavaScript. The server answers each post with the page the form
 * returns to, which already says what comes next (the code step for a
 * number, the number again with what was wrong), in the visitor's language;
 * the dialog shows that page's forms in place of the last ones. A page that
 * shows the visitor signed in ends the dialog.
 *
 * The flow was React's (React, the translator and both languages' strings,
 * some 100 KB on 2G for two forms the server renders anyway); what is left
 * to script here is what a browser does not do by itself: the number and
 * code checked before anything is sent, in the page's words
 * (`SignInStrings`, which the account page carries), the resend countdown,
 * focus, and closing. The modal keeps focus inside and the page behind
 * inert; Escape, the close button or a click on the backdrop closes it, and
 * focus goes back to what opened it. Signed in (`signedIn`), the page is
 * shown again with the subscriber (the enhancement script's navigation).
 */
import * as ENDPOINTS from "../../generated/endpoints";
import { ACCOUNT_CONTROL_ID, MODEM_BUNDLE_KEY } from "../features/account/common/ids";
import { isOtpCode, parseMsisdn } from "../features/account/common/msisdn";
import { counted } from "./fill";
import { inlineJson } from "./inline";
import { SIGN_IN_STRINGS_ID, type SignInStrings } from "./strings";

/** Ids in the dialog: those of the page its forms come from, prefixed, so that they cannot meet the page's own. */
const ID_PREFIX = "login-dialog-";
const TITLE_ID = `${ID_PREFIX}title`;
const MESSAGE_ID = `${ID_PREFIX}message`;
/** A new code can be asked for this long after the last (the same wait as the React forms' `RESEND_AFTER_SECONDS`). */
const RESEND_AFTER_SECONDS = 60;

/** A page the server answered, as a document. */
async function documentOf(response: Response): Promise<Document> {
  if (!(response.headers.get("content-type") || "").includes("text/html"))
    throw new Error(`${response.url}: HTTP ${response.status}, not a page`);
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

/** Whether the page shows a subscriber signed in. */
const signedInOn = (page: Document) =>
  Boolean(inlineJson<{ subscriber?: unknown } | null>("page-data", null, page)?.subscriber);

/** The page's sign-in part: its heading, what it says first (the bundle chosen), and the forms. */
function signInPart(page: Document) {
  const section = page.querySelector(".account-login");
  const flow = section?.querySelector(".login-flow");
  if (!section || !flow) return null;
  return {
    title: section.querySelector("h2")?.textContent ?? "",
    notes: section.querySelectorAll(":scope > .notice-box"),
    flow,
  };
}

/** `node` made this document's, its ids and the references to them prefixed. */
function adopt<T extends Element>(node: T): T {
  const element = document.importNode(node, true);
  const prefixed = (tokens: string) =>
    tokens
      .split(/\s+/)
      .map((id) => ID_PREFIX + id)
      .join(" ");
  for (const inner of [element, ...element.querySelectorAll("*")]) {
    for (const name of ["id", "for", "aria-describedby", "aria-labelledby"]) {
      const value = inner.getAttribute(name);
      if (value) inner.setAttribute(name, prefixed(value));
    }
  }
  return element;
}

/** What a form post's page was told (the flash notice), and whether it is a refusal. */
function noticeOn(page: Document): { text: string; error: boolean } | null {
  const box = page.querySelector(".flash-notice");
  if (!box) return null;
  const title = box.querySelector("strong")?.textContent ?? "";
  return { text: (box.textContent ?? "").slice(title.length).trim(), error: box.getAttribute("role") === "alert" };
}

/** What tells a form of the flow from the others: where it posts, and its class (the resend form has one). */
const formKey = (form: HTMLFormElement) => `${form.getAttribute("action")} ${form.className}`;

const firstField = (root: Element) => root.querySelector<HTMLElement>("input:not([type=hidden])");

/**
 * Opens the dialog on the sign-in forms of `page` (the account page, or the
 * address of the purchase link tapped: the account page with that bundle).
 * Throws when the page has none, so that the visitor is sent there instead.
 */
export async function openLoginDialog(page: Response, signedIn: () => Promise<void>): Promise<void> {
  const start = await documentOf(page);
  if (signedInOn(start)) return signedIn();
  const part = signInPart(start);
  const words = inlineJson<SignInStrings | null>(SIGN_IN_STRINGS_ID, null, start);
  if (!part || !words) throw new Error(`${page.url}: no sign-in forms`);

  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = document.createElement("dialog");
  dialog.className = "login-dialog";
  dialog.setAttribute("aria-labelledby", TITLE_ID);
  const body = dialog.appendChild(document.createElement("div"));
  body.className = "dialog-body";
  const head = body.appendChild(document.createElement("div"));
  head.className = "dialog-head";
  const title = head.appendChild(document.createElement("h2"));
  title.id = TITLE_ID;
  title.textContent = part.title;
  const closer = head.appendChild(document.createElement("button"));
  closer.type = "button";
  closer.className = "dialog-close";
  closer.setAttribute("aria-label", words.close);
  closer.textContent = "×";
  for (const note of part.notes) body.append(adopt(note));
  let flow: Element = body.appendChild(document.createElement("div"));
  /** Shows the forms of `next` in place of those shown; this script checks their fields (in the page's words). */
  const show = (next: Element) => {
    const shown = adopt(next);
    for (const form of shown.querySelectorAll("form")) form.noValidate = true;
    flow.replaceWith(shown);
    flow = shown;
  };
  show(part.flow);

  // The resend countdown, kept across the forms shown.
  let left = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const showCountdown = () => {
    const button = flow.querySelector<HTMLButtonElement>(".resend-form button[type=submit]");
    if (!button) return;
    button.disabled = left > 0;
    button.textContent = left > 0 ? counted(words.resendIn, left) : words.resend;
  };
  const startCountdown = () => {
    left = RESEND_AFTER_SECONDS;
    clearInterval(timer);
    timer = setInterval(() => {
      left -= 1;
      if (left <= 0) clearInterval(timer);
      showCountdown();
    }, 1000);
    showCountdown();
  };

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    dialog.close();
    dialog.remove();
    (opener?.isConnected ? opener : document.getElementById(ACCOUNT_CONTROL_ID))?.focus();
  };

  /** A form's message, where React's forms show theirs: before the submit button. */
  const say = (form: HTMLFormElement, text: string) => {
    dialog.querySelector(`#${MESSAGE_ID}`)?.remove();
    const message = document.createElement("p");
    message.id = MESSAGE_ID;
    message.className = "form-message form-message-error";
    message.setAttribute("role", "alert");
    message.textContent = text;
    form.insertBefore(message, form.querySelector("button[type=submit]"));
    form.setAttribute("aria-describedby", MESSAGE_ID);
  };

  /** The number or code the form sends, checked first: a wrong one is marked, focused and said. */
  const checked = (form: HTMLFormElement) => {
    dialog.querySelector("[aria-invalid]")?.removeAttribute("aria-invalid");
    for (const [name, valid, text] of [
      ["msisdn", (value: string) => parseMsisdn(value) !== null, words.invalidMsisdn],
      ["code", isOtpCode, words.invalidCode],
    ] as const) {
      const field = form.querySelector<HTMLInputElement>(`input[name="${name}"]:not([type=hidden])`);
      if (field && !valid(field.value)) {
        field.setAttribute("aria-invalid", "true");
        field.focus();
        say(form, text);
        return false;
      }
    }
    return true;
  };

  let busy = false;
  const send = async (form: HTMLFormElement) => {
    if (busy || !checked(form)) return;
    busy = true;
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    button?.setAttribute("aria-busy", "true");
    if (button) button.disabled = true;
    let answer: Document | null = null;
    try {
      const fields = new URLSearchParams();
      for (const [name, value] of new FormData(form)) fields.append(name, String(value));
      answer = await documentOf(
        await fetch(form.action, { method: "POST", body: fields, headers: { accept: "text/html" }, cache: "no-store" }),
      );
    } catch (error) {
      console.error(error);
    } finally {
      busy = false;
      button?.removeAttribute("aria-busy");
      if (button) button.disabled = false;
      showCountdown();
    }
    if (closed) return;
    if (answer && signedInOn(answer)) {
      try {
        sessionStorage.removeItem(MODEM_BUNDLE_KEY);
      } catch {
        // storage unavailable: nothing to forget
      }
      await signedIn();
      close();
      return;
    }
    const notice = answer && noticeOn(answer);
    const next = answer && signInPart(answer);
    if (!next) {
      say(form, notice?.text || words.failed);
      return;
    }
    const codeBefore = Boolean(flow.querySelector('input[name="code"]'));
    show(next.flow);
    const again = [...flow.querySelectorAll("form")].find((other) => formKey(other) === formKey(form));
    if (notice?.error) say(again ?? flow.querySelector("form")!, notice.text);
    else if (form.getAttribute("action") === ENDPOINTS.signInRequestOtp) startCountdown();
    showCountdown();
    if (codeBefore !== Boolean(flow.querySelector('input[name="code"]'))) firstField(flow)?.focus();
  };

  dialog.addEventListener("submit", (event) => {
    event.preventDefault();
    if (event.target instanceof HTMLFormElement) void send(event.target);
  });
  // "Use another number" goes back to the number step: the page its link names.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) return close(); // the backdrop
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a.change-number") : null;
    if (!link) return;
    event.preventDefault();
    void fetch(link.href, { headers: { accept: "text/html" }, cache: "no-store" })
      .then(documentOf)
      .then((numberPage) => {
        const next = signInPart(numberPage);
        if (!next || closed) return;
        show(next.flow);
        firstField(flow)?.focus();
      })
      .catch((error) => console.error(error));
  });
  closer.addEventListener("click", close);
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  document.body.append(dialog);
  dialog.showModal();
  firstField(flow)?.focus();
}

/**
 * Contacts in content become links, once, here: every content text and
 * rich-text body goes through `ContactText` or `ContentHtml`.
 *
 * - a Tanzanian phone number (`0754 100 100`, `+255 754 100 100`) → `tel:+255…`,
 *   or `https://wa.me/255…` where the text (or its table row) mentions WhatsApp;
 * - a USSD code (`*149*01#`) → `tel:*149*01%23` (`#` encoded);
 * - a short code after "call", "dial", "piga" or "namba" (`Call 100`) → `tel:100`,
 *   or anywhere in a table cell whose row or column is headed by such a word
 *   (a "Call" row whose contact cell says `100 (free from Vodacom)`);
 * - an email address → `mailto:`.
 *
 * Numbers never wrap across lines; long emails may (see `.contact` in the CSS).
 */
import type { ReactNode } from "react";
import { Kept } from "../kept";

export type ContactKind = "tel" | "whatsapp" | "ussd" | "email";

/** A piece of text: as it was, or a contact with its link. */
export type Piece = string | { kind: ContactKind; text: string; href: string };

const PHONE = String.raw`(?<![\d+])(?:\+?255[ -]?|0)[67]\d{2}(?:[ -]?\d{3}){2}(?![\d])`;
const USSD = String.raw`\*\d{2,4}(?:\*\d{1,6})*#`;
const SHORT_CODE = String.raw`(?<=\b(?:[Cc]all|CALL|[Dd]ial|DIAL|[Pp]iga|PIGA|[Nn]amba|NAMBA) )\d{3}\b`;
/** Three digits on their own (not part of a longer number, an amount or a code). */
const BARE_SHORT_CODE = String.raw`(?<![\d+*#.,/-])\b\d{3}\b(?![\d*#/]|[.,]\d)`;
const EMAIL = String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+`;
const CONTACT = new RegExp(`(${EMAIL})|(${USSD})|(${PHONE})|(${SHORT_CODE})`, "g");
const CONTACT_IN_CALL_CONTEXT = new RegExp(`(${EMAIL})|(${USSD})|(${PHONE})|(${SHORT_CODE}|${BARE_SHORT_CODE})`, "g");
const MENTIONS_WHATSAPP = /whatsapp/i;
/** A table header saying its cells are numbers to call. */
const CALL_HEADER = /^\s*(?:call|dial|phone|telephone|piga|simu|namba)\b/i;

/** Whether a table's row or column heading says its cells are numbers to call. */
export function isCallHeader(heading: string | undefined): boolean {
  return CALL_HEADER.test(heading ?? "");
}

/**
 * `text` split into plain text and contacts; `callContext`: its table row
 * or column is headed by a call word, so a short code on its own is one too.
 */
export function linkContacts(text: string, whatsapp = MENTIONS_WHATSAPP.test(text), callContext = false): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(callContext ? CONTACT_IN_CALL_CONTEXT : CONTACT)) {
    const [found, email, ussd, phone] = match;
    const at = match.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    if (email) pieces.push({ kind: "email", text: found, href: `mailto:${found}` });
    else if (ussd) pieces.push({ kind: "ussd", text: found, href: `tel:${found.replace(/#/g, "%23")}` });
    else if (phone) {
      const digits = `255${found.replace(/\D/g, "").replace(/^(255|0)/, "")}`;
      pieces.push(
        whatsapp
          ? { kind: "whatsapp", text: found, href: `https://wa.me/${digits}` }
          : { kind: "tel", text: found, href: `tel:+${digits}` },
      );
    } else pieces.push({ kind: "tel", text: found, href: `tel:${found}` });
    last = at + found.length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/**
 * Content text with its contacts as links; `context` (e.g. its table row)
 * may mention WhatsApp for it, `callContext` says its row or column is
 * headed by a call word.
 */
export function ContactText({
  text,
  context,
  callContext,
}: {
  text: string;
  context?: string;
  callContext?: boolean;
}): ReactNode {
  const pieces = contactPieces(text, MENTIONS_WHATSAPP.test(context ?? text), Boolean(callContext));
  if (pieces.length === 1 && typeof pieces[0] === "string") return text;
  return pieces.map((piece, index) =>
    typeof piece === "string" ? (
      piece
    ) : (
      <a key={index} href={piece.href} className={`contact contact-${piece.kind}`}>
        {piece.text}
      </a>
    ),
  );
}

const keptPieces = new Kept<Piece[]>();

/**
 * `linkContacts` of a text, remembered: content repeats from render to
 * render, and its patterns cost more than the rest of a text's render. The
 * pieces are shared, so they are never changed.
 */
function contactPieces(text: string, whatsapp: boolean, callContext: boolean): Piece[] {
  const key = `${whatsapp ? "w" : "-"}${callContext ? "c" : "-"}${text}`;
  return keptPieces.get(key) ?? keptPieces.keep(key, linkContacts(text, whatsapp, callContext));
}

const ATTRIBUTE_UNSAFE = /["<>&]/;

/**
 * Sanitised HTML (the server's rich text) with the contacts in its text
 * linked, outside existing links. The server's HTML is well formed, so its
 * tags split off cleanly; the text between them is escaped HTML, which no
 * contact pattern crosses.
 */
export function linkContactsInHtml(html: string): string {
  // Content repeats from render to render: each body is linked once per JS realm (up to a bound).
  return linkedBodies.get(html) ?? linkedBodies.keep(html, link(html));
}

const linkedBodies = new Kept<string>();

function link(html: string): string {
  let inLink = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith("<")) {
        if (/^<a[\s>]/i.test(part)) inLink += 1;
        else if (/^<\/a\s*>/i.test(part)) inLink = Math.max(0, inLink - 1);
        return part;
      }
      if (inLink > 0 || part === "") return part;
      return linkContacts(part)
        .map((piece) =>
          typeof piece === "string" || ATTRIBUTE_UNSAFE.test(piece.href)
            ? typeof piece === "string"
              ? piece
              : piece.text
            : `<a href="${piece.href}" class="contact contact-${piece.kind}">${piece.text}</a>`,
        )
        .join("");
    })
    .join("");
}

/** Rich text from the server, contacts linked. */
export function ContentHtml({ html, className }: { html: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: linkContactsInHtml(html) }} />;
}

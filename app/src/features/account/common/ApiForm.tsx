/**
 * A form of the self-service screens that works both ways: without
 * JavaScript it is a plain HTML form posting to the endpoint (with the page's
 * language and address, so the server answers with a redirect back here);
 * with JavaScript it checks its fields first, in the visitor's language, then
 * sends them as JSON and hands the answer over.
 */
import { useId, useRef, useState, type ButtonHTMLAttributes, type FormEvent, type ReactNode } from "react";
import { useT } from "../../../i18n/context";
import type { Notice } from "../../../contract";
import { localePath } from "../../../routes";
import { useSite } from "../../../app/site";
import { CsrfField } from "../../../app/csrf";
import { withFullStop } from "../../../format";
import { callApi, type Answer } from "../../../app/api";
import { noticeText, type NoticeKey } from "./notices";

/** The body read from the form's fields (one of the contract's), or which field is wrong and why. */
export type Read<S extends object = object> = { body: S } | { invalid: NoticeKey; field: string };

/** A form answered by `T` (the endpoint's answer in the contract) that sends `S`. */
export interface ApiFormProps<T, S extends object = object> {
  /** The endpoint, also the form's `action`. */
  action: string;
  /** How JavaScript calls it; a form always posts. */
  method?: "POST" | "PUT";
  read(fields: FormData): Read<S>;
  /** Handles the answer to `sent`; a notice it returns is shown in the form. */
  onAnswer(answer: Answer<T>, sent: S): Promise<Notice | void> | Notice | void;
  /** Where the server sends a browser without JavaScript back to; default: this page. */
  returnTo?: string;
  submitLabel: ReactNode;
  /** The submit button waits (a countdown, a purchase about to reload the page). */
  disabled?: boolean;
  /** More attributes of the submit button (a switch's role and state). */
  submitAttributes?: ButtonHTMLAttributes<HTMLButtonElement> & { role?: string };
  className?: string;
  children?: ReactNode;
}

/**
 * A form's fields checked by `read` before anything is sent, in the page's
 * language: a wrong field is marked `aria-invalid`, focused, and its
 * message shown (`message`, for `FormMessage`).
 */
export function useFieldCheck() {
  const [message, setMessage] = useState<Notice | null>(null);
  const invalidField = useRef<Element | null>(null);
  function check<S extends object>(form: HTMLFormElement, read: (fields: FormData) => Read<S>): S | null {
    invalidField.current?.removeAttribute("aria-invalid");
    invalidField.current = null;
    const fields = read(new FormData(form));
    if ("invalid" in fields) {
      const named = form.elements.namedItem(fields.field);
      const field = named instanceof RadioNodeList ? named[0] : named;
      if (field instanceof HTMLElement) {
        field.setAttribute("aria-invalid", "true");
        field.focus();
        invalidField.current = field;
      }
      setMessage({ type: "error", key: fields.invalid });
      return null;
    }
    setMessage(null);
    return fields.body;
  }
  return { message, setMessage, check };
}

/** A form's message: an alert for an error, else a status. */
export function FormMessage({ id, message }: { id: string; message: Notice }) {
  const t = useT();
  return (
    <p
      id={id}
      className={`form-message form-message-${message.type}`}
      role={message.type === "error" ? "alert" : "status"}
    >
      {withFullStop(noticeText(message, t))}
    </p>
  );
}

/**
 * Without JavaScript the browser checks `required` and `pattern`; with it,
 * `read` does, with messages in the page's language.
 */
export function checkedByScript(form: HTMLFormElement | null) {
  if (form) form.noValidate = true;
}

export function ApiForm<T, S extends object = object>({
  action,
  method = "POST",
  read,
  onAnswer,
  returnTo,
  submitLabel,
  disabled,
  submitAttributes,
  className,
  children,
}: ApiFormProps<T, S>) {
  const { lang, path, csrf } = useSite();
  const [busy, setBusy] = useState(false);
  const { message, setMessage, check } = useFieldCheck();
  const messageId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const body = check(event.currentTarget, read);
    if (!body) return;
    setBusy(true);
    try {
      const answer = await callApi<T>(method, action, lang, { body, csrf });
      setMessage((await onAnswer(answer, body)) || null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      action={action}
      className={className}
      onSubmit={submit}
      aria-describedby={message ? messageId : undefined}
      ref={checkedByScript}
    >
      <CsrfField />
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="returnTo" value={returnTo ?? localePath(lang, path)} />
      {children}
      {message && <FormMessage id={messageId} message={message} />}
      <button
        type="submit"
        className="button"
        {...submitAttributes}
        disabled={busy || disabled}
        aria-busy={busy || undefined}
      >
        {submitLabel}
      </button>
    </form>
  );
}

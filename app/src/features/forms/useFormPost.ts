/**
 * What both forms do with JavaScript: send the fields as JSON (with a file,
 * multipart) under one idempotency key per fill, and keep the answer: the
 * reference, the server's messages, or "not sent" on a dropped connection.
 * Without JavaScript none of this runs: the form posts itself and the
 * server answers with a page.
 */
import { useRef, useState, type FormEvent } from "react";
import { useSite } from "../../app/site";
import { fieldPairs, nest, newKey, sendForm, type Errors } from "./send";

export interface FormPost {
  busy: boolean;
  reference: string | null;
  errors: Errors;
  offline: boolean;
  /** The fill's idempotency key, kept with a draft so a retry after a reload reuses it. */
  key: () => string;
  setKey(key: string): void;
  submit(event: FormEvent<HTMLFormElement>): Promise<void>;
  reset(): void;
}

export function useFormPost(
  initialErrors: Errors,
  { lists = [], onErrors, onSent }: { lists?: string[]; onErrors?(errors: Errors): void; onSent?(): void } = {},
): FormPost {
  const { lang, csrf } = useSite();
  const [busy, setBusy] = useState(false);
  const [reference, setReference] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>(initialErrors);
  const [offline, setOffline] = useState(false);
  const key = useRef<string | null>(null);
  const currentKey = () => (key.current ??= newKey());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const file = (form.elements.namedItem("proposal") as HTMLInputElement | null)?.files?.[0] ?? null;
    setBusy(true);
    setOffline(false);
    const sent = await sendForm(form.action, lang, currentKey(), nest(fieldPairs(form), lists), file, csrf);
    setBusy(false);
    if ("reference" in sent) {
      key.current = null;
      setErrors({});
      setReference(sent.reference);
      window.history.replaceState(window.history.state, "", `${window.location.pathname}?reference=${sent.reference}`);
      onSent?.();
    } else if ("errors" in sent) {
      setErrors(sent.errors);
      onErrors?.(sent.errors);
    } else {
      setOffline(true);
    }
  }

  return {
    busy,
    reference,
    errors,
    offline,
    key: currentKey,
    setKey: (value) => {
      key.current = value;
    },
    submit,
    reset: () => {
      setReference(null);
      setErrors({});
      window.history.replaceState(window.history.state, "", window.location.pathname);
    },
  };
}

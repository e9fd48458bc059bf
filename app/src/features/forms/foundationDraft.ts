/**
 * The foundation application's draft on the phone: every change is kept in
 * `localStorage` with the fill's idempotency key, so a dropped connection or
 * a closed tab loses nothing. The next visit restores it into the form (a
 * chosen PDF excepted: a browser does not let a page keep a file), and a
 * retry sends under the same key, so it is filed once.
 */
import { useEffect, useState, type RefObject } from "react";
import { FOUNDATION_DRAFT_KEY as DRAFT } from "./ids";
import type { FormPost } from "./useFormPost";

interface Draft {
  key: string;
  pairs: [string, string][];
}

function readDraft(): Draft | null {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT) ?? "null");
    return draft && typeof draft.key === "string" && Array.isArray(draft.pairs) ? draft : null;
  } catch {
    return null;
  }
}

/** Forgets the draft (the application was received, or the visitor starts over). */
export function clearDraft() {
  localStorage.removeItem(DRAFT);
}

/** Puts a draft's values into the form's inputs. */
function fill(form: HTMLFormElement, pairs: [string, string][]) {
  for (const [name, value] of pairs) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement)
      field.value = value;
  }
}

export interface DraftKeeper {
  /** The values a draft restored, until the visitor starts over. */
  restored: [string, string][] | null;
  /** Keeps the form's fields as the draft, under the fill's key. */
  keep(pairs: [string, string][]): void;
  /** Forgets the draft and what it restored (the form's fields are the caller's to reset). */
  forget(): void;
}

/**
 * Restores this phone's draft once after hydration, unless `skip` (the
 * server sent the form back, or shows it received): `onRows` learns the
 * draft's field names first, so the rows they need exist, then the values go
 * into them and `onFilled` runs.
 */
export function useDraft(
  form: RefObject<HTMLFormElement | null>,
  post: FormPost,
  { skip, onRows, onFilled }: { skip: boolean; onRows(names: string[]): void; onFilled(): void },
): DraftKeeper {
  const [restored, setRestored] = useState<[string, string][] | null>(null);
  useEffect(() => {
    if (skip) return;
    const draft = readDraft();
    if (!draft) return;
    onRows(draft.pairs.map(([name]) => name));
    post.setKey(draft.key);
    setRestored(draft.pairs);
    // Once, after hydration: what the server sent is what the first render showed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (restored && form.current) {
      fill(form.current, restored);
      onFilled();
    }
    // When the draft's rows are there, not when the form's handlers change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [restored]);
  return {
    restored,
    keep(pairs) {
      try {
        localStorage.setItem(DRAFT, JSON.stringify({ key: post.key(), pairs } satisfies Draft));
      } catch {
        // Storage full or refused (private mode): the form still works, only without a draft.
      }
    },
    forget() {
      clearDraft();
      setRestored(null);
    },
  };
}

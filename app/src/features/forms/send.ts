/**
 * Sending a form from the page's script: JSON (or, with a file, multipart
 * with the JSON in an `application` part) to `/api/forms/<form>`, in the
 * page's language, with the fill's `Idempotency-Key`, so a retry after a
 * dropped connection never files it twice. The server answers 201
 * `{"reference"}` or its `Feedback` with `{"errors": {"<field path>": "<message>"}}`.
 */
import type { Feedback } from "../../contract";
import type { Lang } from "../../routes";

export type Errors = Record<string, string>;

export type Sent = { reference: string } | { errors: Errors } | { offline: true };

/** A new key for one fill of a form. */
export function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sendForm(action: string, lang: Lang, key: string, body: object, file?: File | null): Promise<Sent> {
  const headers: Record<string, string> = { accept: "application/json", "x-site-lang": lang, "idempotency-key": key };
  let payload: BodyInit;
  if (file) {
    const multipart = new FormData();
    multipart.append("application", JSON.stringify(body));
    multipart.append("proposal", file);
    payload = multipart;
  } else {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  try {
    const response = await fetch(action, { method: "POST", headers, body: payload, cache: "no-store" });
    const answer: ({ reference?: unknown } & Feedback) | null = await response.json();
    if (response.ok && typeof answer?.reference === "string") return { reference: answer.reference };
    if (answer?.errors && typeof answer.errors === "object") return { errors: answer.errors };
    return { offline: true };
  } catch (error) {
    console.warn(`POST ${action}`, error);
    return { offline: true };
  }
}

/** Fields every post carries besides the form's own (see the server's `forms::http`). */
const COMMON = new Set(["lang", "returnTo", "proposal"]);

/** The form's text fields as pairs, in document order (files left out). */
export function fieldPairs(form: HTMLFormElement): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of new FormData(form)) {
    if (typeof value === "string" && !COMMON.has(name)) pairs.push([name, value]);
  }
  return pairs;
}

type Json = string | Json[] | { [key: string]: Json } | null;

/**
 * Flat input names as the JSON the server reads, as the server nests a
 * form posted without JavaScript: `applicants[1].email` is
 * `{"applicants": [null, {"email": …}]}`, a name given twice is a list.
 */
export function nest(pairs: [string, string][], lists: string[] = []): Record<string, Json> {
  const root: Record<string, Json> = {};
  for (const name of lists) root[name] = [];
  for (const [name, value] of pairs) {
    const steps = name.match(/[^.[\]]+|\[\d+\]/g) ?? [];
    let slot: Record<string, Json> | Json[] = root;
    steps.forEach((step, index) => {
      const key: string | number = step.startsWith("[") ? Number(step.slice(1, -1)) : step;
      const last = index === steps.length - 1;
      const holder = slot as Record<string | number, Json>;
      if (last) {
        const earlier = holder[key];
        holder[key] = Array.isArray(earlier) ? [...earlier, value] : earlier == null ? value : [earlier as Json, value];
        return;
      }
      const nextIsRow = steps[index + 1].startsWith("[");
      if (holder[key] == null || typeof holder[key] !== "object") holder[key] = nextIsRow ? [] : {};
      slot = holder[key] as Record<string, Json> | Json[];
    });
  }
  return root;
}

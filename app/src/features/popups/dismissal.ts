/**
 * A popup's dismissal, remembered for the browser session (React-free: the
 * enhancement script and `PopupBanner` share it).
 */
const storageKey = (id: number | string) => `popupDismissed:${id}`;

export function wasDismissed(id: number | string): boolean {
  try {
    return sessionStorage.getItem(storageKey(id)) === "1";
  } catch {
    return false; // storage blocked: show it
  }
}

export function rememberDismissal(id: number | string) {
  try {
    sessionStorage.setItem(storageKey(id), "1");
  } catch {
    // not remembered; it is gone for this page view
  }
}

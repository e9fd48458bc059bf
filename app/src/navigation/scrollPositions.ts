/**
 * Scroll positions of history entries, kept in sessionStorage under one key
 * by both navigations (the enhancement script's and the React app's), so a
 * position saved by one is restored by the other. No React here.
 */
export const SCROLL_KEY = "scrollPositions";

export function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(SCROLL_KEY) || "{}");
  } catch {
    return {};
  }
}

export function savePosition(key: string, y: number) {
  try {
    sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ ...savedPositions(), [key]: y }));
  } catch {
    // storage blocked: no position kept
  }
}

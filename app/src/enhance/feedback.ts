/**
 * What the visitor sees and hears while the script works: toasts, the
 * loading overlay over the page being replaced, and the announcement of
 * the page shown to screen readers.
 */
import { showToast, type Notification } from "../features/notifications/toast";
import { strings } from "./inline";

export function toast(notification: Notification) {
  showToast(notification, strings().close);
}

let overlay: HTMLElement | null = null;

export function showOverlay() {
  if (overlay) return;
  overlay = document.createElement("div");
  overlay.className = "loading-overlay";
  overlay.setAttribute("role", "progressbar");
  overlay.setAttribute("aria-label", strings().loading);
  overlay.appendChild(document.createElement("span")).className = "spinner";
  document.getElementById("root")?.append(overlay);
}

export function hideOverlay() {
  overlay?.remove();
  overlay = null;
}

let announcer: HTMLElement | null = null;

export function announce(text: string) {
  if (!announcer) {
    announcer = document.createElement("p");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "assertive");
    announcer.setAttribute("aria-atomic", "true");
    document.body.append(announcer);
  }
  announcer.textContent = text;
}

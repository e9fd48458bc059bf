/**
 * Behaviour of the header's menu disclosures once JavaScript runs (React-free:
 * the enhancement script and the React header share it): opening one closes
 * the others; Escape, a click outside and focus leaving an open panel close
 * them. Only the DOM's `open` state changes, so the server's HTML and a
 * hydrated tree stay the same.
 */
const GROUP = "details.menu-group";

/** The menu toggle of narrow screens; hidden (and so left alone) on wide ones. */
function visibleToggle(root: HTMLElement): HTMLDetailsElement | null {
  const toggle = root.querySelector<HTMLDetailsElement>("details.menu");
  const summary = toggle?.querySelector("summary");
  return summary && summary.getClientRects().length > 0 ? toggle : null;
}

function openGroups(root: HTMLElement): HTMLDetailsElement[] {
  return Array.from(root.querySelectorAll<HTMLDetailsElement>(`${GROUP}[open]`));
}

/** Adds the behaviour to the header `root`; returns what removes it. */
export function attachMenuDisclosures(root: HTMLElement): () => void {
  const closeAll = () => {
    openGroups(root).forEach((group) => (group.open = false));
    const toggle = visibleToggle(root);
    if (toggle) toggle.open = false;
  };
  // `toggle` does not bubble; listening in the capture phase sees every one.
  const onToggle = (event: Event) => {
    const opened = event.target as HTMLDetailsElement;
    if (!opened.matches(GROUP) || !opened.open) return;
    openGroups(root).forEach((group) => group !== opened && (group.open = false));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    const [group] = openGroups(root);
    const toggle = visibleToggle(root);
    const closing = group ?? (toggle?.open ? toggle : null);
    if (!closing) return;
    closing.open = false;
    closing.querySelector("summary")?.focus();
  };
  const onPointerDown = (event: PointerEvent) => {
    if (!root.contains(event.target as Node)) closeAll();
  };
  const onFocusOut = (event: FocusEvent) => {
    const group = (event.target as Element).closest?.(GROUP) as HTMLDetailsElement | null;
    const next = event.relatedTarget as Node | null;
    if (group?.open && next && !group.contains(next)) group.open = false;
  };
  root.addEventListener("toggle", onToggle, true);
  root.addEventListener("focusout", onFocusOut);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("pointerdown", onPointerDown);
  return () => {
    root.removeEventListener("toggle", onToggle, true);
    root.removeEventListener("focusout", onFocusOut);
    document.removeEventListener("keydown", onKeyDown);
    document.removeEventListener("pointerdown", onPointerDown);
  };
}

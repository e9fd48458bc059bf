/**
 * Behaviour of the main menu's disclosures once JavaScript runs (React-free:
 * the enhancement script and the React header share it): opening one closes
 * the others; Escape, a click outside and focus leaving an open panel close
 * them; the header's Menu link opens the narrow screens' toggle and moves
 * focus to it, where the toggle shows. Only the DOM's `open` state changes,
 * so the server's HTML and a hydrated tree stay the same.
 */
const GROUP = "details.menu-group";

/** The menu's own address: the header's Menu link leads there. */
export const MENU_ID = "menu";

/** The menu toggle of narrow screens; hidden (and so left alone) on wide ones, and where the menu stays below the content. */
function visibleToggle(root: HTMLElement): HTMLDetailsElement | null {
  const toggle = root.querySelector<HTMLDetailsElement>("details.menu");
  const summary = toggle?.querySelector("summary");
  return summary && summary.getClientRects().length > 0 ? toggle : null;
}

function openGroups(root: HTMLElement): HTMLDetailsElement[] {
  return Array.from(root.querySelectorAll<HTMLDetailsElement>(`${GROUP}[open]`));
}

/** Adds the behaviour to the menu `root` (the element the header's Menu link leads to); returns what removes it. */
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
  // The header's link to the menu: without a toggle shown it is an ordinary link to it.
  const onClick = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (link?.getAttribute("href") !== `#${root.id}`) return;
    const toggle = visibleToggle(root);
    if (!toggle) return;
    event.preventDefault();
    toggle.open = true;
    toggle.querySelector("summary")?.focus();
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
  document.addEventListener("click", onClick);
  return () => {
    root.removeEventListener("toggle", onToggle, true);
    root.removeEventListener("focusout", onFocusOut);
    document.removeEventListener("keydown", onKeyDown);
    document.removeEventListener("pointerdown", onPointerDown);
    document.removeEventListener("click", onClick);
  };
}

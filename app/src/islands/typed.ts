/**
 * What the visitor typed or chose in an island's server form before React
 * hydrated it, told to React. An island's code loads when the visitor
 * starts its flow (`enhance/island.ts`): on 2G that is seconds during which
 * they go on typing in the server's fields. React keeps those values in the
 * page but starts from the server's (the state a field's `onChange` keeps
 * is still empty), so each field that differs from the server's is sent
 * again as the visitor's own input: its value set as React last saw the
 * server's, the visitor's put back under React's tracking, and the event
 * React listens to for that kind of field dispatched.
 */

/** The value setter of the element's own prototype, which React's tracking does not see. */
function setUntracked(element: HTMLInputElement | HTMLTextAreaElement, property: "value" | "checked", to: unknown) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), property)?.set;
  setter?.call(element, to);
}

export function replayTyped(root: HTMLElement) {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
    "input, textarea, select",
  )) {
    if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((option) => option.selected !== option.defaultSelected))
        field.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      const checked = field.checked;
      if (checked === field.defaultChecked) continue;
      if (field.type === "radio" && !checked) {
        // Unchecked by the visitor choosing another of its group, whose
        // click tells React. Put back to its server state here it would
        // uncheck that one again: only React's tracking is brought level.
        field.checked = false;
        continue;
      }
      field.checked = field.defaultChecked;
      setUntracked(field, "checked", checked);
      field.dispatchEvent(new Event("click", { bubbles: true }));
    } else if (!["hidden", "file", "submit", "button", "reset", "image"].includes(field.type)) {
      const value = field.value;
      if (value === field.defaultValue) continue;
      field.value = field.defaultValue;
      setUntracked(field, "value", value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}

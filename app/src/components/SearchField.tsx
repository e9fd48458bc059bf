/**
 * A search box's label and its `q` input, as the site search and the
 * locator's place search both have them: a search field, sent with the
 * keyboard's search key, of at most `maxLength` characters.
 */
export function SearchField({
  id,
  label,
  hideLabel = false,
  query,
  maxLength,
  placeholder,
}: {
  id: string;
  label: string;
  /** The label for screen readers only (the field says what it is by its place and placeholder). */
  hideLabel?: boolean;
  query: string;
  maxLength: number;
  placeholder: string;
}) {
  return (
    <>
      <label htmlFor={id} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={maxLength}
        placeholder={placeholder}
        enterKeyHint="search"
      />
    </>
  );
}

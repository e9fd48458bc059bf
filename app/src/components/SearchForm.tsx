import { useT } from "../i18n/context";
import { localePath, type Lang } from "../routes";

/** A plain GET form to `/search` in `lang` (works without JavaScript). */
export function SearchForm({
  lang,
  query = "",
  id,
  className = "search-form",
}: {
  lang: Lang;
  query?: string;
  id: string;
  className?: string;
}) {
  const t = useT();
  return (
    <form role="search" action={localePath(lang, "/search")} method="get" className={className}>
      <label htmlFor={id} className="visually-hidden">
        {t("search.label")}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={100}
        placeholder={t("search.placeholder")}
        enterKeyHint="search"
      />
      <button type="submit">{t("search.submit")}</button>
    </form>
  );
}

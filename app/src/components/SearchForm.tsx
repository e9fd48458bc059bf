import { FIELD_LENGTHS } from "../contract";
import { useT } from "../i18n/context";
import { localePath, pathOf, type Lang } from "../routes";
import { SearchField } from "./SearchField";

/** A plain GET form to the search page in `lang` (works without JavaScript). */
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
    <form role="search" action={localePath(lang, pathOf("search"))} method="get" className={className}>
      <SearchField
        id={id}
        label={t("search.label")}
        hideLabel
        query={query}
        maxLength={FIELD_LENGTHS.searchQuery}
        placeholder={t("search.placeholder")}
      />
      <button type="submit">{t("search.submit")}</button>
    </form>
  );
}

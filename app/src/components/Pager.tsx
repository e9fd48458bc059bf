import type { Pager as PagerData } from "../contract";
import { LocalLink } from "../app/site";
import { useT } from "../i18n/context";
import { pagePath } from "../navigation/paths";

/**
 * The page numbers a pager shows: the first, the last, and those next to
 * the current one, with `0` where numbers are left out, so that it fits a
 * phone's width whatever the number of pages.
 */
export function pageNumbers(page: number, pages: number): number[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1] > 1 ? [0, n] : [n]));
}

/**
 * Links to the previous, next and numbered pages of a list (`?page=N`):
 * plain links, so they work without JavaScript; nothing for a list of one
 * page.
 */
export function Pager({ pager, path }: { pager?: PagerData; path: string }) {
  const t = useT();
  if (!pager || pager.pages <= 1) return null;
  const { page, pages } = pager;
  return (
    <nav className="pager" aria-label={t("pager.label")}>
      <p className="pager-status">{t("pager.status", { page, pages })}</p>
      <ul>
        {page > 1 && (
          <li>
            <LocalLink to={pagePath(path, page - 1)} rel="prev">
              {t("pager.previous")}
            </LocalLink>
          </li>
        )}
        {pageNumbers(page, pages).map((n, i) => (
          <li key={n === 0 ? `gap${i}` : n}>
            {n === 0 ? (
              <span aria-hidden="true">…</span>
            ) : n === page ? (
              <span aria-current="page">{n}</span>
            ) : (
              <LocalLink to={pagePath(path, n)} aria-label={t("pager.page", { page: n })}>
                {n}
              </LocalLink>
            )}
          </li>
        ))}
        {page < pages && (
          <li>
            <LocalLink to={pagePath(path, page + 1)} rel="next">
              {t("pager.next")}
            </LocalLink>
          </li>
        )}
      </ul>
    </nav>
  );
}

import { useT } from "../i18n/context";
import type { PageData } from "../contract";
import { LocalLink } from "../app/site";
import { breadcrumbs } from "../navigation/breadcrumbs";

/** Where the page sits in the site (none on the home page); the same trail is in the JSON-LD. */
export function Breadcrumbs({ data }: { data: PageData }) {
  const t = useT();
  const crumbs = breadcrumbs(data, t);
  if (crumbs.length === 0) return null;
  return (
    <nav className="breadcrumbs" aria-label={t("breadcrumbs.label")}>
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={index}>
            {index === crumbs.length - 1 ? (
              <span aria-current="page">{crumb.label}</span>
            ) : crumb.path ? (
              <LocalLink to={crumb.path}>{crumb.label}</LocalLink>
            ) : (
              <span>{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

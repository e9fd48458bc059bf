import type { Link } from "../contract";
import { LocalLink } from "../app/site";

/** The call to action the CMS gave a block (a hero, a banner, a popup), if it gave one. */
export function LinkButton({ link, className }: { link?: Link | null; className: string }) {
  return link ? (
    <LocalLink to={link.url} className={className}>
      {link.label}
    </LocalLink>
  ) : null;
}

/**
 * The address a page is rendered for, and how its island goes elsewhere:
 * what the pages asked of react-router. An island does not route (the
 * enhancement script shows every page, through `IslandHost.navigate`), so a
 * router (13 KB gzip) was in every island's code for a context's worth. The
 * server renders with the same provider, so both read the address alike.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";

/** The parts of the address the pages read: `/account` and `?step=code` (or `""`). */
export interface Address {
  pathname: string;
  search: string;
}

/** Goes to `to` (a path of the site, with its query), in place of the history entry shown with `replace`. */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

const nowhere: Navigate = () => {};

const AddressContext = createContext<{ address: Address; navigate: Navigate }>({
  address: { pathname: "/", search: "" },
  navigate: nowhere,
});

/** `url` (a path with its query) as the pages' address, without its fragment. */
export function addressOf(url: string): Address {
  const path = url.split("#")[0];
  const at = path.indexOf("?");
  return at < 0 ? { pathname: path, search: "" } : { pathname: path.slice(0, at), search: path.slice(at) };
}

/** The address of `url` for what it renders; `navigate` is how the island goes elsewhere (nowhere on the server). */
export function AddressProvider({
  url,
  navigate = nowhere,
  children,
}: {
  url: string;
  navigate?: Navigate;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ address: addressOf(url), navigate }), [url, navigate]);
  return <AddressContext.Provider value={value}>{children}</AddressContext.Provider>;
}

export function useLocation(): Address {
  return useContext(AddressContext).address;
}

export function useNavigate(): Navigate {
  return useContext(AddressContext).navigate;
}

/** The address's query. */
export function useSearchParams(): URLSearchParams {
  return new URLSearchParams(useLocation().search);
}

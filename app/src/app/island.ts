/**
 * What an interactive page's island (`PageIsland`) and the enhancement script
 * around it share, without React: where the island is, and what the page
 * does for it.
 */
import type { PageData } from "../contract";
import type { Notification } from "../features/notifications/toast";

/** The element an interactive page's island is rendered into. */
export const ISLAND_ID = "island";
/**
 * The head's list of what the page's island imports when it mounts (JSON,
 * interactive pages only), which the enhancement script preloads on a
 * connection measured fast.
 */
export const ISLAND_FILES_ID = "island-files";
/** `useId` prefix of the island's root, the same on the server and in the browser, apart from the page's. */
export const ISLAND_ID_PREFIX = "i";

/** What the page around an island does for it (the enhancement script in the browser). */
export interface IslandHost {
  /** Shows `url`, fetched afresh from the server: in place of the page shown when `replace`, else as a new history entry. */
  navigate(url: string, replace: boolean): Promise<void>;
  /** Shows the page shown again, from the server, around the island, which stays mounted; resolves to the page's fresh data (null when it could not load). */
  refresh(): Promise<PageData | null>;
  toast(notification: Notification): void;
  /** The session lapsed under a form kept on the page: the header shows "Log in". */
  signedOut(): void;
}

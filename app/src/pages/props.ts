/** What every page component takes: the page's data as the server resolved it. */
import type { ComponentType } from "react";
import type { PageData } from "../contract";

export interface PageProps {
  data: PageData;
}

/** A page component's chunk. */
export type PageModule = { default: ComponentType<PageProps> };

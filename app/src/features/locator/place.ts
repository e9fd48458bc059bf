import type { PageData } from "../../contract";

/** A locator page's region (`Dar es Salaam`) or district (`Ilala, Dar es Salaam`), if it is one's: its heading and title. */
export function locatorPlace(data: PageData): string | undefined {
  const { region, district } = data.locator ?? {};
  if (!region) return undefined;
  return district ? `${district.name}, ${region.name}` : region.name;
}

/**
 * Shake-and-win golden minutes: every day 19:00–20:00 East Africa
 * Time, which is UTC+3 all year (no daylight saving time).
 */
const EAT_OFFSET_HOURS = 3;
export const GOLDEN_START_HOUR = 19;
export const GOLDEN_END_HOUR = 20;

/** Whether `date` (an instant; its time zone does not matter) falls in the golden minutes. */
export function isGoldenMinutes(date: Date): boolean {
  const hourInEat = (date.getUTCHours() + EAT_OFFSET_HOURS) % 24;
  return hourInEat >= GOLDEN_START_HOUR && hourInEat < GOLDEN_END_HOUR;
}

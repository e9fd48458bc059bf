//! Opening hours, in Tanzanian time (East Africa Time, UTC+3 all year:
//! Tanzania keeps no summer time, so no time zone database is needed).

use std::time::{SystemTime, UNIX_EPOCH};

/// East Africa Time's offset from UTC, seconds.
const EAT_OFFSET: i64 = 3 * 3600;
const DAY: u16 = 24 * 60;
const CLOSED: u16 = u16::MAX;

/// The hours of one kind of day, minutes from midnight: open from `open`
/// to `close` (a `close` before `open` is past midnight), or closed. Kept
/// on disk as `[open, close]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "[u16; 2]", from = "[u16; 2]")]
pub struct Hours {
    open: u16,
    close: u16,
}

impl From<Hours> for [u16; 2] {
    fn from(hours: Hours) -> [u16; 2] {
        [hours.open, hours.close]
    }
}

/// Hours read back from disk; any that could not have been parsed are closed.
impl From<[u16; 2]> for Hours {
    fn from([open, close]: [u16; 2]) -> Hours {
        let valid = (open < DAY && close <= DAY && open != close) || (open == CLOSED && close == CLOSED);
        if valid { Hours { open, close } } else { Hours::CLOSED }
    }
}

impl Hours {
    pub const CLOSED: Hours = Hours { open: CLOSED, close: CLOSED };

    /// `08:00-20:00` (also `8:00 – 20:00`, `08.00-20.00`, `0800-2000`), or
    /// `24h`; anything else, and nothing, is closed.
    pub fn parse(typed: &str) -> Hours {
        let typed = typed.trim().to_ascii_lowercase();
        if matches!(typed.as_str(), "24h" | "24 h" | "24 hours" | "24/7" | "saa 24") {
            return Hours { open: 0, close: DAY };
        }
        let Some((open, close)) = typed.split_once(['-', '–', '—']) else { return Hours::CLOSED };
        match (minutes(open), minutes(close)) {
            (Some(open), Some(close)) if open != close && open < DAY => Hours { open, close },
            _ => Hours::CLOSED,
        }
    }

    pub fn is_closed(self) -> bool {
        self.open == CLOSED
    }

    /// `08:00–20:00`; `None` when closed.
    pub fn shown(self) -> Option<String> {
        let clock = |m: u16| format!("{:02}:{:02}", m / 60, m % 60);
        (!self.is_closed()).then(|| format!("{}–{}", clock(self.open), clock(self.close)))
    }

    /// Whether open at `minute` of its day, or (`overnight`) at `minute`
    /// of the next day, by hours that run past midnight.
    fn covers(self, minute: u16, overnight: bool) -> bool {
        if self.is_closed() {
            return false;
        }
        match (self.open < self.close, overnight) {
            (true, false) => (self.open..self.close).contains(&minute),
            (true, true) => false,
            (false, false) => minute >= self.open,
            (false, true) => minute < self.close,
        }
    }
}

/// `HH:MM`, `H:MM`, `HH.MM` or `HHMM`; `24:00` is the end of the day.
fn minutes(typed: &str) -> Option<u16> {
    let digits: String = typed.trim().chars().filter(char::is_ascii_digit).collect();
    let (hours, mins) = match digits.len() {
        1 | 2 => (digits.parse::<u16>().ok()?, 0),
        3 | 4 => (digits[..digits.len() - 2].parse::<u16>().ok()?, digits[digits.len() - 2..].parse::<u16>().ok()?),
        _ => return None,
    };
    (mins < 60 && (hours < 24 || (hours == 24 && mins == 0))).then_some(hours * 60 + mins)
}

/// A moment of the week in Tanzania: the day (0 Monday … 6 Sunday) and
/// the minute of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeekTime {
    day: u8,
    minute: u16,
}

impl WeekTime {
    pub fn at(day: u8, minute: u16) -> WeekTime {
        WeekTime { day: day % 7, minute: minute % DAY }
    }

    pub fn now() -> WeekTime {
        let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        WeekTime::of_unix(seconds)
    }

    /// The moment `seconds` after 1970-01-01 00:00 UTC (a Thursday).
    pub fn of_unix(seconds: i64) -> WeekTime {
        let local = seconds + EAT_OFFSET;
        let days = local.div_euclid(86_400);
        WeekTime { day: ((days + 3).rem_euclid(7)) as u8, minute: (local.rem_euclid(86_400) / 60) as u16 }
    }

    /// Which of a place's hours (weekdays, Saturday, Sunday) a day keeps.
    fn of_day(day: u8) -> usize {
        match day {
            5 => 1,
            6 => 2,
            _ => 0,
        }
    }

    /// Whether a place with these hours (weekdays, Saturday, Sunday) is open now.
    pub fn open(self, hours: &[Hours; 3]) -> bool {
        let yesterday = (self.day + 6) % 7;
        hours[WeekTime::of_day(self.day)].covers(self.minute, false)
            || hours[WeekTime::of_day(yesterday)].covers(self.minute, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_parse_and_say_when_open() {
        let week = [Hours::parse("08:00-20:00"), Hours::parse("9.00 – 14.00"), Hours::parse("")];
        assert_eq!(week[0].shown().as_deref(), Some("08:00–20:00"));
        assert_eq!(week[1].shown().as_deref(), Some("09:00–14:00"));
        assert!(week[2].is_closed());
        assert!(WeekTime::at(0, 8 * 60).open(&week));
        assert!(!WeekTime::at(0, 20 * 60).open(&week));
        assert!(WeekTime::at(5, 13 * 60 + 59).open(&week));
        assert!(!WeekTime::at(6, 12 * 60).open(&week));
        for junk in ["soon", "25:00-26:00", "08:00", "08:70-09:00", "10:00-10:00"] {
            assert!(Hours::parse(junk).is_closed(), "{junk}");
        }
        // A bar's agent till past midnight: open on Saturday at 01:00 by Friday's hours.
        let late = [Hours::parse("18:00-02:00"), Hours::CLOSED, Hours::CLOSED];
        assert!(WeekTime::at(5, 60).open(&late));
        assert!(!WeekTime::at(5, 3 * 60).open(&late));
        assert!(WeekTime::at(2, 0).open(&[Hours::parse("24h"), Hours::CLOSED, Hours::CLOSED]));
    }

    #[test]
    fn tanzanian_time_is_three_hours_ahead_of_utc() {
        // 2026-11-27 (a Friday) 22:30 UTC is Saturday 01:30 in Dar es Salaam.
        assert_eq!(WeekTime::of_unix(1_795_818_600), WeekTime::at(5, 90));
    }
}

//! Every M-Pesa agent and Vodashop in memory, as the content store keeps
//! them and the locator searches them.
//!
//! - `index`: the places of the CMS's `locations` collection parsed at the
//!   boundary into one spatial index for both languages ([`Locations`]),
//!   and the compact list of them kept on disk ([`PlaceList`]).
//! - `hours`: opening hours and "open now" in Tanzanian time ([`WeekTime`]).

mod hours;
mod index;

pub use hours::WeekTime;
pub use index::{Locations, PlaceList, on_sphere};

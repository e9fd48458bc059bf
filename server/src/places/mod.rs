//! Every M-Pesa agent and Vodashop in memory, as the content store keeps
//! them and the locator searches them.
//!
//! - `index`: the places in one spatial index for both languages
//!   ([`Locations`]): by region and district, nearest to a point, by a
//!   place's typed name.
//! - `parse`: the CMS's `locations` collection read at the boundary into
//!   the compact list the index is built from and kept on disk
//!   ([`PlaceList`]).
//! - `geometry`: points on the unit sphere and distances along the Earth.
//! - `hours`: opening hours and "open now" in Tanzanian time ([`WeekTime`]).

mod geometry;
mod hours;
mod index;
mod parse;

pub use geometry::on_sphere;
pub use hours::WeekTime;
pub use index::Locations;
pub use parse::PlaceList;

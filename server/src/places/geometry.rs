//! Points on the unit sphere (x, y, z): the straight distance between two
//! of them orders places exactly as the distance along the Earth does,
//! which latitude and longitude as a plane would not. The index's trees
//! hold them in f32 (within half a metre at Tanzania's longitudes); the
//! distance a page shows is worked out in f64 from a record's position.

/// The Earth's mean radius, metres.
pub(super) const EARTH_RADIUS: f64 = 6_371_008.8;

/// The point on the unit sphere of a latitude and longitude in degrees.
pub fn on_sphere(latitude: f64, longitude: f64) -> [f64; 3] {
    let (lat, lng) = (latitude.to_radians(), longitude.to_radians());
    [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
}

/// Metres along the Earth between two points on the unit sphere.
pub(super) fn metres(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let chord = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    2.0 * EARTH_RADIUS * (chord / 2.0).min(1.0).asin()
}

/// The straight distance on the unit sphere, squared, of `metres` along the Earth.
pub(super) fn chord_squared(metres: f64) -> f64 {
    let chord = 2.0 * (metres / (2.0 * EARTH_RADIUS)).min(std::f64::consts::FRAC_PI_2).sin();
    chord * chord
}

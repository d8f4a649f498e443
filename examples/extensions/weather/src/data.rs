//! The offline sample data: a handful of cities, so the example never needs
//! the network and its tests are deterministic.

/// One city's made-up weather.
pub struct City {
    /// As shown to the model.
    pub name: &'static str,
    /// Current temperature.
    pub temp_c: i32,
    /// Current conditions.
    pub sky: &'static str,
    /// The next three days: temperature and conditions.
    pub forecast: [(i32, &'static str); 3],
}

const CITIES: &[City] = &[
    City {
        name: "Berlin",
        temp_c: 16,
        sky: "fog",
        forecast: [(15, "rain"), (17, "cloudy"), (19, "sun")],
    },
    City {
        name: "Lisbon",
        temp_c: 22,
        sky: "sun",
        forecast: [(23, "sun"), (21, "wind"), (22, "sun")],
    },
    City {
        name: "Oslo",
        temp_c: 4,
        sky: "snow",
        forecast: [(2, "snow"), (3, "cloudy"), (5, "rain")],
    },
    City {
        name: "Tokyo",
        temp_c: 19,
        sky: "cloudy",
        forecast: [(20, "rain"), (18, "rain"), (21, "sun")],
    },
    City {
        name: "Nairobi",
        temp_c: 25,
        sky: "sun",
        forecast: [(26, "sun"), (24, "storms"), (25, "sun")],
    },
];

/// Looks a city up, ignoring case and surrounding space.
pub fn find(name: &str) -> Option<&'static City> {
    let name = name.trim();
    CITIES.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// Every known city, for error messages.
pub fn names() -> Vec<&'static str> {
    CITIES.iter().map(|c| c.name).collect()
}

/// The months of the history tool's year.
pub const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A made-up mean for month `i` (0 = January): the current temperature
/// shifted by a northern-hemisphere season, so the numbers look plausible
/// and stay deterministic.
pub fn monthly_mean(c: &City, i: usize) -> i32 {
    const SEASON: [i32; 12] = [-8, -7, -4, 0, 3, 6, 8, 7, 4, 0, -4, -7];
    c.temp_c + SEASON.get(i).copied().unwrap_or(0)
}

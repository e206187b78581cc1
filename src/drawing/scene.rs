//! What a picture shows (a board, the orders of a phase and the retreats they left) and where
//! on the sheet each thing of a province goes; shared by the board, its orders, its legend and
//! the map check.

use crate::diplomacy::adjudicate::Outcome;
use crate::diplomacy::adjudicate::outcome::RetreatOptions;
use crate::diplomacy::map::{Map, ProvinceId, RegionId};
use crate::diplomacy::order::{Location, Order};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;

use crate::atlas::geometry::Point;
use crate::atlas::layout::Layout;
use crate::atlas::sheet::Sheet;

pub(super) const FAILED: &str = "#c00";
/// The colour of a power the variant gives none.
const NO_COLOUR: &str = "#999999";

/// An order drawn with what came of it, and the text shown on hover.
#[derive(Clone, Debug)]
pub struct DrawnOrder {
    pub power: PowerId,
    pub order: Order,
    pub outcome: Option<Outcome>,
    /// The order as players read it, with its outcome: `A Par - Bur: bounced with A Mun`.
    pub text: String,
}

/// Where powers share colours (more than `palette::MOST_COLOURS` of them: Chaos's 34),
/// units carry their power's letter rather than A or F (the shape tells an army from a
/// fleet), and centres their owner's.
pub(super) fn power_mark(map: &Map, power: PowerId) -> Option<char> {
    (map.powers.len() > super::palette::MOST_COLOURS).then(|| map.power(power).letter)
}

/// What to draw: a board, with the orders of a phase and the retreats they left, if any.
pub struct Scene<'a> {
    pub map: &'a Map,
    pub layout: &'a Layout,
    pub position: &'a Position,
    /// The heading: game and phase.
    pub title: String,
    pub orders: Vec<DrawnOrder>,
    pub retreats: Vec<RetreatOptions>,
}

impl<'a> Scene<'a> {
    /// A board as it stands, with no orders drawn (a variant's start, or a game's phase
    /// being played, whose orders are secret).
    pub fn board(
        map: &'a Map,
        layout: &'a Layout,
        position: &'a Position,
        title: String,
    ) -> Scene<'a> {
        Scene {
            map,
            layout,
            position,
            title,
            orders: Vec::new(),
            retreats: Vec::new(),
        }
    }
}

/// The colour of `power`.
pub fn colour_of<'a>(map: &Map, layout: &'a Layout, power: PowerId) -> &'a str {
    layout
        .colours
        .get(&map.power(power).id)
        .map(String::as_str)
        .unwrap_or(NO_COLOUR)
}

/// The colour of each power of `map`, in the map's order of powers, as its picture paints it
/// (`colour_of`): the layout's colour for the power. A variant drawn without a layout
/// has no picture to agree with: its powers take `palette::SEVENTEEN` in turn. The one source
/// of the powers' colours beside the map: its legend and the archive's chart.
pub fn power_colours(map: &Map, layout: Option<&Layout>) -> Vec<String> {
    (0..map.powers.len())
        .map(|i| match layout {
            Some(layout) => colour_of(map, layout, PowerId(i as u8)).to_string(),
            None => super::palette::SEVENTEEN[i % super::palette::SEVENTEEN.len()].to_string(),
        })
        .collect()
}

/// Where things of a province go, in pixels.
pub(super) struct Spots<'a> {
    map: &'a Map,
    layout: &'a Layout,
    sheet: &'a Sheet,
}

impl Spots<'_> {
    pub(super) fn new<'a>(map: &'a Map, layout: &'a Layout, sheet: &'a Sheet) -> Spots<'a> {
        Spots { map, layout, sheet }
    }

    pub(super) fn unit(&self, province: ProvinceId) -> Point {
        self.layout
            .places
            .get(&self.map.province(province).id)
            .map(|p| self.layout.project(p.unit))
            .unwrap_or(Point::new(-50.0, -50.0))
    }

    pub(super) fn label(&self, province: ProvinceId) -> Point {
        let Some(place) = self.layout.places.get(&self.map.province(province).id) else {
            return Point::new(-50.0, -50.0);
        };
        let at = self.layout.project(place.label);
        if place.label == place.unit {
            Point::new(at.x, at.y - 13.0)
        } else {
            at
        }
    }

    pub(super) fn region(&self, region: RegionId) -> Point {
        let r = self.map.region(region);
        let place = self.layout.places.get(&self.map.province(r.province).id);
        match (place, &r.coast) {
            (Some(place), Some(coast)) => place
                .coasts
                .get(coast)
                .map(|c| self.layout.project(*c))
                .unwrap_or_else(|| self.unit(r.province)),
            _ => self.unit(r.province),
        }
    }

    pub(super) fn location(&self, at: &Location) -> Point {
        match at.coast {
            Some(region) => self.region(region),
            None => self.unit(at.province),
        }
    }

    /// A supply centre's marker: where the sheet puts it (`partition::centre_marks`: beside
    /// the unit, or below the label when the label has a place of its own).
    pub(super) fn centre(&self, province: ProvinceId) -> Point {
        match self.sheet.place(&self.map.province(province).id) {
            Some(i) => self.sheet.centre_marks[i],
            None => Point::new(-50.0, -50.0),
        }
    }
}

//! The blocks of a results letter that tell where the board stands: who owns which supply
//! centre, each power's count of centres and units, and the adjustments each may make.

use crate::diplomacy::map::{Map, ProvinceId, RegionId, Terrain};
use crate::diplomacy::order::{Action, Order, UnitOrder};
use crate::diplomacy::position::Position;
use crate::diplomacy::power::PowerId;
use crate::diplomacy::unit::UnitKind;
use crate::lang::Lang;
use crate::report::Words;
use crate::report::classic;
use crate::report::describe::describe_order_in;
use crate::tr;

/// The lines of njudge's ownership block for `board`: each power's centres, then the
/// unowned ones (`Austria:   Budapest, Trieste, Vienna.`), wrapped under their column.
pub(crate) fn ownership_lines(words: Words, map: &Map, board: &Position) -> Vec<String> {
    let longest = map
        .powers
        .iter()
        .map(|p| p.name_in(words.language()).chars().count())
        .chain(std::iter::once(
            tr!(words, "classic.unowned").chars().count(),
        ))
        .max()
        .unwrap_or(0);
    let column = (longest + 1).max(10) + 1;
    let mut ownership = Vec::new();
    let by_name = |mut centres: Vec<ProvinceId>| {
        centres.sort_by(|a, b| {
            map.province(*a)
                .name_in(words.language())
                .cmp(map.province(*b).name_in(words.language()))
        });
        centres
            .iter()
            .map(|c| map.province(*c).name_in(words.language()).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (p, info) in map.powers.iter().enumerate() {
        let centres = board.owned_centres(map, PowerId(p as u8));
        if centres.is_empty() {
            continue;
        }
        let entry = format!(
            "{}{}.",
            classic::padded(info.name_in(words.language()), column),
            by_name(centres)
        );
        ownership.extend(classic::wrapped(&entry, ',', column));
    }
    let unowned: Vec<ProvinceId> = map
        .provinces
        .iter()
        .enumerate()
        .filter(|(i, p)| p.centre.is_some() && board.owners[*i].is_none())
        .map(|(i, _)| ProvinceId(i as u16))
        .collect();
    if !unowned.is_empty() {
        let entry = format!(
            "{}{}.",
            classic::padded(&tr!(words, "classic.unowned"), column),
            by_name(unowned)
        );
        ownership.extend(classic::wrapped(&entry, ',', column));
    }
    ownership
}

/// How the board stands as a game ends, for its end letter: each power's supply centres
/// (njudge's ownership block) and their number.
pub(crate) fn final_board_lines(words: Words, map: &Map, board: &Position) -> Vec<String> {
    let mut lines = vec![tr!(words, "wishes.final_centres")];
    lines.extend(ownership_lines(words, map, board));
    let counts: Vec<String> = (0..map.powers.len())
        .map(|p| PowerId(p as u8))
        .map(|p| (p, board.owned_centres(map, p).len()))
        .filter(|(_, n)| *n > 0)
        .map(|(p, n)| format!("{} {n}", map.power(p).name_in(words.language())))
        .collect();
    lines.push(String::new());
    lines.push(tr!(
        words,
        "wishes.final_counts",
        counts = counts.join(", ")
    ));
    lines
}

/// njudge's adjustment count lines for `board` (`Austria:   4 Supply centers,  3 Units:  Builds
/// 1 unit.`; in other languages our own line), `winner`'s marked.
pub(crate) fn count_lines(
    words: Words,
    map: &Map,
    board: &Position,
    winner: Option<PowerId>,
) -> Vec<String> {
    let owed = crate::diplomacy::adjudicate::adjustment::adjustments(map, board);
    let mut counts = Vec::new();
    for (p, owed) in owed.iter().enumerate() {
        let power = PowerId(p as u8);
        let units = board.units.iter().filter(|u| u.power == power).count() as u32;
        let centres = board.owned_centres(map, power).len();
        if centres == 0 && units == 0 {
            continue;
        }
        // The supply that counts (centres' values and credit), so the numbers add up.
        let supply = (i64::from(units) + i64::from(*owed)).max(0) as u32;
        let suffix = (winner == Some(power)).then_some("(* VICTORY!! *)");
        counts.push(if words.language() == Lang::En {
            classic::count_line(
                map.power(power).name_in(words.language()),
                supply,
                units,
                suffix,
            )
        } else {
            tr!(
                words,
                "classic.count",
                power = classic::padded(map.power(power).name_in(words.language()), 10),
                supply = supply,
                units = units,
                change = *owed
            )
        });
    }
    counts
}

/// An adjustment order as njudge's adjustment letters write it: `Builds an army in Vienna.`,
/// `Removes the fleet in the North Sea.`, `Build waived.`; any other order as we describe it.
pub(crate) fn adjustment_order(
    words: Words,
    map: &Map,
    position: &Position,
    power: PowerId,
    order: &Order,
) -> String {
    match order {
        Order::Waive => tr!(words, "classic.build_waived"),
        Order::Unit(UnitOrder {
            unit,
            at,
            action: Action::Build,
        }) => {
            let place = match at.coast {
                Some(region) => crate::report::describe::region_name_in(words, map, region),
                None => map
                    .province(at.province)
                    .name_in(words.language())
                    .to_string(),
            };
            match unit {
                Some(UnitKind::Fleet) => tr!(words, "classic.builds_fleet", place = place),
                _ => tr!(words, "classic.builds_army", place = place),
            }
        }
        Order::Unit(UnitOrder { at, .. }) => match position.unit_in(map, at.province) {
            Some(unit) if unit.power == power => {
                let kind = match unit.kind {
                    UnitKind::Army => tr!(words, "classic.the_army"),
                    UnitKind::Fleet => tr!(words, "classic.the_fleet"),
                };
                let place = in_place(words, map, unit.region);
                tr!(words, "classic.removes", unit = kind, place = place)
            }
            _ => describe_order_in(words, map, position, power, order),
        },
    }
}

/// `in Trieste`, `in the North Sea`: where a unit stands, as njudge says it.
pub(crate) fn in_place(words: Words, map: &Map, region: RegionId) -> String {
    let province = map.province(map.province_of(region));
    if province.terrain == Terrain::Sea {
        tr!(
            words,
            "classic.in_the",
            place = crate::report::describe::region_name_in(words, map, region)
        )
    } else {
        tr!(
            words,
            "classic.in",
            place = crate::report::describe::region_name_in(words, map, region)
        )
    }
}

/// `Army`, `Fleet`.
pub(crate) fn kind_word(words: Words, kind: UnitKind) -> String {
    match kind {
        UnitKind::Army => tr!(words, "unit.army"),
        UnitKind::Fleet => tr!(words, "unit.fleet"),
    }
}

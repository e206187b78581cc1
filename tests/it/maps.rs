//! Maps: the picture never lies about the rules (every shipped variant's drawn borders match
//! its rules, and a lie is named), the SVG holds every province, unit and order with its
//! outcome, a PNG is rendered with the font in the binary, and the palettes stay apart for
//! colour-blind readers.

use strategos::drawing::{self, check_map, his};
use strategos::interface::adjudicate::{Options, case_boards};
use strategos::report::messages::Words;
use strategos::variant::{self, load_variant};

use crate::case::{data, variants};

#[test]
fn every_shipped_variant_is_drawn_true_to_its_borders() {
    for v in variants() {
        let layout = v
            .layout
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no [map]", v.id));
        let mismatches = check_map(&v.map, layout);
        assert!(mismatches.is_empty(), "{}: {mismatches:#?}", v.id);
    }
    let map = strategos::his::load::embedded_map().unwrap();
    let layout = his::layout().expect("Here I Stand has a [map]");
    let mismatches = his::check_his(&map, layout);
    assert!(mismatches.is_empty(), "his: {mismatches:#?}");
}

/// The standard file with `edit` made to its text, loaded.
fn standard_with(edit: impl Fn(&str) -> String) -> variant::Variant {
    let (_, file, text) = variant::EMBEDDED[0];
    load_variant("standard", file, &edit(text)).expect("the edited file loads")
}

#[test]
fn a_picture_that_lies_is_named_mismatch_by_mismatch() {
    // Bohemia and Galicia still touch on the map, but the rules lose their border.
    let v = standard_with(|t| t.replace("\"boh-gal\", ", ""));
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("Bohemia and Galicia share a drawn land border"),
        "{found:#?}"
    );
    // Galicia's sites moved into Ukraine: its border with Bohemia is no longer drawn.
    let v = standard_with(|t| {
        t.replace(
            "gal = { sites = [[22.5, 49.6], [26.0, 48.4], [19.9, 50.0]] }",
            "gal = { sites = [[26.0, 48.4]] }",
        )
    });
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(
        found.contains(
            &"Bohemia and Galicia border in the rules but are not drawn together".to_string()
        ),
        "{found:#?}"
    );
    // A province with no place, and colours too alike, are named too.
    let v = standard_with(|t| {
        t.replace("swi = { sites = [[8.2, 46.8]] }\n", "")
            .replace("france = \"#56B4E9\"", "france = \"#0072B3\"")
    });
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found, ["Switzerland has no place on the map"]);
    let v = standard_with(|t| t.replace("france = \"#56B4E9\"", "france = \"#0072B3\""));
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("the colours of england and france are too alike")),
        "{found:#?}"
    );
}

/// The values of attribute `name` on elements whose tag starts `<tag` in `svg`.
fn attributes(svg: &str, tag: &str, name: &str) -> Vec<String> {
    let open = format!("<{tag} ");
    let key = format!(" {name}=\"");
    svg.split(&open)
        .skip(1)
        .filter_map(|element| {
            let head = format!(
                " {}",
                &element[..element.find('>').unwrap_or(element.len())]
            );
            let at = head.find(&key)? + key.len();
            Some(head[at..at + head[at..].find('"')?].to_string())
        })
        .collect()
}

#[test]
fn the_svg_draws_every_province_and_every_unit() {
    for v in variants() {
        let svg = drawing::draw_variant(v, false, Words::english()).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        let ids = attributes(&svg, "path", "id");
        for province in &v.map.provinces {
            assert!(
                ids.contains(&format!("province-{}", province.id)),
                "{}: {} not drawn",
                v.id,
                province.id
            );
        }
        let units = attributes(&svg, "g", "id");
        for unit in &v.start.units {
            let id = format!("unit-{}", v.map.region_id(unit.region).replace('/', "-"));
            assert!(units.contains(&id), "{}: {id} not drawn", v.id);
        }
        assert_eq!(
            attributes(&svg, "g", "class")
                .iter()
                .filter(|c| *c == "unit")
                .count(),
            v.start.units.len()
        );
        for power in &v.map.powers {
            assert!(svg.contains(&format!("data-power=\"{}\"", power.id)));
        }
        // The empty map has no units.
        let empty = drawing::draw_variant(v, true, Words::english()).unwrap();
        assert!(!empty.contains("class=\"unit\""));
    }
}

#[test]
fn orders_are_drawn_with_their_outcomes_and_reasons() {
    let boards = case_boards(data("maps/cases.json"), variants(), &Options::default());
    let board = boards[0].as_ref().unwrap();
    let svg = drawing::draw_case(board, Words::english()).unwrap();
    let orders: Vec<&str> = svg
        .split("<g class=\"order ")
        .skip(1)
        .map(|o| &o[..o.find("</g>").unwrap()])
        .collect();
    assert_eq!(orders.len(), 8, "one drawing per order");
    let find = |text: &str| {
        *orders
            .iter()
            .find(|o| o.contains(text))
            .unwrap_or_else(|| panic!("no order drawn for {text}"))
    };
    // A bounce: both moves fail, dashed and crossed, the reason on hover.
    let paris = find("Paris -&gt; Burgundy");
    assert!(paris.starts_with("move\" data-result=\"fails\""), "{paris}");
    assert!(paris.contains("stroke-dasharray") && paris.contains("class=\"cross\""));
    assert!(paris.contains("bounce"), "{paris}");
    // A supported attack succeeds; the support is drawn as such.
    assert!(find("Tyrolia -&gt; Venice").starts_with("move\" data-result=\"succeeds\""));
    assert!(find("Army Trieste SUPPORT").starts_with("support\" data-result=\"succeeds\""));
    // The convoy and the convoyed move, and a hold dislodged.
    assert!(find("Fleet North Sea CONVOY").starts_with("convoy\" data-result=\"succeeds\""));
    assert!(find("Army Venice HOLD").starts_with("hold\" data-result=\"fails\""));
    // The dislodged unit is drawn with its retreats.
    let dislodged = &svg[svg
        .find("<g class=\"dislodged\" id=\"dislodged-ven\"")
        .expect("dislodged drawn")..];
    let dislodged = &dislodged[..dislodged.find("</g>").unwrap()];
    assert!(
        dislodged.contains("class=\"retreat-option\""),
        "{dislodged}"
    );
    assert!(dislodged.contains("may retreat to"), "{dislodged}");
}

#[test]
fn a_png_is_rendered_with_the_font_in_the_binary() {
    let v = &variants()[0];
    let svg = drawing::draw_variant(v, false, Words::english()).unwrap();
    let png = drawing::png::render_png(&svg, 0.25).expect("rendered");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, a quarter of the picture's.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 300);
    // Text is drawn: the same picture without its words is a different image.
    let blank = svg.replace("font-size=", "font-size=\"0\" data-size=");
    assert_ne!(drawing::png::render_png(&blank, 0.25).unwrap(), png);
    assert!(drawing::png::render_png("not svg", 1.0).is_none());
}

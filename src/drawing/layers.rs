//! A board's PNG painted in layers. What never changes on a map (the sea, land without a
//! supply centre, borders, straits and canals, the provinces' names) is painted once and
//! kept; each picture starts from a copy of it and paints only what its position and orders
//! add: the land of each supply centre in its owner's colour (through the province's shape,
//! kept as a mask), the centres, units, orders and legend. The picture is the one
//! `png::render_png(&board::draw(..))` paints (the same groups in the same order), a few
//! times faster: the results letters of a thousand games reaching their deadline together
//! each carry one.

use std::sync::{Arc, Mutex};

use resvg::tiny_skia::{Pixmap, PremultipliedColorU8};

use super::board::{Board, Lands, PIECE_REACH, Piece};
use super::png;
use super::scene::Scene;
use super::svg::rgb;
use crate::atlas::sheet::Sheet;
use crate::report::messages::Words;

/// The maps whose unchanging layers are kept, in each of the two indexes below (a judge
/// plays a few variants, a map's layers are about ten megabytes, and a game of Diadochi V
/// with credit has a taller legend, so another picture size).
const KEPT: usize = 4;

/// The scene as a PNG, `layout`'s width wide; `None` if it cannot be painted.
pub fn board_png(scene: &Scene, words: Words) -> Option<Vec<u8>> {
    png::encode(&paint_board(scene, words)?)
}

/// The scene painted, `layout`'s width wide (what `png::render(&board::draw(..), 1.0)`
/// paints).
pub fn paint_board(scene: &Scene, words: Words) -> Option<Pixmap> {
    let board = Board::new(scene);
    let known = Known::of(scene, &board);
    let backdrop = match known.as_ref().and_then(Known::find) {
        Some(found) => found,
        None => {
            let found = backdrop(Plan::new(&board))?;
            if let Some(known) = known {
                known.learn(&found);
            }
            found
        }
    };
    let mut pixmap = backdrop.under.clone();
    for (shape, mask) in &backdrop.shapes {
        if let Some(colour) = board.land_colour(*shape) {
            mask.fill(&mut pixmap, rgb(&colour));
        }
    }
    backdrop.borders.paint(&mut pixmap);
    for piece in board.centre_pieces(words) {
        paint_piece(&board, &piece, &mut pixmap)?;
    }
    backdrop.labels.paint(&mut pixmap);
    // Each order a piece, painted once and kept: an order from one province to another looks
    // the same in every game of the map.
    for order in board.order_pieces() {
        let document = board.marked_document(|out| out.push_str(&order));
        paint_kept(document, None, &mut pixmap)?;
    }
    for piece in board.unit_pieces() {
        paint_piece(&board, &piece, &mut pixmap)?;
    }
    let mut dislodged = String::new();
    board.dislodged(&mut dislodged, words);
    if !scene.retreats.is_empty() {
        paint(
            &board.document(true, |out| out.push_str(&dislodged)),
            &mut pixmap,
        )?;
    }
    paint_legend(&board, words, &mut pixmap)?;
    Some(pixmap)
}

/// A rectangle of the picture, in pixels.
#[derive(Clone, Copy)]
struct Region {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

/// A centre's or a unit's piece painted over `pixmap`: kept, or painted alone around its
/// point and kept.
fn paint_piece(board: &Board, piece: &Piece, pixmap: &mut Pixmap) -> Option<()> {
    let reach = PIECE_REACH;
    let x0 = (piece.at.x - reach).floor().max(0.0) as u32;
    let y0 = (piece.at.y - reach).floor().max(0.0) as u32;
    let x1 = ((piece.at.x + reach).ceil() as u32).min(pixmap.width());
    let y1 = ((piece.at.y + reach).ceil() as u32).min(pixmap.height());
    if x1 <= x0 || y1 <= y0 {
        return Some(());
    }
    let region = Region {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    };
    let document = board.document(false, |out| out.push_str(&piece.svg));
    paint_kept(document, Some(region), pixmap)
}

/// The SVG `document` (a piece that reaches no further than `region`, or, when `None`, than
/// the box around what it paints) painted over `pixmap`: taken painted from the pieces kept,
/// or painted now and kept.
fn paint_kept(document: String, region: Option<Region>, pixmap: &mut Pixmap) -> Option<()> {
    let kept = {
        let pieces = PIECES.lock().unwrap_or_else(|e| e.into_inner());
        pieces.by_document.get(&document).cloned()
    };
    let painted = match kept {
        Some(painted) => painted,
        None => {
            let tree = resvg::usvg::Tree::from_str(&document, png::options()).ok()?;
            let region = match region {
                Some(region) => region,
                None => match reach(&tree, pixmap) {
                    Some(region) => region,
                    // Nothing painted.
                    None => return Some(()),
                },
            };
            let mut layer = Pixmap::new(region.w, region.h)?;
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::from_translate(-(region.x as f32), -(region.y as f32)),
                &mut layer.as_mut(),
            );
            let painted = Arc::new(Sparse::of_region(&layer, region, pixmap.width()));
            let mut pieces = PIECES.lock().unwrap_or_else(|e| e.into_inner());
            if pieces.by_document.len() >= PIECES_KEPT
                || pieces.pixels + painted.pixels.len() > PIXELS_KEPT
            {
                *pieces = Pieces::default();
            }
            pieces.pixels += painted.pixels.len();
            if let Some(before) = pieces.by_document.insert(document, painted.clone()) {
                // Another thread painted it meanwhile.
                pieces.pixels -= before.pixels.len();
            }
            painted
        }
    };
    painted.paint(pixmap);
    Some(())
}

/// The pixels of `pixmap` that what `tree` paints may touch: the box around it (its strokes
/// and arrowheads included), a pixel more on each side for its smoothed edges; `None` if it
/// paints nothing on the picture.
fn reach(tree: &resvg::usvg::Tree, pixmap: &Pixmap) -> Option<Region> {
    if !tree.root().has_children() {
        return None;
    }
    let bounds = tree.root().abs_layer_bounding_box();
    let x0 = (bounds.left().floor() - 1.0).max(0.0) as u32;
    let y0 = (bounds.top().floor() - 1.0).max(0.0) as u32;
    let x1 = ((bounds.right().ceil() + 1.0).max(0.0) as u32).min(pixmap.width());
    let y1 = ((bounds.bottom().ceil() + 1.0).max(0.0) as u32).min(pixmap.height());
    (x1 > x0 && y1 > y0).then_some(Region {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    })
}

/// Pieces painted once and kept, by their documents: a map's centres in each owner's colour,
/// its units, its orders (each arrow with its outcome's look), its legends' ground, each
/// power's centre and name and the key in each language, and the counts (`3 centres, 3
/// units`) boards share; at most this many (a few kilobytes each, a long order's arrow some
/// tens, a legend's ground a few hundred).
const PIECES_KEPT: usize = 4096;

/// The painted pixels kept in all the pieces at most (eight bytes each: 32 MB): the orders of
/// many games, each arrow a piece, would otherwise fill the count with long arrows.
const PIXELS_KEPT: usize = 4 << 20;

/// The legend beneath the map (`Board::legend`), painted over `pixmap` piece by piece: the
/// pieces that recur from board to board taken painted from those kept (painted now and
/// kept when they are not), the board's own title and credit painted now. Text is the
/// costliest thing a picture paints, and most of a legend's is the same on every board.
fn paint_legend(board: &Board, words: Words, pixmap: &mut Pixmap) -> Option<()> {
    let legend = board.legend(words);
    let mut recurring = vec![legend.ground.as_str()];
    for (_, named, count) in &legend.powers {
        recurring.push(named);
        recurring.push(count);
    }
    recurring.push(&legend.key);
    // From two rows above the map's edge: the line along it is drawn across the edge.
    let top = (board.h.floor() as u32).saturating_sub(2);
    let region = Region {
        x: 0,
        y: top,
        w: pixmap.width(),
        h: pixmap.height().saturating_sub(top),
    };
    for piece in recurring {
        let document = board.document(false, |out| out.push_str(piece));
        paint_kept(document, Some(region), pixmap)?;
    }
    let own = legend.title + legend.credit.as_deref().unwrap_or_default();
    paint(&board.document(false, |out| out.push_str(&own)), pixmap)
}

/// The pieces painted and kept (`paint_kept`).
static PIECES: std::sync::LazyLock<Mutex<Pieces>> = std::sync::LazyLock::new(Default::default);

/// The pieces kept, and their painted pixels counted.
#[derive(Default)]
struct Pieces {
    by_document: std::collections::HashMap<String, Arc<Sparse>>,
    pixels: usize,
}

/// The unchanging layers of a board as SVG documents, and the land that changes colour.
struct Plan {
    /// The sea, and the land whose colour never changes.
    under: String,
    /// Borders, straits, roads and canals.
    borders: String,
    /// The provinces' names.
    labels: String,
    /// Each land province that changes colour: its shape's index on the sheet, and the
    /// document of its shape alone, in white.
    shapes: Vec<(usize, String)>,
    /// Where the centres stand (their pieces are painted between the borders and the names).
    centres: Vec<crate::atlas::geometry::Point>,
    width: f64,
    height: f64,
}

impl Plan {
    fn new(board: &Board) -> Plan {
        // Nothing of the board's own (its title) goes into these documents: they are the
        // same for every board of the map, and the kept layers are found by them.
        let under = board.document(false, |out| {
            board.sea(out);
            board.seas(out);
            board.land(out, Lands::Unchanging);
        });
        let borders = board.document(false, |out| {
            board.borders(out);
            board.links(out);
        });
        let labels = board.document(false, |out| board.labels(out));
        let shapes = (0..board.sheet.shapes.len())
            .filter(|i| board.changes_colour(*i))
            .map(|i| {
                (
                    i,
                    board.document(false, |out| board.land(out, Lands::Shape(i))),
                )
            })
            .collect();
        Plan {
            under,
            borders,
            labels,
            shapes,
            centres: board.centre_points(),
            width: board.w,
            height: board.h + board.legend,
        }
    }

    /// Whether `backdrop` was painted from this plan: every document the same, so every
    /// pixel is.
    fn painted(&self, backdrop: &Backdrop) -> bool {
        let plan = &backdrop.plan;
        plan.width == self.width
            && plan.height == self.height
            && plan.under == self.under
            && plan.borders == self.borders
            && plan.labels == self.labels
            && plan.shapes == self.shapes
            && plan.centres == self.centres
    }
}

/// A map's unchanging layers, painted.
struct Backdrop {
    /// What they were painted from.
    plan: Plan,
    under: Pixmap,
    /// The land that changes colour: each shape's index on the sheet and its mask.
    shapes: Vec<(usize, Mask)>,
    borders: Sparse,
    labels: Sparse,
}

/// The kept layers of the boards painted last, found without writing their documents: by the
/// map's shapes (the very `Sheet`, shared by every equal layout and held alive here, so the
/// same one means the same layout), a digest of what the layers show of the map's provinces
/// (ids, names, terrain, centres) and the picture's size. A board not found so is looked up
/// by its documents, the full text of its layers.
struct Known {
    sheet: Arc<Sheet>,
    digest: u64,
}

impl Known {
    fn index() -> &'static Mutex<Vec<(Known, Arc<Backdrop>)>> {
        static INDEX: Mutex<Vec<(Known, Arc<Backdrop>)>> = Mutex::new(Vec::new());
        &INDEX
    }

    /// The scene's map as the index knows maps: its shapes, and a digest of what the layers
    /// show of it beyond them and of the picture's size. `None` before its shapes are made.
    fn of(scene: &Scene, board: &Board) -> Option<Known> {
        use std::hash::{Hash, Hasher};
        let sheet = scene.layout.sheet.get()?.clone();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for province in &scene.map.provinces {
            province.id.hash(&mut hasher);
            province.name.hash(&mut hasher);
            std::mem::discriminant(&province.terrain).hash(&mut hasher);
            province.centre.is_some().hash(&mut hasher);
            province.build_site.hash(&mut hasher);
        }
        board.w.to_bits().hash(&mut hasher);
        (board.h + board.legend).to_bits().hash(&mut hasher);
        Some(Known {
            sheet,
            digest: hasher.finish(),
        })
    }

    fn find(&self) -> Option<Arc<Backdrop>> {
        let index = Known::index().lock().unwrap_or_else(|e| e.into_inner());
        index
            .iter()
            .find(|(k, _)| Arc::ptr_eq(&k.sheet, &self.sheet) && k.digest == self.digest)
            .map(|(_, b)| b.clone())
    }

    fn learn(self, backdrop: &Arc<Backdrop>) {
        let mut index = Known::index().lock().unwrap_or_else(|e| e.into_inner());
        if index.len() >= KEPT {
            index.remove(0);
        }
        index.push((self, backdrop.clone()));
    }
}

/// The unchanging layers of the maps painted last.
static BACKDROPS: Mutex<Vec<Arc<Backdrop>>> = Mutex::new(Vec::new());

/// Whether the unchanging layers of the scene's map are painted and kept: any board of the
/// map, whatever its title, owners, units and orders, is then painted over them.
pub fn kept(scene: &Scene) -> bool {
    let plan = Plan::new(&Board::new(scene));
    let backdrops = BACKDROPS.lock().unwrap_or_else(|e| e.into_inner());
    backdrops.iter().any(|b| plan.painted(b))
}

/// The painted layers of `plan`'s map: those kept, else painted now (and kept).
fn backdrop(plan: Plan) -> Option<Arc<Backdrop>> {
    let kept = |plan: &Plan, backdrops: &Vec<Arc<Backdrop>>| {
        backdrops.iter().find(|b| plan.painted(b)).cloned()
    };
    if let Some(found) = kept(&plan, &BACKDROPS.lock().unwrap_or_else(|e| e.into_inner())) {
        return Some(found);
    }
    // Painted without the lock held: pictures of other maps go on meanwhile.
    let painted = Arc::new(Backdrop::paint(plan)?);
    let mut backdrops = BACKDROPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = kept(&painted.plan, &backdrops) {
        return Some(found);
    }
    if backdrops.len() >= KEPT {
        backdrops.remove(0);
    }
    backdrops.push(painted.clone());
    Some(painted)
}

impl Backdrop {
    fn paint(plan: Plan) -> Option<Backdrop> {
        let layer = |document: &str| -> Option<Pixmap> {
            let mut pixmap = blank(&plan)?;
            paint(document, &mut pixmap)?;
            Some(pixmap)
        };
        let shapes = plan
            .shapes
            .iter()
            .map(|(i, document)| Some((*i, Mask::of(&layer(document)?))))
            .collect::<Option<Vec<_>>>()?;
        let mut under = layer(&plan.under)?;
        let borders = Sparse::of(&layer(&plan.borders)?);
        let labels = Sparse::of(&layer(&plan.labels)?);
        // What no board changes under a border or a name (no centre's land beneath, no
        // centre's piece between) is painted into the layer beneath once: each picture
        // paints only the rest.
        let (width, height) = (under.width() as usize, under.height() as usize);
        let mut changing = vec![false; width * height];
        for (_, mask) in &shapes {
            mask.mark(&mut changing);
        }
        let borders = borders.bake(&mut under, &changing);
        let reach = PIECE_REACH.ceil() as i64;
        for at in &plan.centres {
            let (x, y) = (at.x.floor() as i64, at.y.floor() as i64);
            for row in (y - reach - 1).max(0)..(y + reach + 2).min(height as i64) {
                for column in (x - reach - 1).max(0)..(x + reach + 2).min(width as i64) {
                    changing[row as usize * width + column as usize] = true;
                }
            }
        }
        let labels = labels.bake(&mut under, &changing);
        Some(Backdrop {
            under,
            shapes,
            borders,
            labels,
            plan,
        })
    }
}

/// A transparent pixmap the size of the picture.
fn blank(plan: &Plan) -> Option<Pixmap> {
    Pixmap::new(plan.width.ceil() as u32, plan.height.ceil() as u32)
}

/// Paints the SVG document over `pixmap` (at the size it was written for).
fn paint(document: &str, pixmap: &mut Pixmap) -> Option<()> {
    let tree = resvg::usvg::Tree::from_str(document, png::options()).ok()?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Some(())
}

/// A layer's painted pixels, the transparent ones left out.
struct Sparse {
    pixels: Vec<(u32, PremultipliedColorU8)>,
}

impl Sparse {
    fn of(layer: &Pixmap) -> Sparse {
        let whole = Region {
            x: 0,
            y: 0,
            w: layer.width(),
            h: layer.height(),
        };
        Sparse::of_region(layer, whole, layer.width())
    }

    /// A layer of the picture's `region` (the picture `width` pixels wide).
    fn of_region(layer: &Pixmap, region: Region, width: u32) -> Sparse {
        let pixels = layer
            .pixels()
            .iter()
            .enumerate()
            .filter(|(_, p)| p.alpha() > 0)
            .map(|(i, p)| {
                let (x, y) = (i as u32 % region.w, i as u32 / region.w);
                ((region.y + y) * width + region.x + x, *p)
            })
            .collect();
        Sparse { pixels }
    }

    /// Paints over `pixmap` the pixels of the layer that `changing` does not mark, and
    /// returns the layer of those it marks.
    fn bake(self, pixmap: &mut Pixmap, changing: &[bool]) -> Sparse {
        let (kept, baked): (Vec<_>, Vec<_>) = self
            .pixels
            .into_iter()
            .partition(|(i, _)| changing.get(*i as usize).copied().unwrap_or(true));
        Sparse { pixels: baked }.paint(pixmap);
        Sparse { pixels: kept }
    }

    /// Paints the layer over `pixmap` (source over, premultiplied).
    fn paint(&self, pixmap: &mut Pixmap) {
        let under = pixmap.pixels_mut();
        for (i, p) in &self.pixels {
            let Some(d) = under.get_mut(*i as usize) else {
                continue;
            };
            if p.alpha() == 255 {
                *d = *p;
                continue;
            }
            let keep = 255 - u16::from(p.alpha());
            let over = |s: u8, d: u8| s.saturating_add(times(d, keep));
            *d = PremultipliedColorU8::from_rgba(
                over(p.red(), d.red()),
                over(p.green(), d.green()),
                over(p.blue(), d.blue()),
                over(p.alpha(), d.alpha()),
            )
            .unwrap_or(*p);
        }
    }
}

/// `value × share / 255`, rounded.
fn times(value: u8, share: u16) -> u8 {
    let product = u32::from(value) * u32::from(share) + 128;
    ((product + (product >> 8)) >> 8) as u8
}

/// How much of each pixel a shape covers: runs of pixels it covers wholly, and runs of
/// pixels it covers in part with their coverage (its edges).
struct Mask {
    /// First pixel and length of each run covered wholly.
    whole: Vec<(u32, u32)>,
    /// First pixel of each run covered in part, and each pixel's coverage.
    edges: Vec<(u32, Vec<u8>)>,
}

impl Mask {
    /// The shape painted (in white) on `layer`: its coverage is the alpha.
    fn of(layer: &Pixmap) -> Mask {
        let mut mask = Mask {
            whole: Vec::new(),
            edges: Vec::new(),
        };
        let mut last: Option<(usize, bool)> = None;
        for (i, p) in layer.pixels().iter().enumerate() {
            let a = p.alpha();
            if a == 0 {
                last = None;
                continue;
            }
            let full = a == 255;
            match (last, full) {
                (Some((before, true)), true) if before + 1 == i => {
                    if let Some((_, length)) = mask.whole.last_mut() {
                        *length += 1;
                    }
                }
                (Some((before, false)), false) if before + 1 == i => {
                    if let Some((_, coverage)) = mask.edges.last_mut() {
                        coverage.push(a);
                    }
                }
                (_, true) => mask.whole.push((i as u32, 1)),
                (_, false) => mask.edges.push((i as u32, vec![a])),
            }
            last = Some((i, full));
        }
        mask
    }

    /// Marks in `pixels` (one a pixel of the picture) the pixels the shape covers at all.
    fn mark(&self, pixels: &mut [bool]) {
        for (start, length) in &self.whole {
            let start = *start as usize;
            if let Some(run) = pixels.get_mut(start..start + *length as usize) {
                run.fill(true);
            }
        }
        for (start, coverage) in &self.edges {
            let start = *start as usize;
            if let Some(run) = pixels.get_mut(start..start + coverage.len()) {
                run.fill(true);
            }
        }
    }

    /// Paints the shape over `pixmap` in an opaque `colour`.
    fn fill(&self, pixmap: &mut Pixmap, (r, g, b): (u8, u8, u8)) {
        let under = pixmap.pixels_mut();
        let solid = PremultipliedColorU8::from_rgba(r, g, b, 255).expect("opaque");
        for (start, length) in &self.whole {
            let start = *start as usize;
            if let Some(pixels) = under.get_mut(start..start + *length as usize) {
                pixels.fill(solid);
            }
        }
        for (start, coverage) in &self.edges {
            let start = *start as usize;
            let Some(pixels) = under.get_mut(start..start + coverage.len()) else {
                continue;
            };
            for (d, a) in pixels.iter_mut().zip(coverage) {
                let (a, keep) = (u16::from(*a), 255 - u16::from(*a));
                let mix = |s: u8, d: u8| times(s, a).saturating_add(times(d, keep));
                *d = PremultipliedColorU8::from_rgba(
                    mix(r, d.red()),
                    mix(g, d.green()),
                    mix(b, d.blue()),
                    mix(255, d.alpha()),
                )
                .unwrap_or(solid);
            }
        }
    }
}

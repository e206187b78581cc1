//! Where a map's places lie, pure (data in, shapes out): what a variant file's `[map]` says
//! (`layout`: projection, frame, colours, each place's sites and points), the world's land
//! (`geography`, Natural Earth), plane geometry (`geometry`), and the shapes the sites make
//! (`partition` makes a `Sheet`, `sheet`; water by `water`). Below the variants, which hold
//! a layout, and the drawing, which paints the sheet. docs/maps.md says more.

pub mod geography;
pub mod geometry;
pub mod layout;
pub mod partition;
pub mod sheet;
pub mod water;

//! Powers (the sides of a game) as small indices into `Map::powers`.

/// Index of a power in `Map::powers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerId(pub u8);

impl PowerId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

//! Grid geometry shared by templates, layout and levels.

use serde::Serialize;

/// One of the four grid directions. `North` is towards smaller `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Up (y - 1).
    North,
    /// Right (x + 1).
    East,
    /// Down (y + 1).
    South,
    /// Left (x - 1).
    West,
}

impl Dir {
    /// All four directions, in a fixed order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The unit step of this direction.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    /// The direction pointing the other way.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// Lower-case name as written in YAML.
    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }

    /// Parses a YAML name (`north`, `n`, ...).
    pub fn parse(s: &str) -> Option<Dir> {
        match s {
            "north" | "n" | "up" => Some(Dir::North),
            "east" | "e" | "right" => Some(Dir::East),
            "south" | "s" | "down" => Some(Dir::South),
            "west" | "w" | "left" => Some(Dir::West),
            _ => None,
        }
    }
}

/// A tile position (the default is the origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row (grows downwards).
    pub y: i32,
}

impl Pos {
    /// A position.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbour one step in `dir`.
    pub fn step(self, dir: Dir) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// Manhattan distance.
    pub fn manhattan(self, other: Pos) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

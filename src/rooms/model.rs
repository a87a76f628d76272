//! The room template model.

use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use crate::diag::SourceFile;
use crate::geom::{Dir, Pos};
use crate::properties::Properties;

/// What one tile of a template is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tile {
    /// Outside the room (lets templates take L, cross and other shapes).
    Void,
    /// Solid wall, including sealed exits.
    Wall,
    /// Walkable floor.
    Floor,
    /// A solid pillar or statue standing on the floor.
    Pillar,
    /// A pit the player cannot cross.
    Pit,
}

impl Tile {
    /// Whether the tile is inside the room (floor or something on it).
    pub fn is_inside(self) -> bool {
        matches!(self, Tile::Floor | Tile::Pillar | Tile::Pit)
    }

    /// Name used in legends.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Void => "void",
            Tile::Wall => "wall",
            Tile::Floor => "floor",
            Tile::Pillar => "pillar",
            Tile::Pit => "pit",
        }
    }

    /// Parses a legend name.
    pub fn parse(s: &str) -> Option<Tile> {
        [Tile::Void, Tile::Wall, Tile::Floor, Tile::Pillar, Tile::Pit]
            .into_iter()
            .find(|t| t.name() == s)
    }
}

/// Which connections an exit may serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitKind {
    /// Any connection.
    Any,
    /// Only the connection by which the room is entered (from its parent).
    EntranceOnly,
    /// Only connections leaving the room (to its children).
    ExitOnly,
}

impl ExitKind {
    /// Names accepted in YAML.
    pub const NAMES: [&'static str; 3] = ["any", "entrance_only", "exit_only"];

    /// Parses a YAML name.
    pub fn parse(s: &str) -> Option<ExitKind> {
        match s {
            "any" => Some(ExitKind::Any),
            "entrance_only" => Some(ExitKind::EntranceOnly),
            "exit_only" => Some(ExitKind::ExitOnly),
            _ => None,
        }
    }

    /// Whether an exit of this kind may serve the connection by which the
    /// room is entered (from its parent).
    pub fn may_enter(self) -> bool {
        self != ExitKind::ExitOnly
    }

    /// Whether an exit of this kind may serve a connection leaving the room
    /// (to a child, or a loop).
    pub fn may_leave(self) -> bool {
        self != ExitKind::EntranceOnly
    }
}

/// A door position on a template's boundary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exit {
    /// The exit's name (its letter in the art, or its key under `exits:`).
    pub name: String,
    /// The wall tiles the door opens, in order along the wall.
    pub cells: Vec<Pos>,
    /// The direction the exit faces (out of the room).
    pub dir: Dir,
    /// Exit group: only one exit of a group may be used in a level.
    pub group: Option<String>,
    /// Which connections it may serve.
    pub kind: ExitKind,
}

impl Exit {
    /// Door width in tiles.
    pub fn width(&self) -> usize {
        self.cells.len()
    }
}

/// A marker drawn in a template's art: a spot where the game puts
/// something (an enemy, a chest, a torch), with its data.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TemplateMarker {
    /// What it marks (`enemy`, `chest`, ...), as the legend names it.
    pub kind: String,
    /// Its tile in the art.
    pub at: Pos,
    /// Its data, from the legend entry.
    pub properties: Properties,
}

/// A rotation or mirroring of a template's art (`transforms:`), made at
/// load time. The art's x runs right and y down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Transform {
    /// A quarter turn clockwise.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn counter-clockwise.
    Rotate270,
    /// Mirrored left to right (east and west swap).
    MirrorX,
    /// Mirrored top to bottom (north and south swap).
    MirrorY,
}

impl Transform {
    /// Every transform, in the order `all` adds them.
    pub const ALL: [Transform; 5] = [
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::MirrorX,
        Transform::MirrorY,
    ];

    /// The name used in YAML and in the level.
    pub fn name(self) -> &'static str {
        match self {
            Transform::Rotate90 => "rotate90",
            Transform::Rotate180 => "rotate180",
            Transform::Rotate270 => "rotate270",
            Transform::MirrorX => "mirror_x",
            Transform::MirrorY => "mirror_y",
        }
    }

    /// Parses a YAML name.
    pub fn parse(s: &str) -> Option<Transform> {
        Transform::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Where tile `p` of art `width` x `height` goes.
    pub fn apply(self, p: Pos, width: i32, height: i32) -> Pos {
        match self {
            Transform::Rotate90 => Pos::new(height - 1 - p.y, p.x),
            Transform::Rotate180 => Pos::new(width - 1 - p.x, height - 1 - p.y),
            Transform::Rotate270 => Pos::new(p.y, width - 1 - p.x),
            Transform::MirrorX => Pos::new(width - 1 - p.x, p.y),
            Transform::MirrorY => Pos::new(p.x, height - 1 - p.y),
        }
    }

    /// The facing a wall facing `dir` gets.
    pub fn turn(self, dir: Dir) -> Dir {
        let clockwise = |d: Dir| match d {
            Dir::North => Dir::East,
            Dir::East => Dir::South,
            Dir::South => Dir::West,
            Dir::West => Dir::North,
        };
        match self {
            Transform::Rotate90 => clockwise(dir),
            Transform::Rotate180 => dir.opposite(),
            Transform::Rotate270 => clockwise(dir).opposite(),
            Transform::MirrorX if matches!(dir, Dir::East | Dir::West) => dir.opposite(),
            Transform::MirrorY if matches!(dir, Dir::North | Dir::South) => dir.opposite(),
            Transform::MirrorX | Transform::MirrorY => dir,
        }
    }

    /// The size of the art after the transform.
    pub fn size(self, width: i32, height: i32) -> (i32, i32) {
        match self {
            Transform::Rotate90 | Transform::Rotate270 => (height, width),
            _ => (width, height),
        }
    }
}

/// What a template made by a transform comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The name of the template as drawn.
    pub base: String,
    /// The transform applied to it.
    pub transform: Transform,
}

/// Where a template was defined, for diagnostics.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The file.
    pub file: Arc<SourceFile>,
    /// Span of the template's name.
    pub span: Range<usize>,
}

/// A hand-made room: tiles and exits.
#[derive(Clone, Debug)]
pub struct RoomTemplate {
    /// Unique name.
    pub name: String,
    /// Category (`normal`, `boss`, ... or a user-defined one).
    pub category: String,
    /// Free tags; flows select pools by tag.
    pub tags: Vec<String>,
    /// Relative selection weight.
    pub weight: f64,
    /// Width in tiles.
    pub width: i32,
    /// Height in tiles.
    pub height: i32,
    /// Row-major tiles.
    pub tiles: Vec<Tile>,
    /// The exits.
    pub exits: Vec<Exit>,
    /// Markers drawn in the art, in reading order.
    pub markers: Vec<TemplateMarker>,
    /// The template's data (`properties:`), given to every room made from it.
    pub properties: Properties,
    /// The template it was made from by a transform (`None` as drawn). A
    /// variant is named `base@transform`.
    pub variant: Option<Variant>,
    /// Where it was defined.
    pub origin: Origin,
    /// How many of `exits` can be used at once (worked out once, when loaded).
    pub exit_counts: ExitCounts,
}

/// How many exits of a template can be used at once, counting one per
/// exit group: for any connections, for incoming ones (`any` or
/// `entrance_only` exits) and for outgoing ones (`any` or `exit_only`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExitCounts {
    /// Exits usable at once.
    pub any: usize,
    /// Of those, exits that may serve an incoming connection.
    pub incoming: usize,
    /// Of those, exits that may serve an outgoing connection.
    pub outgoing: usize,
}

impl ExitCounts {
    /// The counts of `exits`.
    pub fn of(exits: &[Exit]) -> Self {
        Self {
            any: usable(exits, |_| true),
            incoming: usable(exits, ExitKind::may_enter),
            outgoing: usable(exits, ExitKind::may_leave),
        }
    }
}

/// Exits whose kind passes `fits`, counting one per group.
fn usable(exits: &[Exit], fits: impl Fn(ExitKind) -> bool) -> usize {
    let mut groups: Vec<&str> = exits
        .iter()
        .filter(|e| fits(e.kind))
        .filter_map(|e| e.group.as_deref())
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups.len()
        + exits
            .iter()
            .filter(|e| fits(e.kind) && e.group.is_none())
            .count()
}

impl RoomTemplate {
    /// The tile at `p`, `Void` outside the art.
    pub fn tile(&self, p: Pos) -> Tile {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            Tile::Void
        } else {
            self.tiles[(p.y * self.width + p.x) as usize]
        }
    }

    /// How many exits can be used at once: one per exit group plus every ungrouped exit.
    pub fn usable_exits(&self) -> usize {
        self.exit_counts.any
    }

    /// Whether the template can serve a node with one incoming connection
    /// (when `has_parent`) and `outgoing` further connections.
    pub fn fits_degree(&self, has_parent: bool, outgoing: usize) -> bool {
        let needed = outgoing + usize::from(has_parent);
        let c = self.exit_counts;
        c.any >= needed && (!has_parent || c.incoming >= 1) && c.outgoing >= outgoing
    }

    /// The name of the template as drawn (its own name unless it is a
    /// transformed variant).
    pub fn base_name(&self) -> &str {
        self.variant.as_ref().map_or(&self.name, |v| &v.base)
    }

    /// Number of walkable floor tiles.
    pub fn floor_area(&self) -> usize {
        self.tiles.iter().filter(|t| **t == Tile::Floor).count()
    }
}

//! Tile art: turning the ASCII picture of a room into tiles and exits.

use std::collections::BTreeMap;
use std::ops::Range;

use super::model::Tile;
use crate::geom::{Dir, Pos};
use crate::yaml::Decoder;

/// Largest template side, in tiles.
pub const MAX_SIDE: usize = 128;

/// Marks a door position: a one-tile exit with no name, for rooms that may be
/// entered at many places along a wall.
pub const DOORWAY: char = '+';

/// The built-in legend. Upper-case letters `A`-`Z` are exits, and so is
/// every [`DOORWAY`] tile.
pub const DEFAULT_LEGEND: [(char, Tile); 5] = [
    ('#', Tile::Wall),
    ('.', Tile::Floor),
    ('~', Tile::Void),
    ('o', Tile::Pillar),
    ('^', Tile::Pit),
];

/// What a character of the art stands for: a tile, and maybe a marker on it.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// The tile.
    pub tile: Tile,
    /// The marker on it: its kind and data.
    pub marker: Option<(String, crate::properties::Properties)>,
}

impl From<Tile> for LegendEntry {
    fn from(tile: Tile) -> Self {
        Self { tile, marker: None }
    }
}

/// The art decoded into tiles, with the exit letters still to resolve.
pub struct Art {
    /// Width in tiles.
    pub width: i32,
    /// Height in tiles.
    pub height: i32,
    /// Row-major tiles; exit cells are `Wall` (sealed until used).
    pub tiles: Vec<Tile>,
    /// Exit letter -> its cells, in reading order.
    pub letters: BTreeMap<char, Vec<Pos>>,
    /// [`DOORWAY`] cells, in reading order: each is a one-tile exit.
    pub doorways: Vec<Pos>,
    /// Cells drawn with a marker character, in reading order, with it.
    pub marked: Vec<(Pos, char)>,
    /// Byte offset of every art cell in the file, when the art is a block scalar.
    cell_offsets: Option<Vec<Vec<usize>>>,
    /// Span of the whole art node.
    span: Range<usize>,
}

impl Art {
    /// The byte span of a cell, for labels.
    pub fn cell_span(&self, p: Pos) -> Range<usize> {
        match &self.cell_offsets {
            Some(rows) => rows
                .get(p.y as usize)
                .and_then(|r| r.get(p.x as usize))
                .map_or(self.span.clone(), |&o| o..o + 1),
            None => self.span.clone(),
        }
    }

    /// The tile at `p`, `Void` outside.
    pub fn tile(&self, p: Pos) -> Tile {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            Tile::Void
        } else {
            self.tiles[(p.y * self.width + p.x) as usize]
        }
    }

    /// The direction an exit cell faces: the one side that is outside, whose
    /// opposite side is inside the room. `None` when there is no such side.
    pub fn facing(&self, p: Pos) -> Option<Dir> {
        let mut found = None;
        for dir in Dir::ALL {
            let out = self.tile(p.step(dir));
            let inside = self.tile(p.step(dir.opposite()));
            if out == Tile::Void && inside.is_inside() {
                if found.is_some() {
                    return None;
                }
                found = Some(dir);
            }
        }
        found
    }
}

/// Decodes `text` (the value of `art:` at `span`) with `legend` overrides.
pub fn parse_art(
    d: &mut Decoder,
    text: &str,
    span: Range<usize>,
    legend: &BTreeMap<char, LegendEntry>,
) -> Option<Art> {
    let rows: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect();
    let cell_offsets = locate_cells(&d.file.text, span.start, &rows);
    let mut art = Art {
        width: 0,
        height: rows.len() as i32,
        tiles: Vec::new(),
        letters: BTreeMap::new(),
        doorways: Vec::new(),
        marked: Vec::new(),
        cell_offsets,
        span: span.clone(),
    };
    if text.trim().is_empty() {
        d.error(
            "room::empty-art",
            span,
            "the room's art is empty",
            "no tiles",
            "draw the room with `#` walls, `.` floor and letters for exits",
        );
        return None;
    }
    let width = rows[0].chars().count();
    if width > MAX_SIDE || rows.len() > MAX_SIDE {
        d.error(
            "room::too-large",
            span,
            format!(
                "the art is {width}x{} tiles, over the limit of {MAX_SIDE}x{MAX_SIDE}",
                rows.len()
            ),
            "too large",
            "split a huge area into several rooms",
        );
        return None;
    }
    art.width = width as i32;
    let mut ok = true;
    for (y, row) in rows.iter().enumerate() {
        let w = row.chars().count();
        if w != width {
            let at = art.cell_span(Pos::new(w.min(width).saturating_sub(1) as i32, y as i32));
            d.error(
                "room::art-not-rectangular",
                at,
                format!(
                    "art row {} is {w} tiles wide, but the first row is {width}",
                    y + 1
                ),
                format!("row {} ends here", y + 1),
                "every row must have the same width; fill the outside of a shaped room with `~`",
            );
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let mut unknown = 0;
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = Pos::new(x as i32, y as i32);
            let tile = if c.is_ascii_uppercase() {
                art.letters.entry(c).or_default().push(p);
                Tile::Wall
            } else if c == DOORWAY {
                art.doorways.push(p);
                Tile::Wall
            } else if let Some(entry) = legend.get(&c) {
                if entry.marker.is_some() {
                    art.marked.push((p, c));
                }
                entry.tile
            } else {
                if unknown < 5 {
                    d.error(
                        "room::unknown-tile",
                        art.cell_span(p),
                        format!("unknown tile character `{}` at column {}, row {}", c.escape_debug(), x + 1, y + 1),
                        "not in the legend",
                        "use `#` wall, `.` floor, `~` outside, `o` pillar, `^` pit, A-Z or `+` for exits, or add it under `legend:`",
                    );
                }
                unknown += 1;
                ok = false;
                Tile::Void
            };
            art.tiles.push(tile);
        }
    }
    if !ok {
        return None;
    }
    check_enclosed(d, &art);
    Some(art)
}

/// Every floor tile must be walled in: no floor next to the outside.
/// Reports the first few open tiles.
fn check_enclosed(d: &mut Decoder, art: &Art) {
    let mut reported = 0;
    for y in 0..art.height {
        for x in 0..art.width {
            let p = Pos::new(x, y);
            if !art.tile(p).is_inside() {
                continue;
            }
            let open = (-1..=1)
                .flat_map(|dy| (-1..=1).map(move |dx| Pos::new(x + dx, y + dy)))
                .any(|q| art.tile(q) == Tile::Void);
            if open {
                d.error(
                    "room::floor-not-enclosed",
                    art.cell_span(p),
                    format!(
                        "floor at column {}, row {} touches the outside of the room",
                        x + 1,
                        y + 1
                    ),
                    "no wall between this tile and the outside",
                    "surround the room's floor with `#` walls (exits are letters in the wall)",
                );
                reported += 1;
                if reported == 5 {
                    return;
                }
            }
        }
    }
}

/// Byte offsets of every character of a block-scalar art in the file, or
/// `None` when the art cannot be found verbatim (e.g. a quoted string).
fn locate_cells(source: &str, start: usize, rows: &[&str]) -> Option<Vec<Vec<usize>>> {
    let line_start = source[..start.min(source.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent = start.checked_sub(line_start)?;
    let mut out = Vec::with_capacity(rows.len());
    let mut line = line_start;
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            line += source.get(line..)?.find('\n')? + 1;
        }
        let begin = line + indent;
        if !row.is_empty() && source.get(begin..begin + row.len())? != *row {
            return None;
        }
        out.push(row.char_indices().map(|(o, _)| begin + o).collect());
    }
    Some(out)
}

/// Whether every exit has plain floor behind it and all exits are joined by
/// walkable floor; reports the first exit that is not.
pub fn check_exits_reachable(d: &mut Decoder, art: &Art, exits: &[super::model::Exit]) {
    let mut starts = Vec::new();
    for e in exits {
        let behind = e.cells[0].step(e.dir.opposite());
        if art.tile(behind) != Tile::Floor {
            d.error(
                "room::exit-blocked",
                art.cell_span(e.cells[0]),
                format!(
                    "exit `{}` has {} behind it, not floor",
                    e.name,
                    art.tile(behind).name()
                ),
                "nothing to walk in from",
                "leave a floor tile `.` directly inside every exit",
            );
            return;
        }
        starts.push((e, behind));
    }
    let Some(&(_, origin)) = starts.first() else {
        return;
    };
    let mut seen = vec![false; art.tiles.len()];
    let mut stack = vec![origin];
    while let Some(p) = stack.pop() {
        let i = (p.y * art.width + p.x) as usize;
        if art.tile(p) != Tile::Floor || seen[i] {
            continue;
        }
        seen[i] = true;
        stack.extend(Dir::ALL.map(|dir| p.step(dir)));
    }
    for (e, behind) in &starts[1..] {
        if !seen[(behind.y * art.width + behind.x) as usize] {
            d.diags.push(
                crate::diag::Diagnostic::error(
                    "room::exits-disconnected",
                    format!(
                        "exit `{}` cannot be reached from exit `{}` over the floor",
                        e.name, starts[0].0.name
                    ),
                )
                .in_file(&d.file)
                .label(art.cell_span(e.cells[0]), "cut off")
                .label(art.cell_span(starts[0].0.cells[0]), "from here")
                .help(
                    "open a path of floor `.` between all exits (pillars and pits block the way)",
                ),
            );
            return;
        }
    }
}

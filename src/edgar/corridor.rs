//! Edgar's corridor rooms: the shapes of an enabled `corridors:` section
//! become connector templates, turned the four ways Edgar turns them by
//! the template loader (`transforms:`).
//!
//! A corridor shape is an orthogonal polygon of floor tiles (straight, bent
//! or any other) whose listed door segments (`doorPositions`) are where it
//! meets the rooms on either side; a rectangle without listed doors has
//! them on both short ends, the whole width. Its template is its floor
//! with a wall round it and an exit in the wall before each door.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::sync::Arc;

use super::{Shape, enabled_corridors, err, get, inside, int, items, names};
use crate::diag::{Diagnostic, SourceFile};
use crate::geom::Dir;
use crate::rooms::MAX_SIDE;
use crate::yaml::Node;

/// A tile, as `(x, y)` with `y` growing down.
type Tile = (i32, i32);

/// One corridor shape ready to become templates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Corridor {
    /// Tiles across each door.
    pub width: i32,
    /// Floor tiles over the width: a straight corridor's length, from door
    /// to door.
    pub length: i32,
    /// Its floor tiles.
    floor: BTreeSet<Tile>,
    /// Its doors: the floor tiles behind each, and the way out of it.
    doors: Vec<(Vec<Tile>, Dir)>,
}

impl Corridor {
    /// The corridor of `shape` (named `name` in messages).
    fn of(name: &str, shape: &Shape) -> Result<Self, String> {
        let (w, h) = (
            shape.outline.iter().map(|p| p.0).max().unwrap_or(0),
            shape.outline.iter().map(|p| p.1).max().unwrap_or(0),
        );
        let floor: BTreeSet<Tile> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| inside(&shape.outline, x, y))
            .collect();
        if floor.is_empty() {
            return Err(format!("corridor shape `{name}` has no floor"));
        }
        let segments = if shape.doors.is_empty() {
            short_ends(&floor, w, h).ok_or_else(|| {
                format!("corridor shape `{name}` lists no doors and is not a rectangle")
            })?
        } else {
            shape.doors.clone()
        };
        let doors = segments
            .iter()
            .map(|s| door(&floor, *s))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                format!("a door of corridor shape `{name}` is not on a side of its floor")
            })?;
        if doors.len() < 2 {
            return Err(format!(
                "corridor shape `{name}` has {} door: a corridor needs one at each end",
                doors.len()
            ));
        }
        let width = doors[0].0.len() as i32;
        if doors.iter().any(|d| d.0.len() as i32 != width) {
            return Err(format!(
                "the doors of corridor shape `{name}` differ in width: a corridor is as wide as its doors"
            ));
        }
        Ok(Self {
            width,
            length: floor.len() as i32 / width,
            floor,
            doors,
        })
    }

    /// The art and exits of the template (YAML, indented for a `rooms:`
    /// list item): the floor one tile in from the art's edge, walls on
    /// every tile beside it (diagonals too), void elsewhere.
    fn body(&self) -> String {
        let w = self.floor.iter().map(|t| t.0).max().unwrap_or(0) + 3;
        let h = self.floor.iter().map(|t| t.1).max().unwrap_or(0) + 3;
        let floor = |x: i32, y: i32| self.floor.contains(&(x - 1, y - 1));
        let mut art = String::from("    art: |\n");
        for y in 0..h {
            art += "      ";
            for x in 0..w {
                let near = (-1..=1).any(|dy| (-1..=1).any(|dx| floor(x + dx, y + dy)));
                art.push(if floor(x, y) {
                    '.'
                } else if near {
                    '#'
                } else {
                    '~'
                });
            }
            art.push('\n');
        }
        art += "    exits:\n";
        for (i, (tiles, out)) in self.doors.iter().enumerate() {
            let (dx, dy) = out.delta();
            let (x, y) = tiles
                .iter()
                .map(|&(x, y)| (x + 1 + dx, y + 1 + dy))
                .min()
                .unwrap_or_default();
            let _ = writeln!(
                art,
                "      d{i}: {{ at: [{x}, {y}], dir: {}, width: {} }}",
                out.name(),
                tiles.len()
            );
        }
        art
    }

    /// The connector template of this corridor named `name`, tagged
    /// `tag`, with its three quarter turns: the loader keeps those that
    /// differ from the template and each other (a straight corridor turned
    /// twice is itself) and shares its weight among them.
    pub fn template(&self, name: &str, tag: &str) -> String {
        format!(
            "  - name: {name}\n    category: connector\n    tags: [{tag}]\n    transforms: [rotate90, rotate180, rotate270]\n{}",
            self.body()
        )
    }
}

/// The doors of a rectangle of `floor` (`w` by `h` tiles): its two short
/// sides (top and bottom when square), as segments in tile corners.
fn short_ends(floor: &BTreeSet<Tile>, w: i32, h: i32) -> Option<Vec<[Tile; 2]>> {
    if floor.len() as i32 != w * h {
        return None;
    }
    Some(if w <= h {
        vec![[(0, 0), (w, 0)], [(0, h), (w, h)]]
    } else {
        vec![[(0, 0), (0, h)], [(w, 0), (w, h)]]
    })
}

/// The floor tiles behind door segment `[a, b]` (on a side between floor
/// and not floor, along its whole length) and the way out through it.
fn door(floor: &BTreeSet<Tile>, [a, b]: [Tile; 2]) -> Option<(Vec<Tile>, Dir)> {
    // Off the art's ground (corners are within 0..=MAX_SIDE): on no side.
    let most = MAX_SIDE as i32;
    if [a.0, a.1, b.0, b.1].iter().any(|c| !(0..=most).contains(c)) {
        return None;
    }
    // The tiles of row or column `line` along the segment, and the ways
    // out of the tiles after the line (x or y as the segment's) and of
    // those before it (one less).
    let (along, lo, hi, line, ways) = if a.1 == b.1 && a.0 != b.0 {
        (
            true,
            a.0.min(b.0),
            a.0.max(b.0),
            a.1,
            [Dir::North, Dir::South],
        )
    } else if a.0 == b.0 && a.1 != b.1 {
        (
            false,
            a.1.min(b.1),
            a.1.max(b.1),
            a.0,
            [Dir::West, Dir::East],
        )
    } else {
        return None;
    };
    let row = |line: i32| -> Vec<Tile> {
        (lo..hi)
            .map(|k| if along { (k, line) } else { (line, k) })
            .collect()
    };
    for (inner, outer, out) in [(line, line - 1, ways[0]), (line - 1, line, ways[1])] {
        let tiles = row(inner);
        if tiles.iter().all(|t| floor.contains(t)) && row(outer).iter().all(|t| !floor.contains(t))
        {
            return Some((tiles, out));
        }
    }
    None
}

/// The corridor shapes of an enabled `corridors:` section, by name: every
/// shape of the sets it names whose length (floor tiles over door width)
/// is one of its `offsets` (every one when none are given). Empty when the
/// graph has no enabled section.
pub(super) fn corridor_shapes(
    graph: &Arc<SourceFile>,
    root: &Node,
    sets: &BTreeMap<String, BTreeMap<String, Shape>>,
) -> Result<BTreeMap<String, Corridor>, Diagnostic> {
    let Some(section) = enabled_corridors(root) else {
        return Ok(BTreeMap::new());
    };
    let offsets: Vec<i32> = items(get(section, "offsets"))
        .iter()
        .filter_map(|n| int(Some(n)))
        .collect();
    let set_names = names(get(section, "corridorShapes"), "setName");
    if set_names.is_empty() {
        return Err(err(
            graph,
            "`corridors` is enabled but names no `corridorShapes` set",
        ));
    }
    let mut out = BTreeMap::new();
    for set in &set_names {
        let Some(shapes) = sets.get(set) else {
            return Err(err(
                graph,
                format!(
                    "the corridor set `{set}` is in none of the room sets given; pass its file too, or import without corridors (`--no-corridors`)"
                ),
            ));
        };
        for (name, shape) in shapes {
            let corridor = Corridor::of(name, shape).map_err(|m| err(graph, m))?;
            if offsets.is_empty() || offsets.contains(&corridor.length) {
                out.insert(name.clone(), corridor);
            }
        }
    }
    if out.is_empty() {
        return Err(err(
            graph,
            format!(
                "no corridor shape of the sets {} is as long as an offset of {offsets:?}",
                set_names.join(", ")
            ),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(outline: &[Tile], doors: &[[Tile; 2]]) -> Shape {
        Shape {
            outline: outline.to_vec(),
            door_length: 1,
            corner_distance: 1,
            doors: doors.to_vec(),
        }
    }

    #[test]
    fn a_bent_corridor_takes_four_turns_with_its_doors_at_its_ends() {
        // Edgar's `2-l-shape`: floor (0,0), (0,1), (1,1); a door below
        // (0,0) in Edgar's corners (above it here, `y` growing down) and
        // one right of (1,1).
        let l = shape(
            &[(0, 0), (0, 2), (2, 2), (2, 1), (1, 1), (1, 0)],
            &[[(0, 0), (1, 0)], [(2, 1), (2, 2)]],
        );
        let c = Corridor::of("l", &l).expect("a corridor");
        assert_eq!((c.width, c.length), (1, 3));
        assert_eq!(
            c.body(),
            "    art: |\n      ###~\n      #.##\n      #..#\n      ####\n    exits:\n      d0: { at: [1, 0], dir: north, width: 1 }\n      d1: { at: [3, 2], dir: east, width: 1 }\n"
        );
        // Its exits lie just outside its floor.
        for (tiles, out) in &c.doors {
            let (dx, dy) = out.delta();
            for t in tiles {
                assert!(c.floor.contains(t));
                assert!(!c.floor.contains(&(t.0 + dx, t.1 + dy)));
            }
        }
        // The loader keeps all four turns, each with its exits outside
        // its floor (a valid room).
        let turns = loaded(&c);
        assert_eq!(turns.len(), 4, "{turns:?}");
        assert!(turns.iter().all(|t| t.exits.len() == 2));
    }

    /// The templates the room loader makes of `c`'s template: its distinct
    /// turns.
    fn loaded(c: &Corridor) -> Vec<crate::rooms::RoomTemplate> {
        let text = format!("rooms:\n{}", c.template("c", "t"));
        let (templates, problems) = crate::rooms::load_room_file(&SourceFile::new("c.yaml", text));
        assert!(problems.is_empty(), "{problems:?}");
        templates
    }

    #[test]
    fn a_straight_corridor_has_two_turns_and_a_rectangle_without_doors_opens_its_short_ends() {
        let square = shape(
            &[(0, 0), (0, 2), (2, 2), (2, 0)],
            &[[(0, 0), (2, 0)], [(0, 2), (2, 2)]],
        );
        let c = Corridor::of("sq", &square).expect("a corridor");
        assert_eq!((c.width, c.length), (2, 2));
        assert_eq!(
            loaded(&c).len(),
            2,
            "turned twice, a straight corridor is itself"
        );
        let long = shape(&[(0, 0), (0, 1), (3, 1), (3, 0)], &[]);
        let c = Corridor::of("long", &long).expect("a corridor");
        assert_eq!((c.width, c.length), (1, 3));
        assert!(c.body().contains("dir: west") && c.body().contains("dir: east"));
    }

    #[test]
    fn a_door_off_the_floor_or_of_another_width_is_refused() {
        let square = [(0, 0), (0, 2), (2, 2), (2, 0)];
        let inside = shape(&square, &[[(0, 1), (2, 1)], [(0, 2), (2, 2)]]);
        assert!(
            Corridor::of("x", &inside)
                .unwrap_err()
                .contains("not on a side")
        );
        let widths = shape(&square, &[[(0, 0), (2, 0)], [(0, 2), (1, 2)]]);
        assert!(
            Corridor::of("x", &widths)
                .unwrap_err()
                .contains("differ in width")
        );
        let far = shape(&square, &[[(i32::MIN, 0), (i32::MAX, 0)], [(0, 2), (2, 2)]]);
        assert!(
            Corridor::of("x", &far)
                .unwrap_err()
                .contains("not on a side")
        );
        let one = shape(&square, &[[(0, 0), (2, 0)]]);
        assert!(Corridor::of("x", &one).unwrap_err().contains("1 door"));
        let bent = shape(&[(0, 0), (0, 2), (2, 2), (2, 1), (1, 1), (1, 0)], &[]);
        assert!(
            Corridor::of("x", &bent)
                .unwrap_err()
                .contains("not a rectangle")
        );
    }
}

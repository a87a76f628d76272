//! Edgar's corridor rooms: the shapes of an enabled `corridors:` section
//! become connector templates, each in the four turns Edgar lets it take.
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
use crate::rooms::MAX_SIDE;
use crate::yaml::Node;

/// A tile, or a step between tiles, as `(x, y)` with `y` growing down.
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
    /// Its doors: the floor tiles behind each, and the step out of it.
    doors: Vec<(Vec<Tile>, Tile)>,
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

    /// This corridor turned a quarter clockwise (on a grid whose `y` grows
    /// down), moved back to start at (0, 0).
    fn turned(&self) -> Self {
        let turn = |(x, y): Tile| (-y, x);
        let floor: Vec<Tile> = self.floor.iter().map(|&t| turn(t)).collect();
        let x0 = floor.iter().map(|t| t.0).min().unwrap_or(0);
        let y0 = floor.iter().map(|t| t.1).min().unwrap_or(0);
        let moved = |t: Tile| {
            let (x, y) = turn(t);
            (x - x0, y - y0)
        };
        Self {
            width: self.width,
            length: self.length,
            floor: self.floor.iter().map(|&t| moved(t)).collect(),
            doors: self
                .doors
                .iter()
                .map(|(tiles, out)| (tiles.iter().map(|&t| moved(t)).collect(), turn(*out)))
                .collect(),
        }
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
        // In tile order, so that turns drawing the same template compare
        // equal.
        let mut exits: Vec<(Tile, &str, usize)> = self
            .doors
            .iter()
            .map(|(tiles, (ox, oy))| {
                let (x, y) = tiles
                    .iter()
                    .map(|&(x, y)| (x + 1 + ox, y + 1 + oy))
                    .min()
                    .unwrap_or_default();
                let dir = match (ox, oy) {
                    (0, -1) => "north",
                    (0, 1) => "south",
                    (-1, 0) => "west",
                    _ => "east",
                };
                ((y, x), dir, tiles.len())
            })
            .collect();
        exits.sort();
        for (i, ((y, x), dir, width)) in exits.into_iter().enumerate() {
            let _ = writeln!(
                art,
                "      d{i}: {{ at: [{x}, {y}], dir: {dir}, width: {width} }}"
            );
        }
        art
    }

    /// The connector templates of this corridor named `base`, tagged
    /// `tag`: one per distinct turn (Edgar turns corridor rooms the four
    /// ways; a straight one has two distinct turns, a square one may have
    /// one).
    pub fn templates(&self, base: &str, tag: &str) -> String {
        let mut bodies: Vec<String> = Vec::new();
        let mut turn = self.clone();
        for _ in 0..4 {
            let body = turn.body();
            if !bodies.contains(&body) {
                bodies.push(body);
            }
            turn = turn.turned();
        }
        bodies
            .iter()
            .enumerate()
            .map(|(i, body)| {
                format!("  - name: {base}_{i}\n    category: connector\n    tags: [{tag}]\n{body}")
            })
            .collect()
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
/// and not floor, along its whole length) and the step out through it.
fn door(floor: &BTreeSet<Tile>, [a, b]: [Tile; 2]) -> Option<(Vec<Tile>, Tile)> {
    // Off the art's ground (corners are within 0..=MAX_SIDE): on no side.
    let side = MAX_SIDE as i32;
    if [a.0, a.1, b.0, b.1].iter().any(|c| !(0..=side).contains(c)) {
        return None;
    }
    let (along, lo, hi) = if a.1 == b.1 && a.0 != b.0 {
        (true, a.0.min(b.0), a.0.max(b.0))
    } else if a.0 == b.0 && a.1 != b.1 {
        (false, a.1.min(b.1), a.1.max(b.1))
    } else {
        return None;
    };
    // The tiles on either side of the segment: after it (x or y as the
    // segment's), and before it (one less).
    let line = if along { a.1 } else { a.0 };
    let at = |k: i32, side: i32| {
        if along {
            (k, line + side)
        } else {
            (line + side, k)
        }
    };
    let step = |out: i32| if along { (0, out) } else { (out, 0) };
    for (inner, outer, out) in [(0, -1, -1), (-1, 0, 1)] {
        let tiles: Vec<Tile> = (lo..hi).map(|k| at(k, inner)).collect();
        if tiles.iter().all(|t| floor.contains(t))
            && (lo..hi).all(|k| !floor.contains(&at(k, outer)))
        {
            return Some((tiles, step(out)));
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
        let all = c.templates("l", "t");
        assert_eq!(all.matches("- name: l_").count(), 4, "{all}");
        // Each turn's exits still lie just outside its floor.
        let mut turn = c.clone();
        for _ in 0..4 {
            for (tiles, out) in &turn.doors {
                for t in tiles {
                    assert!(turn.floor.contains(t));
                    assert!(!turn.floor.contains(&(t.0 + out.0, t.1 + out.1)));
                }
            }
            turn = turn.turned();
        }
        assert_eq!(turn, c, "four quarter turns give the shape back");
    }

    #[test]
    fn a_straight_corridor_has_two_turns_and_a_rectangle_without_doors_opens_its_short_ends() {
        let square = shape(
            &[(0, 0), (0, 2), (2, 2), (2, 0)],
            &[[(0, 0), (2, 0)], [(0, 2), (2, 2)]],
        );
        let c = Corridor::of("sq", &square).expect("a corridor");
        assert_eq!((c.width, c.length), (2, 2));
        assert_eq!(c.templates("sq", "t").matches("- name:").count(), 2);
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

//! Rotated and mirrored variants of a template (`transforms:`), made at
//! load time: art, exits and markers moved together.

use super::art::DOORWAY;
use super::model::{Exit, ExitKind, RoomTemplate, TemplateMarker, Tile, Transform, Variant};
use crate::geom::Pos;

/// `template` as drawn, followed by its variants under `transforms`. A
/// variant whose tiles, exits and markers equal those of one before it (a
/// symmetric room turned onto itself) is left out. The template's weight
/// is shared among the versions kept, so transforms never make a template
/// more likely to be chosen than one drawn once.
pub fn with_variants(template: RoomTemplate, transforms: &[Transform]) -> Vec<RoomTemplate> {
    let mut out = vec![template];
    for &t in transforms {
        let variant = transformed(&out[0], t);
        if !out.iter().any(|kept| same_room(kept, &variant)) {
            out.push(variant);
        }
    }
    let share = out[0].weight / out.len() as f64;
    for t in &mut out {
        t.weight = share;
    }
    out
}

/// `template` under `t`, named `name@transform`.
pub fn transformed(template: &RoomTemplate, t: Transform) -> RoomTemplate {
    let (w, h) = (template.width, template.height);
    let (nw, nh) = t.size(w, h);
    let mut tiles = vec![Tile::Void; (nw * nh) as usize];
    for y in 0..h {
        for x in 0..w {
            let p = t.apply(Pos::new(x, y), w, h);
            tiles[(p.y * nw + p.x) as usize] = template.tile(Pos::new(x, y));
        }
    }
    let exits = template
        .exits
        .iter()
        .map(|e| {
            let mut cells: Vec<Pos> = e.cells.iter().map(|&c| t.apply(c, w, h)).collect();
            // In order along the wall, as drawn exits are.
            cells.sort_by_key(|c| (c.y, c.x));
            // A door position of no name is named after its place.
            let name = if e.name.starts_with(DOORWAY) {
                format!("{DOORWAY}{},{}", cells[0].x, cells[0].y)
            } else {
                e.name.clone()
            };
            Exit {
                name,
                cells,
                dir: t.turn(e.dir),
                ..e.clone()
            }
        })
        .collect();
    let markers = template
        .markers
        .iter()
        .map(|m| TemplateMarker {
            at: t.apply(m.at, w, h),
            ..m.clone()
        })
        .collect();
    RoomTemplate {
        name: format!("{}@{}", template.name, t.name()),
        width: nw,
        height: nh,
        tiles,
        exits,
        markers,
        variant: Some(Variant {
            base: template.name.clone(),
            transform: t,
        }),
        ..template.clone()
    }
}

/// Whether two versions of a template are the same room for the layout
/// and the game: tiles, exits (cells, facing, kind and group; not their
/// names) and markers.
fn same_room(a: &RoomTemplate, b: &RoomTemplate) -> bool {
    type ExitKey = (Vec<Pos>, crate::geom::Dir, ExitKind, Option<String>);
    let exits = |t: &RoomTemplate| {
        let mut e: Vec<ExitKey> = t
            .exits
            .iter()
            .map(|x| (x.cells.clone(), x.dir, x.kind, x.group.clone()))
            .collect();
        e.sort_by_key(|(cells, ..)| cells.first().map(|c| (c.y, c.x)));
        e
    };
    (a.width, a.height) == (b.width, b.height)
        && a.tiles == b.tiles
        && exits(a) == exits(b)
        && a.markers == b.markers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::geom::Dir;
    use crate::rooms::load_room_file;

    fn template(text: &str) -> RoomTemplate {
        let (mut t, d) = load_room_file(&SourceFile::new("t.yaml", text));
        assert!(d.is_empty(), "{d:?}");
        t.remove(0)
    }

    /// The art of a template as rows (exits as `+`, markers as `m`).
    fn rows(t: &RoomTemplate) -> Vec<String> {
        (0..t.height)
            .map(|y| {
                (0..t.width)
                    .map(|x| {
                        let p = Pos::new(x, y);
                        if t.exits.iter().any(|e| e.cells.contains(&p)) {
                            '+'
                        } else if t.markers.iter().any(|m| m.at == p) {
                            'm'
                        } else {
                            match t.tile(p) {
                                Tile::Void => '~',
                                Tile::Wall => '#',
                                Tile::Floor => '.',
                                Tile::Pillar => 'o',
                                Tile::Pit => '^',
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    const L_ROOM: &str = "name: l_room\ncategory: normal\nlegend:\n  e: { marker: enemy }\nart: |\n  ##AA#~~\n  #e..#~~\n  #...###\n  #.o...B\n  #######\n";

    #[test]
    fn a_quarter_turn_moves_tiles_exits_and_markers_together() {
        let t = template(L_ROOM);
        let r = transformed(&t, Transform::Rotate90);
        assert_eq!((r.width, r.height), (5, 7));
        assert_eq!(
            rows(&r),
            [
                "#####", "#..m#", "#o..+", "#...+", "#.###", "#.#~~", "#+#~~"
            ]
        );
        let a = r.exits.iter().find(|e| e.name == "A").expect("A");
        assert_eq!(a.dir, Dir::East);
        assert_eq!(a.cells, [Pos::new(4, 2), Pos::new(4, 3)], "along the wall");
        let b = r.exits.iter().find(|e| e.name == "B").expect("B");
        assert_eq!(b.dir, Dir::South);
        assert_eq!(r.name, "l_room@rotate90");
        assert_eq!(r.base_name(), "l_room");
    }

    #[test]
    fn every_transform_keeps_a_valid_room_and_four_quarter_turns_return() {
        let t = template(L_ROOM);
        for tr in Transform::ALL {
            let v = transformed(&t, tr);
            // Each exit still faces out of the room: its outside is void,
            // its inside floor.
            for e in &v.exits {
                for &c in &e.cells {
                    assert_eq!(v.tile(c.step(e.dir)), Tile::Void, "{tr:?} {}", e.name);
                    assert!(
                        v.tile(c.step(e.dir.opposite())).is_inside(),
                        "{tr:?} {}",
                        e.name
                    );
                }
            }
            for m in &v.markers {
                assert_eq!(v.tile(m.at), Tile::Floor, "{tr:?}");
            }
            assert_eq!(v.floor_area(), t.floor_area());
        }
        let mut turned = t.clone();
        for _ in 0..4 {
            turned = transformed(&turned, Transform::Rotate90);
        }
        assert_eq!(rows(&turned), rows(&t));
        let twice = transformed(&transformed(&t, Transform::MirrorX), Transform::MirrorX);
        assert_eq!(rows(&twice), rows(&t));
    }

    #[test]
    fn a_symmetric_room_keeps_only_its_distinct_variants_and_its_weight() {
        let square = template(
            "name: sq\ncategory: normal\nweight: 3\nart: |\n  ##A##\n  #...#\n  D...B\n  #...#\n  ##C##\n",
        );
        // Every turn and mirror of a square with a door in the middle of
        // each side is the same room (the doors' letters aside).
        let all = with_variants(square, &Transform::ALL);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].weight, 3.0);
        // With its north door for entering only, the turns differ; the
        // mirrors repeat a turn.
        let keyed = template(
            "name: sq\ncategory: normal\nart: |\n  ##A##\n  #...#\n  D...B\n  #...#\n  ##C##\nexits:\n  A: { kind: entrance_only }\n",
        );
        let all = with_variants(keyed, &Transform::ALL);
        let dirs: Vec<Dir> = all
            .iter()
            .map(|t| {
                t.exits
                    .iter()
                    .find(|e| e.kind == ExitKind::EntranceOnly)
                    .expect("A")
                    .dir
            })
            .collect();
        assert_eq!(dirs, [Dir::North, Dir::East, Dir::South, Dir::West]);
        let l = with_variants(template(L_ROOM), &Transform::ALL);
        assert_eq!(l.len(), 6);
        let total: f64 = l.iter().map(|t| t.weight).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
    }
}

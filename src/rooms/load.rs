//! Decoding room template files.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::art::{Art, DEFAULT_LEGEND, DOORWAY, LegendEntry, check_exits_reachable, parse_art};
use super::model::{Exit, ExitKind, Origin, RoomTemplate, TemplateMarker, Tile, Transform};
use super::transform::with_variants;
use crate::category::check_category_spelling;
use crate::diag::{Diagnostic, SourceFile};
use crate::geom::{Dir, Pos};
use crate::properties::decode_properties;
use crate::yaml::{Decoder, Fields, Node, Value, parse};

/// Fields of a room template.
pub(crate) const ROOM_FIELDS: &[&str] = &[
    "name",
    "category",
    "tags",
    "weight",
    "legend",
    "art",
    "exits",
    "properties",
    "transforms",
];
/// Fields of a `legend:` entry written as a mapping (a marker).
pub(crate) const LEGEND_ENTRY_FIELDS: &[&str] = &["marker", "tile", "properties"];
/// Fields of a room file holding several templates.
pub(crate) const ROOM_LIST_FIELDS: &[&str] = &["rooms"];
/// Fields of an exit under `exits:`.
pub(crate) const EXIT_FIELDS: &[&str] = &["group", "kind", "at", "dir", "width"];
/// Tile kinds a `legend:` character may stand for.
pub(crate) const TILE_NAMES: &[&str] = &["void", "wall", "floor", "pillar", "pit"];
/// Values of an exit's `dir:`.
pub(crate) const DIRECTIONS: &[&str] = &["north", "east", "south", "west"];

/// Loads every template of one room file: a single template, or `rooms:` with a list.
///
/// Returns the templates that decoded cleanly and every diagnostic found.
pub fn load_room_file(file: &Arc<SourceFile>) -> (Vec<RoomTemplate>, Vec<Diagnostic>) {
    let root = match parse(file) {
        Ok(root) => root,
        Err(diag) => return (Vec::new(), vec![diag]),
    };
    let mut d = Decoder::new(file);
    let mut out = Vec::new();
    if let Some(mut fields) = d.map(&root, "a room file") {
        if let Some(list) = fields.get("rooms") {
            fields.finish(&mut d, "a room file with `rooms:`", ROOM_LIST_FIELDS);
            for item in d.list(list, "`rooms`") {
                if let Some((t, transforms)) = decode_template(&mut d, item) {
                    out.extend(with_variants(t, &transforms));
                }
            }
        } else if let Some((t, transforms)) = decode_fields(&mut d, fields) {
            out.extend(with_variants(t, &transforms));
        }
    }
    (out, d.diags)
}

fn decode_template(d: &mut Decoder, node: &Node) -> Option<(RoomTemplate, Vec<Transform>)> {
    let fields = d.map(node, "a room template")?;
    decode_fields(d, fields)
}

/// A template and the transforms its variants are made by.
fn decode_fields(d: &mut Decoder, mut f: Fields) -> Option<(RoomTemplate, Vec<Transform>)> {
    let errors_before = d.diags.iter().filter(|x| x.is_error()).count();
    let name = f
        .require(d, "name", "the room template")
        .and_then(|n| d.name(n, "`name`"));
    if let Some(name) = &name {
        check_identifier(d, &name.value, name.span.clone(), "template name");
    }
    let category = f
        .require(d, "category", "the room template")
        .and_then(|n| d.string(n, "`category`"));
    if let Some(c) = &category {
        check_category_spelling(d, c);
    }
    let tags = f.get("tags").map_or_else(Vec::new, |n| {
        d.list(n, "`tags`")
            .into_iter()
            .filter_map(|t| d.name(t, "a tag").map(|s| s.value))
            .collect()
    });
    let weight = f
        .get("weight")
        .map_or(Some(1.0), |n| d.weight(n, "`weight`").map(|w| w.value));
    let before_legend = d.diags.iter().filter(|x| x.is_error()).count();
    let legend = decode_legend(d, f.get("legend"));
    let legend_ok = d.diags.iter().filter(|x| x.is_error()).count() == before_legend;
    let properties = decode_properties(d, f.get("properties"), "the room template");
    let transforms = f
        .get("transforms")
        .map(|n| decode_transforms(d, n))
        .unwrap_or_default();
    let art_node = f.require(d, "art", "the room template");
    let exits_node = f.get("exits");
    f.finish(d, "a room template", ROOM_FIELDS);

    // A wrong legend entry stands in for its tiles: checking the art with it
    // would only report what follows from the mistake.
    let art = art_node.filter(|_| legend_ok).and_then(|n| {
        // The rows of a block cut short would give errors at the wrong line.
        if !art_block_whole(d, n.span.start) {
            return None;
        }
        let text = d.string(n, "`art`")?;
        parse_art(d, &text.value, n.span.clone(), &legend)
    })?;
    let exits = resolve_exits(d, &art, exits_node, f_span(art_node));
    check_exits_reachable(d, &art, &exits);
    let markers = art
        .marked
        .iter()
        .filter_map(|&(at, c)| {
            let (kind, properties) = legend.get(&c)?.marker.clone()?;
            Some(TemplateMarker {
                kind,
                at,
                properties,
            })
        })
        .collect();
    let failed = d.diags.iter().filter(|x| x.is_error()).count() > errors_before;
    let (name, category) = (name?, category?);
    if failed {
        return None;
    }
    let template = RoomTemplate {
        exit_counts: super::model::ExitCounts::of(&exits),
        name: name.value,
        category: category.value,
        tags,
        weight: weight?,
        width: art.width,
        height: art.height,
        tiles: art.tiles,
        exits,
        markers,
        properties,
        variant: None,
        origin: Origin {
            file: Arc::clone(&d.file),
            span: name.span,
        },
    };
    Some((template, transforms))
}

/// `transforms:`: a list of `rotate90`, `rotate180`, `rotate270`,
/// `mirror_x`, `mirror_y`, or `all` for every one. Each is kept once.
fn decode_transforms(d: &mut Decoder, node: &Node) -> Vec<Transform> {
    let names: Vec<&str> = Transform::ALL.iter().map(|t| t.name()).collect();
    if let Value::Str(s) = &node.value
        && s == "all"
    {
        return Transform::ALL.to_vec();
    }
    let mut out = Vec::new();
    for item in d.list(node, "`transforms` (a list, or `all`)") {
        if let Some(name) = d.one_of(item, "transform", &names)
            && let Some(t) = Transform::parse(&name.value)
            && !out.contains(&t)
        {
            out.push(t);
        }
    }
    out
}

/// Reports an art row indented less than the rows above it and starting
/// with `#` (a wall at the left edge), when more art follows it: YAML ends
/// the `art: |` block there and reads the row as a comment, so the art
/// loses its rows from there on and the errors that follow would point
/// at the wrong line. `start` is where the art's value starts (its `|`).
/// Returns whether the block is whole.
fn art_block_whole(d: &mut Decoder, start: usize) -> bool {
    let text = &d.file.text;
    let Some(first) = text[start..].find('\n').map(|i| start + i + 1) else {
        return true;
    };
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let mut lines = text[first..].split_inclusive('\n').scan(first, |at, line| {
        let here = *at;
        *at += line.len();
        Some((here, line.trim_end_matches(['\n', '\r'])))
    });
    let Some((_, row)) = lines.next() else {
        return true;
    };
    let block = indent(row);
    // The line that ends the block: the first below its indentation.
    let Some((at, line)) = lines.find(|(_, l)| !l.trim().is_empty() && indent(l) < block) else {
        return true;
    };
    let more_art = text[at + line.len()..]
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|next| indent(next) >= block && !next.trim_end().ends_with(':'));
    if !(line.trim_start().starts_with('#') && more_art) {
        return true;
    }
    d.error(
        "room::art-indent",
        at..at + line.len(),
        "this art row is indented less than the rows above it",
        "YAML ends the `art: |` block here and reads this row as a comment",
        format!("indent every row of the art by {block} spaces, like the first"),
    );
    false
}

fn f_span(n: Option<&Node>) -> std::ops::Range<usize> {
    n.map_or(0..0, |n| n.span.clone())
}

/// Template and exit names are identifiers: letters, digits, `_` and `-`.
fn check_identifier(d: &mut Decoder, name: &str, span: std::ops::Range<usize>, what: &str) {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !ok {
        d.error(
            "room::bad-name",
            span,
            format!("{what} `{name}` has characters other than letters, digits, `_` and `-`"),
            "invalid name",
            "use a name like `crypt_small_2`",
        );
    }
}

fn decode_legend(d: &mut Decoder, node: Option<&Node>) -> BTreeMap<char, LegendEntry> {
    let mut legend: BTreeMap<char, LegendEntry> = DEFAULT_LEGEND
        .into_iter()
        .map(|(c, t)| (c, t.into()))
        .collect();
    let Some(node) = node else { return legend };
    let Some(mut fields) = d.map(node, "`legend`") else {
        return legend;
    };
    for (k, v) in fields.rest() {
        let Some(key) = d.name(k, "a legend character") else {
            continue;
        };
        let mut chars = key.value.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            d.error(
                "room::bad-legend",
                k.span.clone(),
                format!("legend key `{}` is not a single character", key.value),
                "one character expected",
                "map one character to a tile kind, e.g. `'t': pillar`, or to a marker, e.g. `e: { marker: enemy }`",
            );
            continue;
        };
        if c.is_ascii_uppercase() || c == DOORWAY {
            d.error(
                "room::bad-legend",
                k.span.clone(),
                format!("legend key `{c}` marks exits"),
                "reserved for exits",
                "pick a lower-case letter or a symbol other than `+`",
            );
            continue;
        }
        let entry = if let Value::Map(_) = v.value {
            decode_marker_entry(d, c, v)
        } else {
            d.one_of(v, "tile kind", TILE_NAMES)
                .map(|kind| Tile::parse(&kind.value).unwrap_or(Tile::Void).into())
        };
        // A wrong entry is reported once, not again at each of its tiles.
        legend.insert(c, entry.unwrap_or_else(|| Tile::Wall.into()));
    }
    fields.finish(d, "`legend`", &[]);
    legend
}

/// A legend entry written as a mapping: `{ marker: KIND, tile: TILE,
/// properties: {...} }`, the tile `floor` unless given. A marker lies
/// inside the room or on its wall, never outside it (`void`).
fn decode_marker_entry(d: &mut Decoder, c: char, v: &Node) -> Option<LegendEntry> {
    let mut f = d.map(v, "a legend entry")?;
    let kind = f
        .require(d, "marker", "a legend entry written as a mapping")
        .and_then(|n| d.name(n, "`marker`"));
    if let Some(kind) = &kind {
        check_identifier(d, &kind.value, kind.span.clone(), "marker kind");
    }
    let tile = f.get("tile").map_or(Some(Tile::Floor), |n| {
        let name = d.one_of(n, "tile kind", TILE_NAMES)?;
        let tile = Tile::parse(&name.value).unwrap_or(Tile::Void);
        if tile == Tile::Void {
            d.error(
                "room::marker-outside",
                name.span,
                format!("the marker `{c}` stands on `void`, outside the room"),
                "not part of the room",
                "put a marker on `floor` (the default), `pillar`, `pit` or `wall`",
            );
            return None;
        }
        Some(tile)
    });
    let properties = decode_properties(d, f.get("properties"), &format!("marker `{c}`"));
    f.finish(d, "a legend entry", LEGEND_ENTRY_FIELDS);
    Some(LegendEntry {
        tile: tile?,
        marker: Some((kind?.value, properties)),
    })
}

/// Builds the exit list from the art's letters and the `exits:` section.
fn resolve_exits(
    d: &mut Decoder,
    art: &Art,
    node: Option<&Node>,
    art_span: std::ops::Range<usize>,
) -> Vec<Exit> {
    let mut specs: BTreeMap<String, (&Node, &Node)> = BTreeMap::new();
    if let Some(node) = node
        && let Some(mut fields) = d.map(node, "`exits`")
    {
        for (k, v) in fields.rest() {
            if let Some(name) = d.name(k, "an exit name") {
                specs.insert(name.value, (k, v));
            }
        }
    }
    let mut exits = Vec::new();
    for (&letter, cells) in &art.letters {
        let spec = specs.remove(&letter.to_string());
        let what = format!("exit `{letter}`");
        if let Some(exit) = art_exit(d, art, (letter.to_string(), what), cells, spec) {
            exits.push(exit);
        }
    }
    for &cell in &art.doorways {
        let name = format!("{DOORWAY}{},{}", cell.x, cell.y);
        let what = format!(
            "the door position `{DOORWAY}` at column {}, row {}",
            cell.x + 1,
            cell.y + 1
        );
        if let Some(exit) = art_exit(d, art, (name, what), &[cell], None) {
            exits.push(exit);
        }
    }
    for (name, (k, v)) in specs {
        if let Some(exit) = explicit_exit(d, art, name, k, v) {
            exits.push(exit);
        }
    }
    if exits.is_empty() && !d.has_errors() {
        d.error(
            "room::no-exits",
            art_span,
            "the room has no exits",
            "no exit letters in this art",
            "mark at least one door in the wall with an upper-case letter, e.g. `#A#`, or `+` for a door position",
        );
    }
    exits
}

struct ExitAttrs {
    group: Option<String>,
    kind: ExitKind,
    dir: Option<(Dir, std::ops::Range<usize>)>,
    at: Option<(Pos, std::ops::Range<usize>)>,
    width: Option<u32>,
}

fn exit_attrs(d: &mut Decoder, node: &Node) -> ExitAttrs {
    let mut attrs = ExitAttrs {
        group: None,
        kind: ExitKind::Any,
        dir: None,
        at: None,
        width: None,
    };
    if matches!(node.value, Value::Null) {
        return attrs;
    }
    let Some(mut f) = d.map(node, "an exit") else {
        return attrs;
    };
    attrs.group = f
        .get("group")
        .and_then(|n| d.name(n, "`group`"))
        .map(|s| s.value);
    if let Some(n) = f.get("kind")
        && let Some(k) = d.one_of(n, "exit kind", &ExitKind::NAMES)
    {
        attrs.kind = ExitKind::parse(&k.value).unwrap_or(ExitKind::Any);
    }
    if let Some(n) = f.get("dir")
        && let Some(s) = d.one_of(n, "direction", DIRECTIONS)
    {
        attrs.dir = Dir::parse(&s.value).map(|dir| (dir, n.span.clone()));
    }
    if let Some(n) = f.get("at") {
        let xy: Vec<_> = d.list(n, "`at`");
        match xy.as_slice() {
            [x, y] => {
                if let (Some(x), Some(y)) = (d.count(x, "x", 1000), d.count(y, "y", 1000)) {
                    attrs.at = Some((Pos::new(x.value as i32, y.value as i32), n.span.clone()));
                }
            }
            _ => d.error(
                "room::bad-exit",
                n.span.clone(),
                "`at` must be a pair [x, y]",
                "expected [x, y]",
                "write the exit's first tile as `at: [x, y]`, 0-based from the top-left",
            ),
        }
    }
    attrs.width = f
        .get("width")
        .and_then(|n| d.count(n, "`width`", 64))
        .map(|w| w.value);
    f.finish(d, "an exit", EXIT_FIELDS);
    attrs
}

/// The exit drawn at `cells`: `name` is its name, `what` how diagnostics
/// call it.
fn art_exit(
    d: &mut Decoder,
    art: &Art,
    (name, what): (String, String),
    cells: &[Pos],
    spec: Option<(&Node, &Node)>,
) -> Option<Exit> {
    let attrs = spec.map(|(_, v)| exit_attrs(d, v));
    let first = art.cell_span(cells[0]);
    let horizontal = cells.iter().all(|c| c.y == cells[0].y);
    let vertical = cells.iter().all(|c| c.x == cells[0].x);
    let contiguous = cells.windows(2).all(|w| w[0].manhattan(w[1]) == 1);
    if !(horizontal || vertical) || !contiguous {
        let other = cells
            .windows(2)
            .find(|w| w[0].manhattan(w[1]) != 1)
            .map(|w| w[1])
            .unwrap_or(cells[cells.len() - 1]);
        d.diags.push(
            Diagnostic::error(
                "room::exit-split",
                format!("{what} is not one straight run of tiles"),
            )
            .in_file(&d.file)
            .label(first.clone(), "first tile")
            .label(art.cell_span(other), "this tile is not next to the rest")
            .help("each letter marks one door; use another letter for another door"),
        );
        return None;
    }
    let dirs: Vec<Option<Dir>> = cells.iter().map(|&c| art.facing(c)).collect();
    let Some(dir) = dirs[0] else {
        d.error(
            "room::exit-not-on-boundary",
            first,
            format!("{what} is not on the room's outer wall"),
            "not a wall between floor and outside",
            "put exits in the outer wall, with floor on one side and the outside (`~` or the art's edge) on the other",
        );
        return None;
    };
    let along_ok = if matches!(dir, Dir::North | Dir::South) {
        horizontal
    } else {
        vertical
    };
    if dirs.iter().any(|x| *x != Some(dir)) || (cells.len() > 1 && !along_ok) {
        d.error(
            "room::exit-not-on-boundary",
            first,
            format!("{what} does not lie along one outer wall"),
            "bends around a corner or leaves the wall",
            "draw a wide exit as a straight run of the same letter along one wall",
        );
        return None;
    }
    let attrs = attrs.unwrap_or(ExitAttrs {
        group: None,
        kind: ExitKind::Any,
        dir: None,
        at: None,
        width: None,
    });
    if let Some((explicit, span)) = attrs.dir
        && explicit != dir
    {
        let code = if explicit == dir.opposite() {
            "room::exit-faces-inward"
        } else {
            "room::exit-direction"
        };
        d.error(
            code,
            span,
            format!(
                "{what} is declared facing {} but the art has it facing {}",
                explicit.name(),
                dir.name()
            ),
            "contradicts the art",
            format!(
                "remove `dir:` (it is derived from the art) or write `dir: {}`",
                dir.name()
            ),
        );
        return None;
    }
    Some(Exit {
        name,
        cells: cells.to_vec(),
        dir,
        group: attrs.group,
        kind: attrs.kind,
    })
}

fn explicit_exit(d: &mut Decoder, art: &Art, name: String, key: &Node, v: &Node) -> Option<Exit> {
    let attrs = exit_attrs(d, v);
    let Some((at, at_span)) = attrs.at else {
        d.error(
            "room::exit-not-in-art",
            key.span.clone(),
            format!("exit `{name}` is not drawn in the art and has no `at:`"),
            "no such exit",
            "draw the exit as a letter in the art, or give `at: [x, y]` and `dir:`",
        );
        return None;
    };
    let Some((dir, dir_span)) = attrs.dir else {
        d.error(
            "room::bad-exit",
            key.span.clone(),
            format!("exit `{name}` is placed with `at:` but has no `dir:`"),
            "direction missing",
            "add `dir: north|east|south|west`",
        );
        return None;
    };
    let width = attrs.width.unwrap_or(1).max(1) as i32;
    let step = if matches!(dir, Dir::North | Dir::South) {
        Dir::East
    } else {
        Dir::South
    };
    let (sx, sy) = step.delta();
    let cells: Vec<Pos> = (0..width)
        .map(|i| Pos::new(at.x + sx * i, at.y + sy * i))
        .collect();
    for &c in &cells {
        if art.tile(c) != Tile::Wall {
            d.error(
                "room::exit-not-on-boundary",
                at_span,
                format!(
                    "exit `{name}` covers column {}, row {}, which is not a wall tile",
                    c.x + 1,
                    c.y + 1
                ),
                "not on the wall",
                "an exit opens a tile of the outer wall",
            );
            return None;
        }
        if art.tile(c.step(dir)).is_inside() {
            d.error(
                "room::exit-faces-inward",
                dir_span,
                format!("exit `{name}` faces {}, into the room", dir.name()),
                "points at floor",
                format!(
                    "an exit faces out of the room: try `dir: {}`",
                    dir.opposite().name()
                ),
            );
            return None;
        }
        if art.facing(c) != Some(dir) {
            d.error(
                "room::exit-not-on-boundary",
                at_span,
                format!(
                    "exit `{name}` at column {}, row {} is not between floor and the outside",
                    c.x + 1,
                    c.y + 1
                ),
                "not on the outer wall",
                "an exit needs floor behind it and the outside in front of it",
            );
            return None;
        }
    }
    Some(Exit {
        name,
        cells,
        dir,
        group: attrs.group,
        kind: attrs.kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_doorway_is_a_one_tile_exit_facing_out_of_its_wall() {
        let file = SourceFile::new(
            "guard.yaml",
            "name: guard\ncategory: normal\nart: |\n  ##+#A#+#\n  +......#\n  #......+\n  ###+####\n",
        );
        let (templates, diags) = load_room_file(&file);
        assert!(diags.is_empty(), "{diags:?}");
        let exits = &templates[0].exits;
        let doorways: Vec<(Pos, Dir)> = exits
            .iter()
            .filter(|e| e.name.starts_with(DOORWAY))
            .map(|e| (e.cells[0], e.dir))
            .collect();
        assert_eq!(
            doorways,
            vec![
                (Pos::new(2, 0), Dir::North),
                (Pos::new(6, 0), Dir::North),
                (Pos::new(0, 1), Dir::West),
                (Pos::new(7, 2), Dir::East),
                (Pos::new(3, 3), Dir::South),
            ]
        );
        assert!(exits.iter().all(|e| e.width() == 1 && e.group.is_none()));
        assert_eq!(templates[0].exit_counts.any, 6, "five doorways and `A`");
    }
}

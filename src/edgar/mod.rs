//! Importing the benchmark inputs of Edgar (a published graph-based level
//! generator): its level graphs and room shapes become a flow and room
//! templates, so the same inputs can be measured here.
//!
//! * Each room shape (an orthogonal polygon in tile corners) becomes a
//!   template: the tiles inside the polygon, walls on its border. Its door
//!   mode becomes exits: `OverlapMode { doorLength, cornerDistance }` puts an
//!   exit of that width at every non-overlapping position along every side at
//!   least `cornerDistance` from a corner (Edgar also allows overlapping
//!   positions, which a template cannot hold).
//! * The graph's rooms become `normal` nodes (the first one the entrance),
//!   with a pool of the shapes allowed for them; passages become a spanning
//!   tree (breadth-first from the entrance) plus two-way loops. Shapes may
//!   repeat in a level, as in Edgar (`layout: { reuse_templates: true }`).

mod corridor;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;
use std::sync::Arc;

use crate::diag::{Diagnostic, SourceFile};
use crate::flow::MAX_EXPANDED_ROOMS;
use crate::rooms::MAX_SIDE;
use crate::yaml::{Node, Value, parse};
use corridor::corridor_shapes;

/// Widest door (`doorLength`) and farthest `cornerDistance` imported: both
/// count tiles along a side, which is at most [`MAX_SIDE`] long.
const MAX_DOOR: i32 = MAX_SIDE as i32;

/// A room shape: outline and door mode.
#[derive(Clone, Debug)]
struct Shape {
    outline: Vec<(i32, i32)>,
    door_length: i32,
    corner_distance: i32,
    /// Its listed door segments (`SpecificPositionsMode`), in tile corners.
    doors: Vec<[(i32, i32); 2]>,
}

/// The door segments `doorPositions: [[[x, y], [x, y]], ...]` of a door
/// mode, in tile corners (none for other modes).
fn door_segments(mode: Option<&Node>) -> Vec<[(i32, i32); 2]> {
    items(mode.and_then(|m| get(m, "doorPositions")))
        .iter()
        .filter_map(|seg| match items(Some(seg)) {
            [a, b] => match (items(Some(a)), items(Some(b))) {
                ([x1, y1], [x2, y2]) => Some([
                    (int(Some(x1))?, int(Some(y1))?),
                    (int(Some(x2))?, int(Some(y2))?),
                ]),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The graph's `corridors:` section, when it is enabled.
fn enabled_corridors(root: &Node) -> Option<&Node> {
    get(root, "corridors").filter(|section| {
        matches!(
            get(section, "enable").map(|n| &n.value),
            Some(Value::Bool(true))
        )
    })
}

/// A side of a shape: its name, outward step, and step along it.
type Side = (&'static str, (i32, i32), (i32, i32));

/// The imported flow and room files, as YAML text.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Name of the flow (the graph file's stem).
    pub name: String,
    /// The flow file.
    pub flow: String,
    /// One room file holding every shape (`rooms:` list).
    pub rooms: String,
    /// What the import left out of the graph (its corridors, when asked
    /// to); reported by the CLI.
    pub warnings: Vec<Diagnostic>,
}

impl Imported {
    /// The files of the import as `(folder, file name, text)`, in the
    /// project folder: `flows/NAME.yaml` and `rooms/NAME_rooms.yaml`.
    pub fn files(&self) -> [(&'static str, String, &str); 2] {
        [
            ("flows", format!("{}.yaml", self.name), &self.flow),
            ("rooms", format!("{}_rooms.yaml", self.name), &self.rooms),
        ]
    }

    /// The files of the import as project sources, named as in the
    /// project folder, for [`Project::from_layers`](crate::Project::from_layers).
    pub fn sources(&self) -> Vec<crate::project::Source> {
        use crate::project::{FileKind, Source};
        self.files()
            .into_iter()
            .map(|(dir, file, text)| Source {
                file: SourceFile::new(format!("{dir}/{file}"), text),
                kind: if dir == "rooms" {
                    FileKind::Room
                } else {
                    FileKind::Flow
                },
                bundled: false,
            })
            .collect()
    }
}

/// An error in the Edgar input `file`, named in the message (most point
/// at no line of it).
fn err(file: &Arc<SourceFile>, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error("edgar::format", format!("{}: {}", file.name, msg.into())).in_file(file)
}

fn get<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    match &node.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn int(node: Option<&Node>) -> Option<i32> {
    match node?.value {
        Value::Int(i) => i32::try_from(i).ok(),
        _ => None,
    }
}

fn items(node: Option<&Node>) -> &[Node] {
    match node.map(|n| &n.value) {
        Some(Value::Seq(v)) => v,
        _ => &[],
    }
}

/// The string `field` of each item of the sequence `node` (items without
/// it left out).
fn names(node: Option<&Node>, field: &str) -> Vec<String> {
    items(node)
        .iter()
        .filter_map(|s| match get(s, field).map(|n| &n.value) {
            Some(Value::Str(n)) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

/// Edgar writes per-room keys as flow sequences (`[1, 2]:`); quote them so
/// any YAML reader takes them as strings.
fn quote_sequence_keys(text: &str) -> String {
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            match (t.starts_with('['), t.find("]:")) {
                (true, Some(end)) => format!(
                    "{}\"{}\"{}",
                    &l[..l.len() - t.len()],
                    &t[..=end],
                    &t[end + 1..]
                ),
                _ => l.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn read_shapes(
    file: &Arc<SourceFile>,
    set: &Node,
    out: &mut BTreeMap<String, Shape>,
) -> Result<(), Diagnostic> {
    let mode = get(set, "default").and_then(|d| get(d, "doorMode"));
    let door_length = int(mode.and_then(|m| get(m, "doorLength")))
        .unwrap_or(1)
        .max(1);
    let corner_distance = int(mode.and_then(|m| get(m, "cornerDistance")))
        .unwrap_or(1)
        .max(0);
    if door_length > MAX_DOOR || corner_distance > MAX_DOOR {
        return Err(err(
            file,
            format!(
                "`doorLength` {door_length} or `cornerDistance` {corner_distance} is over {MAX_DOOR} tiles, the longest side of a room"
            ),
        ));
    }
    let Some(Value::Map(descs)) = get(set, "roomDescriptions").map(|n| &n.value) else {
        return Err(err(file, "no `roomDescriptions`"));
    };
    for (k, v) in descs {
        let Value::Str(name) = &k.value else { continue };
        let outline: Vec<(i32, i32)> = items(get(v, "shape"))
            .iter()
            .filter_map(|p| match items(Some(p)) {
                [x, y] => Some((int(Some(x))?, int(Some(y))?)),
                _ => None,
            })
            .collect();
        if outline.len() < 4 {
            return Err(err(
                file,
                format!("shape `{name}` has fewer than 4 corners"),
            ));
        }
        let side = MAX_SIDE as i32;
        if outline
            .iter()
            .any(|&(x, y)| !(0..=side).contains(&x) || !(0..=side).contains(&y))
        {
            return Err(err(
                file,
                format!(
                    "shape `{name}` has a corner outside 0..{side}: a room's art is at most {side}x{side} tiles, from (0, 0)"
                ),
            ));
        }
        let doors = door_segments(get(v, "doorMode"));
        out.insert(
            name.clone(),
            Shape {
                outline,
                door_length,
                corner_distance,
                doors,
            },
        );
    }
    Ok(())
}

/// Whether the centre of cell (x, y) lies inside the polygon.
fn inside(poly: &[(i32, i32)], x: i32, y: i32) -> bool {
    let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
    let mut c = false;
    for i in 0..poly.len() {
        let (x1, y1) = (f64::from(poly[i].0), f64::from(poly[i].1));
        let (x2, y2) = (
            f64::from(poly[(i + 1) % poly.len()].0),
            f64::from(poly[(i + 1) % poly.len()].1),
        );
        if (y1 > py) != (y2 > py) && px < (x2 - x1) * (py - y1) / (y2 - y1) + x1 {
            c = !c;
        }
    }
    c
}

/// The template YAML of one shape.
fn template(name: &str, category: &str, tag: &str, shape: &Shape) -> String {
    let (w, h) = (
        shape.outline.iter().map(|p| p.0).max().unwrap_or(0),
        shape.outline.iter().map(|p| p.1).max().unwrap_or(0),
    );
    let solid = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h && inside(&shape.outline, x, y);
    let wall = |x: i32, y: i32| {
        solid(x, y) && (-1..=1).any(|dy| (-1..=1).any(|dx| !solid(x + dx, y + dy)))
    };
    let floor = |x: i32, y: i32| solid(x, y) && !wall(x, y);
    let mut art = String::new();
    for y in 0..h {
        art += "      ";
        for x in 0..w {
            art.push(if !solid(x, y) {
                '~'
            } else if wall(x, y) {
                '#'
            } else {
                '.'
            });
        }
        art.push('\n');
    }
    // Exits: along each side, every non-overlapping run of door-length wall
    // tiles with floor behind and the outside in front, clear of corners. A
    // shape too small for its corner distance gets doors 1 tile from corners.
    let len = shape.door_length;
    let mut exits = String::new();
    for gap in [shape.corner_distance, 1] {
        exits = door_positions(w, h, len, gap, &solid, &wall, &floor);
        if !exits.is_empty() {
            break;
        }
    }
    format!(
        "  - name: {name}\n    category: {category}\n    tags: [{tag}]\n    art: |\n{art}    exits:\n{exits}"
    )
}

#[allow(clippy::too_many_arguments)]
fn door_positions(
    w: i32,
    h: i32,
    len: i32,
    gap: i32,
    solid: &dyn Fn(i32, i32) -> bool,
    wall: &dyn Fn(i32, i32) -> bool,
    floor: &dyn Fn(i32, i32) -> bool,
) -> String {
    let mut exits = String::new();
    let mut n = 0;
    let sides: [Side; 4] = [
        ("north", (0, -1), (1, 0)),
        ("south", (0, 1), (1, 0)),
        ("west", (-1, 0), (0, 1)),
        ("east", (1, 0), (0, 1)),
    ];
    for (dir, (ox, oy), (ax, ay)) in sides {
        let mut taken: BTreeSet<(i32, i32)> = BTreeSet::new();
        for y in 0..h {
            for x in 0..w {
                let run: Vec<(i32, i32)> = (0..len).map(|k| (x + ax * k, y + ay * k)).collect();
                let ok = run.iter().all(|&(cx, cy)| {
                    wall(cx, cy)
                        && !solid(cx + ox, cy + oy)
                        && floor(cx - ox, cy - oy)
                        && !taken.contains(&(cx, cy))
                });
                // Clear of corners: `gap` more wall tiles of the same side on both ends.
                let clear = (1..=gap).all(|k| {
                    let (bx, by) = (x - ax * k, y - ay * k);
                    let (ex, ey) = (x + ax * (len - 1 + k), y + ay * (len - 1 + k));
                    wall(bx, by)
                        && !solid(bx + ox, by + oy)
                        && wall(ex, ey)
                        && !solid(ex + ox, ey + oy)
                });
                if ok && clear {
                    taken.extend(run.iter().copied());
                    let _ = writeln!(
                        exits,
                        "      d{n}: {{ at: [{x}, {y}], dir: {dir}, width: {len} }}"
                    );
                    n += 1;
                }
            }
        }
    }
    exits
}

/// `s` as a double-quoted YAML string (JSON's escapes are YAML's).
fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Imports one Edgar graph with the room sets it may name, its corridors
/// included.
pub fn import(
    graph: &Arc<SourceFile>,
    room_sets: &[Arc<SourceFile>],
) -> Result<Imported, Diagnostic> {
    import_with(graph, room_sets, true)
}

/// Imports one Edgar graph with the room sets it may name; without
/// `corridors`, an enabled `corridors:` section is left out with the
/// warning `edgar::corridors-left-out` and every passage joins its rooms
/// directly.
pub fn import_with(
    graph: &Arc<SourceFile>,
    room_sets: &[Arc<SourceFile>],
    corridors: bool,
) -> Result<Imported, Diagnostic> {
    let name = slug(
        std::path::Path::new(&graph.name)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("edgar"),
    );
    let quoted = SourceFile::new(graph.name.clone(), quote_sequence_keys(&graph.text));
    let root = parse(&quoted)?;
    let mut sets: BTreeMap<String, BTreeMap<String, Shape>> = BTreeMap::new();
    for f in room_sets {
        let node = parse(f)?;
        let set_name = match get(&node, "name").map(|n| &n.value) {
            Some(Value::Str(s)) => s.clone(),
            _ => return Err(err(f, "room set has no `name`")),
        };
        read_shapes(f, &node, sets.entry(set_name).or_default())?;
    }
    if let Some(custom) = get(&root, "customRoomDescriptionsSet") {
        read_shapes(graph, custom, sets.entry("custom".to_owned()).or_default())?;
    }
    let range = get(&root, "roomsRange");
    let (from, to) = (
        int(range.and_then(|r| get(r, "from"))).unwrap_or(0),
        int(range.and_then(|r| get(r, "to"))).ok_or_else(|| err(graph, "no `roomsRange.to`"))?,
    );
    if from < 0 || to < from || i64::from(to) - i64::from(from) >= MAX_EXPANDED_ROOMS as i64 {
        return Err(err(
            graph,
            format!(
                "`roomsRange` {from}..{to} is not a range of 1 to {MAX_EXPANDED_ROOMS} rooms from 0 up"
            ),
        ));
    }
    // Every set the graph lists for its rooms; its own custom set when it
    // lists none.
    let mut default_sets: Vec<String> = names(get(&root, "defaultRoomShapes"), "setName");
    if default_sets.is_empty() {
        default_sets.push("custom".to_owned());
    }
    if let Some(missing) = default_sets.iter().find(|s| !sets.contains_key(*s)) {
        let known: Vec<&str> = sets.keys().map(String::as_str).collect();
        return Err(err(
            graph,
            format!(
                "the graph's room set `{missing}` is in none of the room sets given ({}); pass its file too",
                known.join(", ")
            ),
        ));
    }
    // A shape name resolves in the graph's default sets first (in the order
    // listed), then its own custom set, then any other set.
    let rank = |k: &str| {
        (
            default_sets
                .iter()
                .position(|d| d == k)
                .unwrap_or(usize::MAX),
            k != "custom",
        )
    };
    let mut order: Vec<&String> = sets.keys().collect();
    order.sort_by_key(|k| rank(k));
    let mut all: BTreeMap<String, Shape> = BTreeMap::new();
    for k in order.into_iter().rev() {
        all.extend(sets[k].iter().map(|(n, s)| (n.clone(), s.clone())));
    }
    let mut default_shapes: Vec<String> = Vec::new();
    for set in &default_sets {
        for shape in sets[set].keys() {
            if !default_shapes.contains(shape) {
                default_shapes.push(shape.clone());
            }
        }
    }
    // Per-room shape overrides.
    let mut allowed: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    if let Some(Value::Map(rooms)) = get(&root, "rooms").map(|n| &n.value) {
        for (k, v) in rooms {
            let Value::Str(key) = &k.value else { continue };
            let shapes: Vec<String> = names(get(v, "roomShapes"), "roomDescriptionName");
            for id in key
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .filter_map(|s| s.trim().parse::<i32>().ok())
            {
                allowed.insert(id, shapes.clone());
            }
        }
    }
    let mut edges: Vec<(i32, i32)> = Vec::new();
    for p in items(get(&root, "passages")) {
        if let [a, b] = items(Some(p)) {
            let (a, b) = (int(Some(a)).unwrap_or(-1), int(Some(b)).unwrap_or(-1));
            if ![a, b].iter().all(|r| (from..=to).contains(r)) {
                return Err(err(
                    graph,
                    format!("passage [{a}, {b}] names a room outside `roomsRange` {from}..{to}"),
                ));
            }
            edges.push((a, b));
        }
    }
    // Spanning tree from the first room; other passages close loops.
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    let (mut tree, mut loops) = (Vec::new(), Vec::new());
    let mut used = vec![false; edges.len()];
    while let Some(v) = queue.pop_front() {
        for (i, &(a, b)) in edges.iter().enumerate() {
            let w = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if used[i] || seen.contains(&w) {
                continue;
            }
            used[i] = true;
            seen.insert(w);
            tree.push((v, w));
            queue.push_back(w);
        }
    }
    for (i, &(a, b)) in edges.iter().enumerate() {
        if !used[i] {
            loops.push((a, b));
        }
    }
    // The name and the file's name are written as quoted YAML strings.
    let mut flow = format!(
        "name: {}\ndescription: {}\nlayout: {{ reuse_templates: true }}\nnodes:\n",
        yaml_string(&name),
        yaml_string(&format!(
            "Imported from Edgar's benchmark input {}.",
            graph.name
        ))
    );
    for r in from..=to {
        let shapes = allowed.get(&r).unwrap_or(&default_shapes);
        if shapes.is_empty() {
            // An empty pool would let `generate` fall back to other rooms.
            return Err(err(
                graph,
                format!(
                    "room {r} has no room shape: its sets ({}) or its `roomShapes` are empty",
                    default_sets.join(", ")
                ),
            ));
        }
        let pool: Vec<String> = shapes
            .iter()
            .map(|s| format!("{}_{}", slug(&name), slug(s)))
            .collect();
        let category = if r == from { "entrance" } else { "normal" };
        let _ = writeln!(
            flow,
            "  r{r}: {{ category: {category}, pool: [{}] }}",
            pool.join(", ")
        );
    }
    let mut warnings = Vec::new();
    let corridors = if corridors {
        corridor_shapes(graph, &root, &sets)?
    } else {
        if let Some(section) = enabled_corridors(&root) {
            warnings.push(
                Diagnostic::warning(
                    "edgar::corridors-left-out",
                    "the graph's corridors are left out (`--no-corridors`): each passage joins its rooms directly",
                )
                // Spans are of the text as read, keys quoted.
                .in_file(&quoted)
                .label(section.span.clone(), "left out"),
            );
        }
        BTreeMap::new()
    };
    let corridor_tag = format!("{}_corridor", slug(&name));
    if !corridors.is_empty() {
        // A corridor room between the two rooms of every passage.
        for (a, b) in tree.iter().chain(&loops) {
            let _ = writeln!(
                flow,
                "  c{a}_{b}: {{ category: connector, pool: [{corridor_tag}] }}"
            );
        }
    }
    // With corridors, a passage's corridor room hangs from its first room
    // and the link to its second is the tree edge or the loop edge.
    let mut edges: Vec<String> = Vec::new();
    let mut closing: Vec<String> = Vec::new();
    for (i, (a, b)) in tree.iter().chain(&loops).enumerate() {
        let from = if corridors.is_empty() {
            format!("r{a}")
        } else {
            edges.push(format!("r{a} -> c{a}_{b}"));
            format!("c{a}_{b}")
        };
        if i < tree.len() {
            edges.push(format!("{from} -> r{b}"));
        } else {
            closing.push(format!("{from} <-> r{b}"));
        }
    }
    flow += "edges:\n";
    for e in &edges {
        let _ = writeln!(flow, "  - {e}");
    }
    if !closing.is_empty() {
        flow += "loops:\n";
        for e in &closing {
            let _ = writeln!(flow, "  - {e}");
        }
    }
    let mut rooms = String::from("rooms:\n");
    let used_shapes: BTreeSet<&String> = (from..=to)
        .flat_map(|r| allowed.get(&r).unwrap_or(&default_shapes))
        .collect();
    let door_lengths: BTreeSet<i32> = used_shapes
        .iter()
        .filter_map(|s| all.get(*s).map(|shape| shape.door_length))
        .collect();
    for (shape_name, corridor) in &corridors {
        let width = &corridor.width;
        if !door_lengths.contains(width) {
            warnings.push(
                Diagnostic::warning(
                    "edgar::corridor-width",
                    format!(
                        "corridor shape `{shape_name}` is {width} tiles wide, but the rooms' doors are {} wide: a corridor joins only doors of its width",
                        door_lengths.iter().map(i32::to_string).collect::<Vec<_>>().join(" or ")
                    ),
                )
                .in_file(&quoted),
            );
        }
    }
    for s in used_shapes {
        let shape = all.get(s).ok_or_else(|| {
            err(
                graph,
                format!("shape `{s}` is not defined in the given room sets"),
            )
        })?;
        let base = format!("{}_{}", slug(&name), slug(s));
        rooms += &template(&base, "normal", &base, shape);
        rooms += &template(&format!("{base}_entrance"), "entrance", &base, shape);
    }
    for (shape_name, corridor) in &corridors {
        let base = format!("{corridor_tag}_{}", slug(shape_name));
        rooms += &corridor.template(&base, &corridor_tag);
    }
    Ok(Imported {
        name,
        flow,
        rooms,
        warnings,
    })
}

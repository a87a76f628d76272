//! JSON Schemas of the flow and room file formats, for editor support
//! (`dungeonflow schema flow|room`).
//!
//! The decoders read a spanned YAML tree by hand (see [`crate::yaml`]), so the
//! schemas cannot be derived from the model types: they are written here as
//! data, in JSON Schema draft-07 (the draft the VS Code YAML extension,
//! yaml-language-server, supports best), and built from the decoders' own
//! lists of accepted names. The unit tests below check that every closed
//! object of a schema has exactly the fields its decoder knows.
//!
//! Patterns carry `patternErrorMessage`, an extension of yaml-language-server
//! (other validators ignore it), so that the editor explains a malformed edge,
//! rule or range in words.
//!
//! A schema checks the shape of one file: fields, types, ranges and names. What
//! needs the whole project (undefined nodes, unknown templates or pools, the
//! geometry of the art) is left to `dungeonflow validate`.

use serde_json::{Map, Value, json};

use crate::category::BUILTIN;
use crate::flow::{self, CHAIN_LETTERS, Generator, Placement};
use crate::rooms::{self, ExitKind};

/// The draft both schemas declare in `$schema`.
pub const DRAFT: &str = "http://json-schema.org/draft-07/schema#";

/// The generators configured by `params:`, each with the definition of its parameters.
const GENERATOR_PARAMS: [(&str, &str); 3] = [
    ("isaac", "isaac_params"),
    ("scatter", "scatter_params"),
    ("nested_puzzle", "nested_params"),
];

/// The JSON Schema of a flow file (`flows/*.yaml`).
pub fn flow_schema() -> Value {
    json!({
        "$schema": DRAFT,
        "title": "dungeonflow flow",
        "description": "A directed tree of abstract rooms rooted at the entrance, plus loop edges; or, with `generator:`, the parameters of another generator. Reference: docs/formats.md.",
        "type": "object",
        "properties": {
            "name": name("Unique name of the flow: the name used on the command line."),
            "description": string("What the flow is about."),
            "stage": whole("The stage (floor) the flow belongs to.", 0, 1000),
            "tags": names("Tags of the flow."),
            "weight": with_default(weight("Relative weight when a stage picks one of its flows. Default 1."), json!(1)),
            "generator": with_default(
                one_of("The generator: `flow` (a flow graph, the default), or `isaac`, `scatter` or `nested_puzzle` configured by `params:` (such a file has no `nodes`/`edges`).", &Generator::NAMES),
                json!("flow"),
            ),
            "params": {
                "description": "Parameters of the `isaac`, `scatter` or `nested_puzzle` generator; not used by flow graphs.",
                "type": "object",
            },
            "categories": names(&format!("Room categories of your own, besides the built-in ones ({}).", BUILTIN.join(", "))),
            "nodes": {
                "description": "The rooms of the flow: `id: category` or `id: { category, ... }`. Ids are letters, digits, `_`, `-` and `.`.",
                "type": "object",
                "propertyNames": {
                    "pattern": "^[^\\s!-,/:-@\\[-^`{-~]+$",
                    "patternErrorMessage": "A node id is one word of letters, digits, `_`, `-` and `.`.",
                },
                "additionalProperties": {
                    "anyOf": [
                        { "$ref": "#/definitions/node" },
                        category("A room of this category."),
                    ],
                },
            },
            "edges": list(
                "Tree edges, parent to child: paths `a -> b -> c` or mappings `{ from, to, door, lock }`. Every node but the entrance has exactly one parent.",
                json!({ "$ref": "#/definitions/edge" }),
            ),
            "loops": list(
                "Loop-closing edges: `a -> b` is one-way (from `a` to `b` only), `a <-> b` two-way; or `{ from, to, one_way, door, lock }`.",
                json!({ "$ref": "#/definitions/loop" }),
            ),
            "injections": list(
                "Rules that add rooms after the flow is expanded, and groups of them (`{ group, pick, entries }`).",
                json!({ "$ref": "#/definitions/injection_entry" }),
            ),
            "layout": {
                "description": "Layout settings.",
                "$ref": "#/definitions/layout",
            },
        },
        "required": ["name"],
        "additionalProperties": false,
        "allOf": generator_rules(),
        "definitions": {
            "node": node(),
            "edge": {
                "description": "A tree edge: a path `a -> b -> c` or a mapping.",
                "anyOf": [
                    {
                        "type": "string",
                        "pattern": "^\\s*[^\\s<>]+(\\s*->\\s*[^\\s<>]+)+\\s*$",
                        "patternErrorMessage": "Write a tree edge as `a -> b -> c`: node ids joined by `->` (`<->` is for loops).",
                    },
                    { "$ref": "#/definitions/edge_mapping" },
                ],
            },
            "loop": {
                "description": "A loop edge: `a -> b` (one-way), `a <-> b` (two-way) or a mapping.",
                "anyOf": [
                    {
                        "type": "string",
                        "pattern": "^\\s*[^\\s<>]+\\s*<?->\\s*[^\\s<>]+\\s*$",
                        "patternErrorMessage": "Write a loop as `a -> b` (one-way) or `a <-> b` (two-way), one per entry.",
                    },
                    { "$ref": "#/definitions/edge_mapping" },
                ],
            },
            "edge_mapping": edge_mapping(),
            "injection_entry": {
                "description": "An injection rule, or a group of rules (a mapping with `group:`).",
                "if": { "required": ["group"] },
                "then": { "$ref": "#/definitions/injection_group" },
                "else": { "$ref": "#/definitions/injection" },
            },
            "injection": injection(),
            "placement": placement(),
            "injection_group": injection_group(),
            "room_spec": room_spec(),
            "layout": layout(),
            "isaac_params": isaac_params(),
            "isaac_specials": isaac_specials(),
            "scatter_params": scatter_params(),
            "scatter_region": scatter_region(),
            "scatter_sizes": scatter_sizes(),
            "nested_params": nested_params(),
        },
    })
}

/// The JSON Schema of a room file (`rooms/*.yaml`): one template, or several
/// under `rooms:`.
pub fn room_schema() -> Value {
    json!({
        "$schema": DRAFT,
        "title": "dungeonflow room templates",
        "description": "One room template (tile art with exits), or several under `rooms:`. Reference: docs/formats.md.",
        "type": "object",
        "if": { "required": ["rooms"] },
        "then": { "$ref": "#/definitions/room_list" },
        "else": { "$ref": "#/definitions/room_template" },
        "definitions": {
            "room_list": {
                "title": "Room templates",
                "description": "Several templates in one file.",
                "type": "object",
                "properties": {
                    "rooms": list("The templates of this file.", json!({ "$ref": "#/definitions/room_template" })),
                },
                "additionalProperties": false,
            },
            "room_template": room_template(),
            "exit": exit(),
            "legend_marker": legend_marker(),
        },
    })
}

/// `params` of each generator, and the fields that only flow graphs may have.
fn generator_rules() -> Value {
    let mut rules: Vec<Value> = GENERATOR_PARAMS
        .iter()
        .map(|(generator, definition)| {
            json!({
                "if": { "properties": { "generator": { "const": generator } }, "required": ["generator"] },
                "then": { "properties": { "params": { "$ref": format!("#/definitions/{definition}") } } },
            })
        })
        .collect();
    let graph_only: Map<String, Value> = flow::GRAPH_ONLY
        .iter()
        .map(|key| ((*key).to_owned(), Value::Bool(false)))
        .collect();
    let others: Vec<&str> = GENERATOR_PARAMS.iter().map(|(g, _)| *g).collect();
    rules.push(json!({
        "if": { "properties": { "generator": { "enum": others } }, "required": ["generator"] },
        "then": { "properties": graph_only },
        "else": { "required": ["nodes"], "properties": { "params": false } },
    }));
    Value::Array(rules)
}

fn node() -> Value {
    let letters: String = CHAIN_LETTERS.iter().map(|(c, _)| *c).collect();
    let letter_names: Vec<String> = CHAIN_LETTERS
        .iter()
        .map(|(c, name)| format!("`{c}` {name}"))
        .collect();
    let letter_names = letter_names.join(", ");
    json!({
        "title": "Node",
        "description": "A room of the flow; with `chain:` a line of rooms, with `select:` a selector that keeps some of its children.",
        "type": "object",
        "properties": {
            "category": category("The room category (required, except for selectors and chains with rules, which default to `normal`)."),
            "template": name("An exact template name (default: chosen by category)."),
            "pool": names("Tags: the template must carry one of them (default: any)."),
            "chance": with_default(chance("Chance (0..=1) that the node and its sub-tree exist. Default 1."), json!(1)),
            "optional": with_default(boolean("Drop the node (and its sub-tree) instead of failing when no template fits. Default false."), json!(false)),
            "weight": with_default(weight("Weight when its parent is a selector. Default 1."), json!(1)),
            "door": with_default(one_of("Door on the edge from its parent. Default `open`.", flow::DOOR_KINDS), json!("open")),
            "lock": name("Shorthand for `door: locked` with this key id."),
            "keys": names("Keys placed in this room."),
            "chain": range(
                "The node is a line of rooms: length `N`, `MIN..MAX` or `[MIN, MAX]` (uniform), at most 64. Edges into a chain attach to its first room, edges out of it to its last room.",
                flow::MAX_CHAIN,
            ),
            "start": {
                "description": format!("Start word of a chain's rewrite rules, one letter per room: {letter_names}."),
                "type": "string",
                "pattern": format!("^[{letters}]*$"),
                "patternErrorMessage": format!("Use room letters only: {letter_names}."),
            },
            "rules": {
                "description": "Rewrite rules of a chain: `\"x -> yz | zy\": chance`. Each of 4 passes rewrites every letter by the first rule for it that fires; the result is cut to the chain's maximum length and padded up to its minimum.",
                "type": "object",
                "propertyNames": {
                    "pattern": format!("^\\s*[{letters}]\\s*->\\s*[{letters}]+(\\s*\\|\\s*[{letters}]+)*\\s*$"),
                    "patternErrorMessage": format!("Write a rule as `x -> yz | zy` with room letters: {letter_names}."),
                },
                "additionalProperties": chance("Chance that the rule fires."),
            },
            "select": range(
                "The node is a selector: keep `MIN..MAX` of its children, drawn by weight. A selector is not a room and has no category.",
                flow::MAX_NODES as u32,
            ),
            "properties": properties("Gameplay data of its rooms (over their templates' own)."),
            "markers": marker_counts(),
        },
        "additionalProperties": false,
        "anyOf": [
            { "required": ["category"] },
            { "required": ["select"] },
            { "required": ["chain", "rules"] },
        ],
        "dependencies": {
            "start": ["chain"],
            "rules": ["chain"],
            "select": { "properties": { "category": false, "chain": false } },
            "lock": lock_needs_locked_door(),
        },
    })
}

/// `lock:` goes with no `door:` or with `door: locked`.
fn lock_needs_locked_door() -> Value {
    json!({ "properties": { "door": { "const": "locked" } } })
}

fn edge_mapping() -> Value {
    json!({
        "title": "Edge",
        "description": "An edge in long form.",
        "type": "object",
        "properties": {
            "from": name("The parent node (or, in `loops:`, where the passage starts)."),
            "to": name("The child node (or, in `loops:`, where the passage leads)."),
            "door": with_default(one_of("The door: `open`, `locked` or `one_way`. Default `open`.", flow::DOOR_KINDS), json!("open")),
            "lock": name("Shorthand for `door: locked` with this key id."),
            "one_way": with_default(boolean("A one-way passage, from `from` to `to` only. Default false."), json!(false)),
            "properties": properties("Gameplay data of the connection."),
        },
        "required": ["from", "to"],
        "additionalProperties": false,
        "dependencies": { "lock": lock_needs_locked_door() },
    })
}

fn injection() -> Value {
    json!({
        "title": "Injection",
        "description": "A rule that adds a room after the flow is expanded.",
        "type": "object",
        "properties": {
            "name": with_default(name("Name for reports. Default `injection`."), json!("injection")),
            "room": {
                "description": "The room to add: a category, or `{ category, template, pool }`.",
                "anyOf": [
                    { "$ref": "#/definitions/room_spec" },
                    category("A room of this category."),
                ],
            },
            "where": {
                "description": "Placements, one drawn uniformly; `name xN` repeats a placement N times. end_of_chain: child of a random dead end; random_node_child: child of a room at `min_distance` or more from the entrance; before_any_combat_room: spliced in before a combat room; hub_adjacent_chain_start: spliced in between a hub and a chain leaving it; hub_adjacent_no_link: a new dead end off a hub; after_boss: spliced in after the boss; combat_frame: brackets a line of `frame` combat rooms; no_links: a detached room reached by a warp.",
                "anyOf": [
                    { "type": "array", "items": { "$ref": "#/definitions/placement" }, "minItems": 1 },
                    { "$ref": "#/definitions/placement" },
                ],
            },
            "chance": with_default(chance("Chance that it spawns. Default 1."), json!(1)),
            "weight": with_default(weight("Weight when its group picks one. Default 1."), json!(1)),
            "requires": names("Flags that must be passed (`--flag NAME`)."),
            "lock": with_default(chance("Chance that the door into the new room is locked. Default 0."), json!(0)),
            "min_distance": with_default(whole("Minimum tree distance from the entrance (`random_node_child`, `no_links`). Default 0.", 0, 64), json!(0)),
            "frame": with_default(whole("Combat rooms bracketed by `combat_frame`. Default 2.", 0, 16), json!(2)),
        },
        "required": ["room", "where"],
        "additionalProperties": false,
    })
}

fn placement() -> Value {
    let names = Placement::NAMES.join("|");
    json!({
        "description": "A placement, optionally repeated: `end_of_chain x4`.",
        "anyOf": [
            {
                "type": "string",
                "pattern": format!("^\\s*({names})(\\s* x\\s*\\+?[0-9]*[1-9][0-9]*\\s*)?\\s*$"),
                "patternErrorMessage": format!(
                    "A placement ({}), optionally repeated N times with ` xN` (N at least 1).",
                    Placement::NAMES.join(", "),
                ),
            },
            { "enum": Placement::NAMES },
        ],
    })
}

fn injection_group() -> Value {
    json!({
        "title": "Injection group",
        "description": "A group of injection rules.",
        "type": "object",
        "properties": {
            "group": name("Name of the group."),
            "pick": with_default(one_of("`all` tries every entry in shuffled order, `one` picks one by weight. Default `all`.", flow::GROUP_MODES), json!("all")),
            "entries": list("The rules of the group.", json!({ "$ref": "#/definitions/injection" })),
        },
        "required": ["group", "entries"],
        "additionalProperties": false,
    })
}

fn room_spec() -> Value {
    json!({
        "title": "Injected room",
        "description": "The room an injection adds.",
        "type": "object",
        "properties": {
            "category": category("The room category."),
            "template": name("An exact template name."),
            "pool": names("Tags: the template must carry one of them."),
            "properties": properties("Gameplay data of the room (over its template's own)."),
            "markers": marker_counts(),
        },
        "required": ["category"],
        "additionalProperties": false,
    })
}

/// `properties:`: names to strings, numbers and booleans.
fn properties(description: &str) -> Value {
    json!({
        "description": format!("{description} A map of names to strings, numbers and booleans, carried into the level JSON, the Tiled export and the snapshot."),
        "type": "object",
        "additionalProperties": { "type": ["string", "number", "boolean"] },
    })
}

/// A node's `markers:`: marker kinds to counts.
fn marker_counts() -> Value {
    json!({
        "description": "How many of its template's markers of a kind the room keeps: `N`, `MIN..MAX` or `[MIN, MAX]`, drawn uniformly; at most all of them. Kinds not named keep all their markers.",
        "type": "object",
        "additionalProperties": range("A marker count.", flow::MAX_MARKERS),
    })
}

fn layout() -> Value {
    json!({
        "title": "Layout settings",
        "type": "object",
        "properties": {
            "corridor": with_default(range("Corridor length bounds in tiles (`MIN..MAX`). Default 4..30.", 200), json!("4..30")),
            "attempts": with_default(whole("Whole-flow layout attempts (fresh templates every 5). Default 50.", 0, 1000), json!(50)),
            "tree_rebuilds": with_default(whole("Rebuilds of one tree composite. Default 5.", 0, 100), json!(5)),
            "loop_rebuilds": with_default(whole("Rebuilds of one loop composite. Default 100.", 0, 1000), json!(100)),
            "reuse_templates": with_default(boolean("Allow one template in several rooms of a level. Default false."), json!(false)),
        },
        "additionalProperties": false,
    })
}

fn isaac_params() -> Value {
    json!({
        "title": "Isaac parameters",
        "description": "Parameters of the Binding of Isaac floor generator.",
        "type": "object",
        "properties": {
            "level": with_default(whole("Floor number (1 = first floor). Default 1.", 0, 12), json!(1)),
            "variant": with_default(one_of("`original`: 9x8 grid, 1x1 rooms only; `rebirth`: 13x13 grid with large room shapes. Default `original`.", flow::ISAAC_VARIANTS), json!("original")),
            "curses": list("Curses: `labyrinth` doubles the floor.", one_of("A curse.", flow::ISAAC_CURSES)),
            "specials": {
                "description": "Chance of each optional special room, by name. Default `{ sacrifice: 0.14 }`.",
                "$ref": "#/definitions/isaac_specials",
            },
            "pools": list("Room pools drawn from (default: by level).", one_of("A room pool.", flow::ISAAC_POOLS)),
        },
        "additionalProperties": false,
    })
}

fn isaac_specials() -> Value {
    let properties: Map<String, Value> = flow::ISAAC_SPECIALS
        .iter()
        .map(|room| {
            let description = format!("Chance of a {room} room on the floor.");
            ((*room).to_owned(), chance(&description))
        })
        .collect();
    json!({
        "title": "Isaac special rooms",
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
    })
}

fn scatter_params() -> Value {
    json!({
        "title": "Scatter parameters",
        "description": "Parameters of the scatter (TinyKeep) generator.",
        "type": "object",
        "properties": {
            "rooms": with_default(whole("Rooms spawned. Default 150.", 1, 2000), json!(150)),
            "region": {
                "description": "Where rooms spawn: `{ circle: RADIUS }` or `{ ellipse: [A, B] }`, in tiles. Default `{ circle: 40 }`.",
                "$ref": "#/definitions/scatter_region",
            },
            "sizes": {
                "description": "How room sides are drawn.",
                "$ref": "#/definitions/scatter_sizes",
            },
            "main_threshold": with_default(number("A main room has both sides above this multiple of the mean. Default 1.25."), json!(1.25)),
            "extra_edges": with_default(chance("Fraction of the other triangulation edges (those no longer than the spanning tree's longest) added back as loops. Default 0.12."), json!(0.12)),
            "corridor_width": with_default(whole("Corridor width in tiles. Default 1.", 1, 3), json!(1)),
            "max_steps": with_default(whole("Separation steps before giving up. Default 2000.", 0, 100_000), json!(2000)),
        },
        "additionalProperties": false,
    })
}

fn scatter_region() -> Value {
    json!({
        "title": "Scatter region",
        "type": "object",
        "properties": {
            "circle": number("A circle of this radius, in tiles."),
            "ellipse": {
                "description": "An ellipse with these half-axes, in tiles: `[A, B]`.",
                "type": "array",
                "items": { "type": "number" },
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "additionalProperties": false,
    })
}

fn scatter_sizes() -> Value {
    json!({
        "title": "Scatter room sizes",
        "type": "object",
        "properties": {
            "distribution": with_default(one_of("`geometric` (many small rooms, few large ones) or `skew_normal`. Default `geometric`.", flow::SIZE_DISTRIBUTIONS), json!("geometric")),
            "p": with_default(chance("Success probability of the geometric distribution. Default 0.25."), json!(0.25)),
            "mean": with_default(number("Mean side of the skew normal distribution. Default 6."), json!(6)),
            "sd": with_default(number("Deviation of the skew normal distribution. Default 2.5."), json!(2.5)),
            "skew": with_default(number("Skewness (alpha) of the skew normal distribution. Default 4."), json!(4)),
            "side": with_default(range("Smallest and largest room side (at least 3). Default 3..16.", 64), json!("3..16")),
            "max_aspect": with_default(number("Largest width/height ratio. Default 2.5."), json!(2.5)),
        },
        "additionalProperties": false,
    })
}

fn nested_params() -> Value {
    json!({
        "title": "Nested puzzle parameters",
        "description": "Parameters of the nested lock-and-key generator.",
        "type": "object",
        "properties": {
            "depth": with_default(whole("Deepest nesting. Default 4.", 1, 32), json!(4)),
            "branching": with_default(range("Children per room (1 = a single line). Default 1.", 4), json!(1)),
            "ordering": with_default(one_of("`ancestor`: a room's key goes into a random ancestor; `key_levels`: the key of level n sits in the hardest room of level n-1. Default `ancestor`.", flow::NESTED_ORDERINGS), json!("ancestor")),
        },
        "additionalProperties": false,
    })
}

fn room_template() -> Value {
    json!({
        "title": "Room template",
        "description": "Tile art with exits.",
        "type": "object",
        "properties": {
            "name": {
                "description": "Unique name across all room files: letters, digits, `_` and `-`.",
                "type": ["string", "integer"],
                "pattern": "^[A-Za-z0-9_-]+$",
                "patternErrorMessage": "A template name has only letters, digits, `_` and `-`.",
            },
            "category": category("The room category: a built-in one or a category of your own."),
            "tags": names("Tags; flows select pools of templates by tag."),
            "weight": with_default(weight("Relative weight. Default 1."), json!(1)),
            "legend": {
                "description": "Extra characters of the art, each mapped to a tile (`wall`, `floor`, `void`, `pillar` or `pit`) or to a marker (`{ marker: enemy, tile: floor, properties: {...} }`). Upper-case letters and `+` are reserved for exits.",
                "type": "object",
                "propertyNames": {
                    "pattern": "^[^A-Z+]$",
                    "patternErrorMessage": "A legend key is one character, not an upper-case letter or `+` (those mark exits).",
                },
                "additionalProperties": {
                    "anyOf": [
                        one_of("The tile this character stands for.", rooms::TILE_NAMES),
                        { "$ref": "#/definitions/legend_marker" },
                    ],
                },
            },
            "art": {
                "description": "The tiles, one row per line, every row of the same width: `#` wall, `.` floor, `~` outside the room, `o` pillar, `^` pit, `A`-`Z` an exit (a straight run of one letter is one wide exit), `+` a door position (a one-tile exit with no name). The floor must be walled in.",
                "type": "string",
            },
            "properties": properties("Gameplay data of every room made from this template."),
            "transforms": {
                "description": "Rotated and mirrored versions made at load time (art, exits and markers turned together): a list of `rotate90`, `rotate180`, `rotate270`, `mirror_x`, `mirror_y`, or `all` for every one. A version equal to one before it is left out; the weight is shared among the versions; a level uses each template once whichever way it is turned. The level records the template as drawn and its `transform`.",
                "anyOf": [
                    { "const": "all" },
                    list("The transforms.", one_of("A transform.", &["rotate90", "rotate180", "rotate270", "mirror_x", "mirror_y"])),
                ],
            },
            "exits": {
                "description": "Attributes of the exits drawn in the art (by letter), and exits not drawn (`at`, `dir`, `width`).",
                "type": "object",
                "additionalProperties": {
                    "anyOf": [{ "$ref": "#/definitions/exit" }, { "type": "null" }],
                },
            },
        },
        "required": ["name", "category", "art"],
        "additionalProperties": false,
    })
}

fn legend_marker() -> Value {
    json!({
        "title": "Marker",
        "description": "A marker: a spot where the game puts something (an enemy, a chest, a torch), listed in the level's `markers`.",
        "type": "object",
        "properties": {
            "marker": name("What it marks (`enemy`, `chest`, `torch`...): letters, digits, `_` and `-`."),
            "tile": with_default(one_of("The tile under it: `floor`, `pillar`, `pit` or `wall` (not `void`). Default `floor`.", &["floor", "pillar", "pit", "wall"]), json!("floor")),
            "properties": properties("Data of every marker drawn with this character."),
        },
        "required": ["marker"],
        "additionalProperties": false,
    })
}

fn exit() -> Value {
    json!({
        "title": "Exit",
        "type": "object",
        "properties": {
            "group": name("Exit group: only one exit of a group is used in a level."),
            "kind": with_default(one_of("`any`; `entrance_only`: only the door the player enters by, from the parent room; `exit_only`: only doors to children and loops. Default `any`.", &ExitKind::NAMES), json!("any")),
            "at": {
                "description": "First tile (0-based, from the top-left) of an exit not drawn in the art: `[x, y]` on a wall. Needs `dir`.",
                "type": "array",
                "items": { "type": "integer", "minimum": 0, "maximum": 1000 },
                "minItems": 2,
                "maxItems": 2,
            },
            "dir": one_of("The facing; derived from the art for drawn exits, and must agree with it.", rooms::DIRECTIONS),
            "width": with_default(whole("Width in tiles of an exit not drawn in the art. Default 1.", 0, 64), json!(1)),
        },
        "additionalProperties": false,
    })
}

/// Adds a `default` to a schema.
fn with_default(mut schema: Value, default: Value) -> Value {
    if let Some(object) = schema.as_object_mut() {
        object.insert("default".to_owned(), default);
    }
    schema
}

fn string(description: &str) -> Value {
    json!({ "description": description, "type": "string" })
}

/// A name: a string, or a whole number written bare (read as text).
fn name(description: &str) -> Value {
    json!({ "description": description, "type": ["string", "integer"] })
}

/// A list of names; a single name is a list of one, nothing an empty list.
fn names(description: &str) -> Value {
    list(description, json!({ "type": ["string", "integer"] }))
}

/// A list; a single item is a list of one, nothing an empty list.
fn list(description: &str, item: Value) -> Value {
    json!({
        "description": description,
        "anyOf": [{ "type": "array", "items": item }, item, { "type": "null" }],
    })
}

fn one_of(description: &str, values: &[&str]) -> Value {
    json!({ "description": description, "type": "string", "enum": values })
}

fn boolean(description: &str) -> Value {
    json!({ "description": description, "type": "boolean" })
}

fn number(description: &str) -> Value {
    json!({ "description": description, "type": "number" })
}

fn chance(description: &str) -> Value {
    json!({ "description": description, "type": "number", "minimum": 0, "maximum": 1 })
}

fn weight(description: &str) -> Value {
    json!({ "description": description, "type": "number", "minimum": 0 })
}

/// A whole number in `min..=max`.
fn whole(description: &str, min: u32, max: u32) -> Value {
    json!({ "description": description, "type": "integer", "minimum": min, "maximum": max })
}

/// An inclusive range: `5`, `[3, 8]` or `"3..8"`, with bounds in `0..=max`.
fn range(description: &str, max: u32) -> Value {
    let bound = json!({ "type": "integer", "minimum": 0, "maximum": max });
    json!({
        "description": description,
        "anyOf": [
            {
                "type": "string",
                "pattern": "^\\s*\\+?[0-9]+\\s*\\.\\.\\s*\\+?[0-9]+\\s*$",
                "patternErrorMessage": "Write a range as `MIN..MAX`, e.g. `3..8`.",
            },
            bound,
            { "type": "array", "items": bound, "minItems": 2, "maxItems": 2 },
        ],
    })
}

/// A category: a built-in one (offered for completion) or one of your own.
fn category(description: &str) -> Value {
    json!({
        "description": description,
        "type": "string",
        "anyOf": [{ "enum": BUILTIN }, { "type": "string" }],
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Each closed object of the schemas, by JSON pointer, with the fields its decoder knows.
    fn decoder_fields() -> Vec<(&'static str, &'static [&'static str])> {
        vec![
            ("flow:", flow::FLOW_FIELDS),
            ("flow:/definitions/node", flow::NODE_FIELDS),
            ("flow:/definitions/edge_mapping", flow::EDGE_FIELDS),
            ("flow:/definitions/injection", flow::INJECTION_FIELDS),
            ("flow:/definitions/injection_group", flow::GROUP_FIELDS),
            ("flow:/definitions/room_spec", flow::ROOM_SPEC_FIELDS),
            ("flow:/definitions/layout", flow::LAYOUT_FIELDS),
            ("flow:/definitions/isaac_params", flow::ISAAC_FIELDS),
            ("flow:/definitions/isaac_specials", flow::ISAAC_SPECIALS),
            ("flow:/definitions/scatter_params", flow::SCATTER_FIELDS),
            ("flow:/definitions/scatter_region", flow::REGION_FIELDS),
            ("flow:/definitions/scatter_sizes", flow::SIZES_FIELDS),
            ("flow:/definitions/nested_params", flow::NESTED_FIELDS),
            ("room:/definitions/room_list", rooms::ROOM_LIST_FIELDS),
            ("room:/definitions/room_template", rooms::ROOM_FIELDS),
            ("room:/definitions/exit", rooms::EXIT_FIELDS),
            (
                "room:/definitions/legend_marker",
                rooms::LEGEND_ENTRY_FIELDS,
            ),
        ]
    }

    fn schemas() -> [(&'static str, Value); 2] {
        [("flow", flow_schema()), ("room", room_schema())]
    }

    /// Every schema object in `value`, with its JSON pointer.
    fn walk<'v>(value: &'v Value, pointer: String, out: &mut Vec<(String, &'v Value)>) {
        match value {
            Value::Object(map) => {
                out.push((pointer.clone(), value));
                for (key, child) in map {
                    walk(child, format!("{pointer}/{key}"), out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(child, format!("{pointer}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    fn all_objects<'v>(schemas: &'v [(&'static str, Value); 2]) -> Vec<(String, &'v Value)> {
        let mut out = Vec::new();
        for (kind, schema) in schemas {
            walk(schema, format!("{kind}:"), &mut out);
        }
        out
    }

    fn keys(object: &Value) -> BTreeSet<&str> {
        object["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn each_closed_object_has_exactly_the_decoders_fields() {
        let schemas = schemas();
        let objects = all_objects(&schemas);
        let table = decoder_fields();
        for (pointer, fields) in &table {
            let object = objects
                .iter()
                .find(|(p, _)| p == pointer)
                .map(|(_, o)| *o)
                .unwrap_or_else(|| panic!("no schema object at {pointer}"));
            let expected: BTreeSet<&str> = fields.iter().copied().collect();
            assert_eq!(keys(object), expected, "properties of {pointer}");
            assert_eq!(object["additionalProperties"], false, "{pointer} is closed");
        }
        // No closed object escapes the comparison.
        for (pointer, object) in &objects {
            if object.get("additionalProperties") == Some(&Value::Bool(false)) {
                assert!(
                    table.iter().any(|(p, _)| p == pointer),
                    "{pointer} is closed but not compared with a decoder's fields"
                );
            }
        }
    }

    #[test]
    fn every_property_is_described() {
        let schemas = schemas();
        let mut checked = 0;
        // Object schemas; `properties` in `if`, `then` and `dependencies` only
        // narrow fields described there.
        for (pointer, object) in all_objects(&schemas) {
            if object.get("type") != Some(&json!("object")) {
                continue;
            }
            let Some(Value::Object(properties)) = object.get("properties") else {
                continue;
            };
            for (key, property) in properties {
                let described = property
                    .get("description")
                    .and_then(Value::as_str)
                    .is_some_and(|d| !d.is_empty());
                assert!(described, "{pointer}/properties/{key} has no description");
                checked += 1;
            }
        }
        assert!(checked > 80, "{checked} properties");
    }

    #[test]
    fn every_closed_object_has_a_title() {
        let schemas = schemas();
        for (pointer, object) in all_objects(&schemas) {
            if object.get("additionalProperties") == Some(&Value::Bool(false)) {
                assert!(object.get("title").is_some(), "{pointer} has no title");
            }
        }
    }

    #[test]
    fn params_are_given_for_every_generator_but_flow() {
        let with_params: BTreeSet<&str> = GENERATOR_PARAMS.iter().map(|(g, _)| *g).collect();
        let generators: BTreeSet<&str> = Generator::NAMES
            .iter()
            .copied()
            .filter(|g| *g != "flow")
            .collect();
        assert_eq!(with_params, generators);
    }
}

//! Parameters of the non-flow generators (`generator: isaac | scatter |
//! nested_puzzle`), decoded and range-checked from a flow file's `params:`.

use std::collections::BTreeMap;

use crate::yaml::{Decoder, Node};

/// Fields of Isaac `params:`.
pub(crate) const ISAAC_FIELDS: &[&str] = &["level", "variant", "curses", "specials", "pools"];
/// Values of Isaac `variant:`.
pub(crate) const ISAAC_VARIANTS: &[&str] = &["original", "rebirth"];
/// Values of Isaac `curses:`.
pub(crate) const ISAAC_CURSES: &[&str] = &["labyrinth"];
/// Optional special rooms that Isaac `specials:` gives chances to.
pub(crate) const ISAAC_SPECIALS: &[&str] = &[
    "sacrifice",
    "library",
    "curse",
    "challenge",
    "arcade",
    "miniboss",
    "dice",
    "bedroom",
    "vault",
];
/// Values of Isaac `pools:`.
pub(crate) const ISAAC_POOLS: &[&str] = &["easy", "medium", "hard"];
/// Fields of scatter `params:`.
pub(crate) const SCATTER_FIELDS: &[&str] = &[
    "rooms",
    "region",
    "sizes",
    "main_threshold",
    "extra_edges",
    "corridor_width",
    "max_steps",
];
/// Fields of scatter `region:`.
pub(crate) const REGION_FIELDS: &[&str] = &["circle", "ellipse"];
/// Fields of scatter `sizes:`.
pub(crate) const SIZES_FIELDS: &[&str] = &[
    "distribution",
    "p",
    "mean",
    "sd",
    "skew",
    "side",
    "max_aspect",
];
/// Values of scatter `sizes: { distribution }`.
pub(crate) const SIZE_DISTRIBUTIONS: &[&str] = &["geometric", "skew_normal"];
/// Fields of nested puzzle `params:`.
pub(crate) const NESTED_FIELDS: &[&str] = &["depth", "branching", "ordering"];
/// Values of nested puzzle `ordering:`.
pub(crate) const NESTED_ORDERINGS: &[&str] = &["ancestor", "key_levels"];

/// Which Isaac floor plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsaacVariant {
    /// 9x8 grid, 1x1 rooms only.
    Original,
    /// 13x13 grid with large room shapes.
    Rebirth,
}

/// Parameters of the Binding of Isaac generator.
#[derive(Clone, Debug, PartialEq)]
pub struct IsaacParams {
    /// Floor number (1 = first floor).
    pub level: u32,
    /// Grid and shape rules.
    pub variant: IsaacVariant,
    /// Curse of the Labyrinth (double floor).
    pub labyrinth: bool,
    /// Chance of each optional special room, by name.
    pub specials: BTreeMap<String, f64>,
    /// Room pools drawn from (`easy`, `medium`, `hard`); empty = by level.
    pub pools: Vec<String>,
}

impl Default for IsaacParams {
    fn default() -> Self {
        Self {
            level: 1,
            variant: IsaacVariant::Original,
            labyrinth: false,
            specials: [("sacrifice".to_owned(), 1.0 / 7.0)].into_iter().collect(),
            pools: Vec::new(),
        }
    }
}

/// Where scattered rooms spawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Region {
    /// A circle of this radius, in tiles.
    Circle(f64),
    /// An ellipse with these half-axes, in tiles.
    Ellipse(f64, f64),
}

/// How scattered room sizes are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeDistribution {
    /// Geometric with success probability `p`: many small rooms, few large ones.
    Geometric(f64),
    /// Skewed normal with this mean, deviation and skew.
    SkewNormal {
        /// Mean side.
        mean: f64,
        /// Deviation.
        sd: f64,
        /// Skewness (alpha).
        skew: f64,
    },
}

/// Parameters of the scatter (TinyKeep) generator.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterParams {
    /// Rooms spawned.
    pub rooms: u32,
    /// Spawn region.
    pub region: Region,
    /// Room side distribution.
    pub sizes: SizeDistribution,
    /// Smallest room side.
    pub min_side: u32,
    /// Largest room side.
    pub max_side: u32,
    /// Largest width/height ratio.
    pub max_aspect: f64,
    /// A main room has both sides above this multiple of the mean.
    pub main_threshold: f64,
    /// Fraction of the non-tree triangulation edges no longer than the
    /// spanning tree's longest edge that are added back as loops.
    pub extra_edges: f64,
    /// Corridor width in tiles.
    pub corridor_width: u32,
    /// Separation steps before giving up.
    pub max_steps: u32,
}

impl Default for ScatterParams {
    fn default() -> Self {
        Self {
            rooms: 150,
            region: Region::Circle(40.0),
            sizes: SizeDistribution::Geometric(0.25),
            min_side: 3,
            max_side: 16,
            max_aspect: 2.5,
            main_threshold: 1.25,
            extra_edges: 0.12,
            corridor_width: 1,
            max_steps: 2000,
        }
    }
}

/// Key placement of the nested puzzle generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NestedOrdering {
    /// The seed's rule: a room's key goes into a random ancestor.
    Ancestor,
    /// Key levels: the key of level n sits in the hardest room of level n-1.
    KeyLevels,
}

/// Parameters of the nested lock-and-key generator.
#[derive(Clone, Debug, PartialEq)]
pub struct NestedParams {
    /// Deepest nesting.
    pub depth: u32,
    /// Children per room (1 = a single line, as in the seed).
    pub branching: (u32, u32),
    /// How keys are placed.
    pub ordering: NestedOrdering,
}

impl Default for NestedParams {
    fn default() -> Self {
        Self {
            depth: 4,
            branching: (1, 1),
            ordering: NestedOrdering::Ancestor,
        }
    }
}

/// Decodes `params:` for Isaac.
pub fn decode_isaac(d: &mut Decoder, node: Option<&Node>) -> IsaacParams {
    let mut p = IsaacParams::default();
    let Some(mut f) = node.and_then(|n| d.map(n, "`params`")) else {
        return p;
    };
    if let Some(n) = f.get("level")
        && let Some(v) = d.count(n, "`level`", 12)
    {
        p.level = v.value.max(1);
    }
    if let Some(n) = f.get("variant")
        && let Some(v) = d.one_of(n, "Isaac variant", ISAAC_VARIANTS)
    {
        p.variant = if v.value == "rebirth" {
            IsaacVariant::Rebirth
        } else {
            IsaacVariant::Original
        };
    }
    if let Some(n) = f.get("curses") {
        for c in d.list(n, "`curses`") {
            if d.one_of(c, "curse", ISAAC_CURSES).is_some() {
                p.labyrinth = true;
            }
        }
    }
    if let Some(n) = f.get("specials")
        && let Some(mut sf) = d.map(n, "`specials`")
    {
        for (k, v) in sf.rest() {
            if let (Some(name), Some(chance)) = (
                d.one_of(k, "special room", ISAAC_SPECIALS),
                d.chance(v, "a special room's chance"),
            ) {
                p.specials.insert(name.value, chance.value);
            }
        }
    }
    if let Some(n) = f.get("pools") {
        p.pools = d
            .list(n, "`pools`")
            .into_iter()
            .filter_map(|x| d.one_of(x, "room pool", ISAAC_POOLS).map(|s| s.value))
            .collect();
    }
    f.finish(d, "Isaac `params`", ISAAC_FIELDS);
    p
}

/// Decodes `params:` for the scatter generator.
pub fn decode_scatter(d: &mut Decoder, node: Option<&Node>) -> ScatterParams {
    let mut p = ScatterParams::default();
    let Some(mut f) = node.and_then(|n| d.map(n, "`params`")) else {
        return p;
    };
    if let Some(n) = f.get("rooms")
        && let Some(v) = d.count(n, "`rooms`", 2000)
    {
        if v.value == 0 {
            d.error(
                "scatter::no-rooms",
                n.span.clone(),
                "a scattered level needs at least one room",
                "0 rooms",
                "give `rooms:` a count from 1 to 2000",
            );
        }
        p.rooms = v.value.max(1);
    }
    if let Some(n) = f.get("region")
        && let Some(mut rf) = d.map(n, "`region`")
    {
        if let Some(r) = rf.get("circle").and_then(|x| d.number(x, "circle radius")) {
            p.region = Region::Circle(r.value.clamp(1.0, 1000.0));
        }
        if let Some(e) = rf.get("ellipse") {
            let axes: Vec<f64> = d
                .list(e, "ellipse")
                .into_iter()
                .filter_map(|x| d.number(x, "half-axis").map(|v| v.value))
                .collect();
            if let [a, b] = axes.as_slice() {
                p.region = Region::Ellipse(a.clamp(1.0, 1000.0), b.clamp(1.0, 1000.0));
            } else {
                d.error(
                    "scatter::bad-region",
                    e.span.clone(),
                    "`ellipse` needs two half-axes",
                    "expected [a, b]",
                    "write `ellipse: [60, 30]`",
                );
            }
        }
        rf.finish(d, "`region`", REGION_FIELDS);
    }
    if let Some(n) = f.get("sizes")
        && let Some(mut sf) = d.map(n, "`sizes`")
    {
        let dist = sf
            .get("distribution")
            .and_then(|x| d.one_of(x, "size distribution", SIZE_DISTRIBUTIONS));
        let p_geo = sf
            .get("p")
            .and_then(|x| d.chance(x, "`p`"))
            .map_or(0.25, |v| v.value.max(0.01));
        let mean = sf
            .get("mean")
            .and_then(|x| d.number(x, "`mean`"))
            .map_or(6.0, |v| v.value);
        let sd = sf
            .get("sd")
            .and_then(|x| d.number(x, "`sd`"))
            .map_or(2.5, |v| v.value.abs());
        let skew = sf
            .get("skew")
            .and_then(|x| d.number(x, "`skew`"))
            .map_or(4.0, |v| v.value);
        p.sizes = match dist.as_ref().map(|s| s.value.as_str()) {
            Some("skew_normal") => SizeDistribution::SkewNormal { mean, sd, skew },
            _ => SizeDistribution::Geometric(p_geo),
        };
        if let Some(r) = sf.get("side").and_then(|x| d.range(x, "`side`", 64)) {
            (p.min_side, p.max_side) = (r.value.0.max(3), r.value.1.max(3));
        }
        if let Some(a) = sf
            .get("max_aspect")
            .and_then(|x| d.number(x, "`max_aspect`"))
        {
            p.max_aspect = a.value.clamp(1.0, 10.0);
        }
        sf.finish(d, "`sizes`", SIZES_FIELDS);
    }
    if let Some(v) = f
        .get("main_threshold")
        .and_then(|n| d.number(n, "`main_threshold`"))
    {
        p.main_threshold = v.value.clamp(0.1, 10.0);
    }
    if let Some(v) = f
        .get("extra_edges")
        .and_then(|n| d.chance(n, "`extra_edges`"))
    {
        p.extra_edges = v.value;
    }
    if let Some(n) = f.get("corridor_width")
        && let Some(v) = d.count(n, "`corridor_width`", 3)
    {
        if v.value == 0 {
            d.error(
                "scatter::bad-corridor",
                n.span.clone(),
                "`corridor_width` is 0",
                "must be 1..=3",
                "corridors are 1 to 3 tiles wide",
            );
        } else {
            p.corridor_width = v.value;
        }
    }
    if let Some(v) = f
        .get("max_steps")
        .and_then(|n| d.count(n, "`max_steps`", 100_000))
    {
        p.max_steps = v.value;
    }
    f.finish(d, "scatter `params`", SCATTER_FIELDS);
    p
}

/// Decodes `params:` for the nested puzzle generator.
pub fn decode_nested(d: &mut Decoder, node: Option<&Node>) -> NestedParams {
    let mut p = NestedParams::default();
    let Some(mut f) = node.and_then(|n| d.map(n, "`params`")) else {
        return p;
    };
    if let Some(n) = f.get("depth")
        && let Some(v) = d.count(n, "`depth`", 32)
    {
        if v.value == 0 {
            d.error(
                "puzzle::bad-depth",
                n.span.clone(),
                "`depth` is 0",
                "must be at least 1",
                "a puzzle needs at least one locked room",
            );
        } else {
            p.depth = v.value;
        }
    }
    if let Some(n) = f.get("branching")
        && let Some(v) = d.range(n, "`branching`", 4)
    {
        p.branching = (v.value.0.max(1), v.value.1.max(1));
    }
    if let Some(n) = f.get("ordering")
        && let Some(v) = d.one_of(n, "key ordering", NESTED_ORDERINGS)
    {
        p.ordering = if v.value == "key_levels" {
            NestedOrdering::KeyLevels
        } else {
            NestedOrdering::Ancestor
        };
    }
    f.finish(d, "nested puzzle `params`", NESTED_FIELDS);
    p
}

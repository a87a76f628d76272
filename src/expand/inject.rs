//! Injection rules: rooms added to the expanded graph by placement rules.

use std::collections::BTreeSet;

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::diag::Diagnostic;
use crate::flow::{Flow, FlowGraph, GroupMode, Injection, Placement};
use crate::graph::{Connection, EdgeKind, LevelGraph, Origin, RoomNode};
use crate::rng::Rng;

/// Categories that count as combat rooms for `before_any_combat_room` and `combat_frame`.
pub const COMBAT: &[&str] = &["normal", "boss"];

/// Applies every injection group of the flow, in file order.
pub fn apply(
    flow: &Flow,
    g: &FlowGraph,
    level: &mut LevelGraph,
    flags: &BTreeSet<String>,
    rng: &mut Rng,
) -> Result<(), Diagnostic> {
    for group in &g.injections {
        let eligible: Vec<&Injection> = group
            .entries
            .iter()
            .filter(|inj| inj.requires.iter().all(|f| flags.contains(&f.value)))
            .collect();
        match group.mode {
            GroupMode::All => {
                let mut order = eligible;
                rng.shuffle(&mut order);
                for inj in order {
                    inject(flow, level, inj, rng)?;
                }
            }
            GroupMode::One => {
                let weights: Vec<f64> = eligible.iter().map(|i| i.weight).collect();
                if let Some(i) = rng.weighted(&weights) {
                    inject(flow, level, eligible[i], rng)?;
                }
            }
        }
    }
    Ok(())
}

/// Where a new room goes.
enum Site {
    /// As a new child of this room.
    Child(NodeIndex),
    /// Between the two ends of this tree edge.
    Splice(EdgeIndex),
    /// Around a run of rooms: before the first (edge into it) and after the last.
    Frame(EdgeIndex, NodeIndex),
    /// A detached wing reached by a warp from this room.
    Warp(NodeIndex),
}

fn inject(
    flow: &Flow,
    level: &mut LevelGraph,
    inj: &Injection,
    rng: &mut Rng,
) -> Result<(), Diagnostic> {
    if !rng.chance(inj.chance) {
        return Ok(());
    }
    let weights: Vec<f64> = inj.placements.iter().map(|(_, w)| f64::from(*w)).collect();
    let placement = inj.placements[rng.weighted(&weights).unwrap_or(0)].0;
    let mut sites = candidates(level, inj, placement);
    if sites.is_empty() && placement == Placement::EndOfChain {
        sites = candidates(level, inj, Placement::RandomNodeChild);
    }
    if sites.is_empty() {
        let msg = format!(
            "injection `{}` found no place for `{}`",
            inj.name.value,
            placement.name()
        );
        if inj.chance >= 1.0 {
            return Err(Diagnostic::error("expand::injection-unplaced", msg)
                .in_file(&flow.file)
                .label(inj.span.clone(), "mandatory injection (chance 1)")
                .help("add another placement to `where:`, lower `chance:` to make it optional, or change the flow so the placement exists"));
        }
        level.notes.push(msg);
        return Ok(());
    }
    let site = sites.swap_remove(rng.index(sites.len()));
    let locked = rng.chance(inj.lock_chance);
    let lock = locked.then(|| format!("{}-key", inj.name.value));
    let lock = lock.map(|k| unique_key(level, &k));
    match site {
        Site::Child(parent) => {
            let new = add_room(level, inj);
            level.graph.add_edge(parent, new, tree(lock));
        }
        Site::Warp(from) => {
            let new = add_room(level, inj);
            level
                .graph
                .add_edge(from, new, Connection::plain(EdgeKind::Warp, false, lock));
        }
        Site::Splice(edge) => {
            splice(level, inj, edge, lock);
        }
        Site::Frame(edge, last) => {
            splice(level, inj, edge, lock);
            let after = level
                .children(last)
                .first()
                .and_then(|&c| level.graph.find_edge(last, c));
            match after {
                Some(e) => {
                    splice(level, inj, e, None);
                }
                None => {
                    let new = add_room(level, inj);
                    level.graph.add_edge(last, new, tree(None));
                }
            }
        }
    }
    Ok(())
}

fn tree(lock: Option<String>) -> Connection {
    Connection::plain(EdgeKind::Tree, false, lock)
}

fn unique_key(level: &LevelGraph, base: &str) -> String {
    let used: BTreeSet<&str> = level
        .graph
        .edge_weights()
        .filter_map(|c| c.lock.as_deref())
        .collect();
    let mut k = base.to_owned();
    let mut n = 2;
    while used.contains(k.as_str()) {
        k = format!("{base}{n}");
        n += 1;
    }
    k
}

/// Puts a new room between the ends of a tree edge; the edge's own door stays
/// in front of the old child, the new room's door gets `lock`.
fn splice(
    level: &mut LevelGraph,
    inj: &Injection,
    edge: EdgeIndex,
    lock: Option<String>,
) -> NodeIndex {
    let (parent, child) = level.graph.edge_endpoints(edge).expect("edge exists");
    let conn = level.graph.remove_edge(edge).expect("edge exists");
    let new = add_room(level, inj);
    level.graph.add_edge(parent, new, tree(lock));
    level.graph.add_edge(new, child, conn);
    new
}

fn add_room(level: &mut LevelGraph, inj: &Injection) -> NodeIndex {
    let mut n = 1;
    let id = loop {
        let id = format!("{}.{n}", inj.name.value);
        if level.find(&id).is_none() {
            break id;
        }
        n += 1;
    };
    level.graph.add_node(RoomNode {
        id,
        category: inj.room.category.value.clone(),
        template: inj.room.template.as_ref().map(|t| t.value.clone()),
        pool: inj.room.pool.iter().map(|p| p.value.clone()).collect(),
        origin: Origin::Injection {
            rule: inj.name.value.clone(),
        },
        keys: Vec::new(),
        fixed_template: inj.room.template.is_some(),
        span: inj.span.clone(),
        optional: inj.chance < 1.0,
        properties: inj.room.properties.clone(),
        markers: crate::flow::marker_counts(&inj.room.markers),
    })
}

/// Rooms other rooms may hang off: not exits, secrets or connectors.
fn can_host(room: &RoomNode) -> bool {
    !matches!(room.category.as_str(), "exit" | "secret" | "connector")
}

fn tree_in_edge(level: &LevelGraph, n: NodeIndex) -> Option<EdgeIndex> {
    level
        .graph
        .edges_directed(n, petgraph::Direction::Incoming)
        .find(|e| e.weight().kind == EdgeKind::Tree)
        .map(|e| e.id())
}

fn candidates(level: &LevelGraph, inj: &Injection, placement: Placement) -> Vec<Site> {
    let depth = level.depths();
    let nodes: Vec<NodeIndex> = level.graph.node_indices().collect();
    let cat = |n: NodeIndex| level.graph[n].category.as_str();
    let is_combat = |n: NodeIndex| COMBAT.contains(&cat(n));
    let far = |n: NodeIndex| depth[n.index()] != u32::MAX && depth[n.index()] >= inj.min_distance;
    match placement {
        Placement::EndOfChain => nodes
            .into_iter()
            .filter(|&n| {
                n != level.entrance
                    && can_host(&level.graph[n])
                    && level.door_count(n) == 1
                    && far(n)
            })
            .map(Site::Child)
            .collect(),
        Placement::RandomNodeChild => nodes
            .into_iter()
            .filter(|&n| can_host(&level.graph[n]) && far(n))
            .map(Site::Child)
            .collect(),
        Placement::BeforeAnyCombatRoom => nodes
            .into_iter()
            .filter(|&n| is_combat(n) && far(n))
            .filter_map(|n| tree_in_edge(level, n))
            .map(Site::Splice)
            .collect(),
        Placement::HubAdjacentChainStart => nodes
            .into_iter()
            .filter(|&n| cat(n) == "hub")
            .flat_map(|h| level.children(h).into_iter().map(move |c| (h, c)))
            .filter(|&(_, c)| cat(c) != "hub" && !level.children(c).is_empty())
            .filter_map(|(h, c)| level.graph.find_edge(h, c))
            .map(Site::Splice)
            .collect(),
        Placement::HubAdjacentNoLink => nodes
            .into_iter()
            .filter(|&n| cat(n) == "hub")
            .map(Site::Child)
            .collect(),
        Placement::AfterBoss => nodes
            .into_iter()
            .filter(|&n| cat(n) == "boss")
            .map(|b| match level.children(b).first() {
                Some(&c) => Site::Splice(level.graph.find_edge(b, c).expect("tree edge")),
                None => Site::Child(b),
            })
            .collect(),
        Placement::CombatFrame => {
            let run = inj.frame.max(1) as usize;
            nodes
                .into_iter()
                .filter(|&n| is_combat(n) && far(n))
                .filter_map(|start| {
                    let mut last = start;
                    for _ in 1..run {
                        let kids = level.children(last);
                        match kids.as_slice() {
                            [only] if is_combat(*only) => last = *only,
                            _ => return None,
                        }
                    }
                    tree_in_edge(level, start).map(|e| Site::Frame(e, last))
                })
                .collect()
        }
        Placement::NoLinks => nodes
            .into_iter()
            .filter(|&n| can_host(&level.graph[n]) && far(n) && depth[n.index()] != u32::MAX)
            .map(Site::Warp)
            .collect(),
    }
}

//! Structural validation of a decoded flow against the room library.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::model::{
    Door, Flow, FlowEdge, FlowGraph, FlowNode, MAX_EXPANDED_ROOMS, NodeKind, Placement,
};
use crate::category;
use crate::diag::{Diagnostic, did_you_mean, suggest};
use crate::rooms::{RoomLibrary, RoomTemplate};
use crate::yaml::{Decoder, Sp};

/// Checks a decoded flow: ids, edges, tree shape, categories, templates,
/// degrees, keys and injections. Returns every problem found.
pub fn validate_flow(flow: &Flow, library: &RoomLibrary) -> Vec<Diagnostic> {
    let mut d = Decoder::new(&flow.file);
    if let Some(g) = flow.graph() {
        Checker {
            d: &mut d,
            flow,
            g,
            library,
        }
        .run();
    }
    // A name used twice in one path (`a -> typo -> b`) is reported once.
    let mut seen = BTreeSet::new();
    d.diags.retain(|x| {
        seen.insert((
            x.code,
            x.labels.first().map(|l| (l.span.start, l.span.end)),
            x.message.clone(),
        ))
    });
    d.diags
}

/// A value per node of `ids` folded down its line of tree ancestors: a
/// root (or a node whose parent closes a cycle, reported by `tree_shape`)
/// gets `own(id)`, every other node `join(own(id), &its parent's value)`.
/// Each node is folded once, so a line of 2,000 nodes costs 2,000 steps,
/// not 2,000 walks to the root.
fn lineage<'p, T>(
    parent: &'p BTreeMap<String, String>,
    ids: impl IntoIterator<Item = &'p str>,
    own: impl Fn(&'p str) -> T,
    join: impl Fn(T, &T) -> T,
) -> HashMap<&'p str, T>
where
    T: Clone,
{
    let mut done: HashMap<&'p str, T> = HashMap::new();
    for id in ids {
        // Up from `id` to the first node already folded (or the root, or
        // the first repeat of a cycle), then fold back down.
        let mut path = Vec::new();
        let mut on_path = HashSet::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            if done.contains_key(c) || !on_path.insert(c) {
                break;
            }
            path.push(c);
            cur = parent.get(c).map(String::as_str);
        }
        for &c in path.iter().rev() {
            let up = parent.get(c).and_then(|p| done.get(p.as_str())).cloned();
            let value = match up {
                Some(up) => join(own(c), &up),
                None => own(c),
            };
            done.insert(c, value);
        }
    }
    done
}

/// The nodes of `g` by id, for lookups in loops over nodes or edges
/// (`FlowGraph::node` searches the list).
fn nodes_by_id(g: &FlowGraph) -> HashMap<&str, &FlowNode> {
    g.nodes.iter().map(|n| (n.id.value.as_str(), n)).collect()
}

/// The tree a parent map describes, walked once depth-first: each node's
/// entry and exit times, so that whether one node lies below another is
/// one comparison (walking up from every key to the root made a line of
/// 2,000 locked rooms quadratic).
struct Ancestry<'p> {
    times: HashMap<&'p str, (usize, usize)>,
}

impl<'p> Ancestry<'p> {
    fn new(parent: &'p BTreeMap<String, String>) -> Self {
        let mut children: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (child, p) in parent {
            children.entry(p.as_str()).or_default().push(child.as_str());
        }
        let roots = children
            .keys()
            .copied()
            .filter(|p| !parent.contains_key(*p));
        let mut times = HashMap::new();
        let mut clock = 0;
        for root in roots {
            // (node, whether its children were pushed)
            let mut stack = vec![(root, false)];
            while let Some((n, opened)) = stack.pop() {
                if opened {
                    if let Some((_, exit)) = times.get_mut(n) {
                        *exit = clock;
                    }
                    continue;
                }
                clock += 1;
                times.insert(n, (clock, clock));
                stack.push((n, true));
                for &c in children.get(n).into_iter().flatten() {
                    stack.push((c, false));
                }
            }
        }
        Ancestry { times }
    }

    /// Whether `node` is `above` or lies below it (nodes on a cycle, which
    /// `tree_shape` reports, lie below nothing but themselves).
    fn within(&self, node: &str, above: &str) -> bool {
        node == above
            || matches!(
                (self.times.get(node), self.times.get(above)),
                (Some(&(n_in, n_out)), Some(&(a_in, a_out))) if a_in <= n_in && n_out <= a_out
            )
    }
}

struct Checker<'a> {
    d: &'a mut Decoder,
    flow: &'a Flow,
    g: &'a FlowGraph,
    library: &'a RoomLibrary,
}

impl<'a> Checker<'a> {
    fn run(&mut self) {
        let ids = self.unique_ids();
        if !self.g.complete {
            // The graph is only partly decoded: check what stands on its own.
            self.categories_and_templates();
            self.injections();
            return;
        }
        let edges_ok = self.edges_defined(&ids);
        let entrance = self.single_entrance();
        let parent = self.tree_shape(&ids);
        if edges_ok {
            if let Some(entrance) = &entrance {
                self.reachable(entrance, &parent);
            }
            self.loops();
            self.selectors();
            self.keys(&parent);
        }
        self.categories_and_templates();
        if edges_ok {
            self.degrees();
            self.exit_widths();
            self.drawable(&parent);
        }
        self.marker_counts();
        self.injections();
        let bounded = self.size();
        if edges_ok && entrance.is_some() && bounded {
            self.solvable();
        }
        self.warnings();
    }

    /// Proves the flow's structure solvable with the solver (every node
    /// present, automatic keys in front of their locks); runs only when no
    /// error was found, so it never repeats one (a key behind its own lock is
    /// reported by [`Self::keys`]).
    fn solvable(&mut self) {
        if self.d.diags.iter().any(Diagnostic::is_error) {
            return;
        }
        let Some(puzzle) = crate::puzzle::Puzzle::from_flow(self.g) else {
            return;
        };
        let analysis = crate::puzzle::analyse(&puzzle);
        if analysis.solvable {
            let mut warned = BTreeSet::new();
            for b in &analysis.bypasses {
                if !warned.insert(b.key.clone()) {
                    continue;
                }
                let span = self
                    .lock_span(&b.key)
                    .or_else(|| self.g.node(&b.to).map(|n| n.id.span.clone()))
                    .unwrap_or_else(|| self.flow.name.span.clone());
                self.d.warning(
                    "flow::lock-bypassed",
                    span,
                    format!(
                        "the lock on `{} -> {}` can be walked around: both rooms are reachable without key `{}`",
                        b.from, b.to, b.key
                    ),
                    "this lock guards nothing",
                    "make loops out of a locked room one-way, pointing out of it (`vault -> hall`), or lock the other way in too",
                );
            }
        }
        if analysis.solvable || !analysis.complete {
            return;
        }
        for p in &analysis.problems {
            // Label the lock of the key at fault, else the room at fault.
            let lock_span = p.key.as_ref().and_then(|k| self.lock_span(k));
            let room_span = p
                .room
                .as_ref()
                .and_then(|r| self.g.node(r))
                .map(|n| n.id.span.clone());
            let mut diag = Diagnostic::error(
                "flow::unsolvable",
                format!("the flow cannot be finished: {}", p.message),
            )
            .in_file(&self.flow.file);
            if let Some(span) = lock_span {
                diag = diag.label(span, "this lock cannot be opened in time");
            }
            match room_span {
                Some(span) => diag = diag.label(span, "this room"),
                None if diag.labels.is_empty() => {
                    diag = diag.label(self.flow.name.span.clone(), "this flow");
                }
                None => {}
            }
            self.d.diags.push(diag.help(
                "place keys in rooms reachable before their locks (or leave `keys:` out to place them automatically), and point one-way doors away from rooms the player still needs",
            ));
        }
    }

    /// The span of the first lock naming `key`.
    fn lock_span(&self, key: &str) -> Option<std::ops::Range<usize>> {
        let door_key = |d: &Door| match d {
            Door::Locked(Some(k)) if k.value == key => Some(k.span.clone()),
            _ => None,
        };
        self.g
            .nodes
            .iter()
            .find_map(|n| door_key(&n.door))
            .or_else(|| {
                self.g
                    .edges
                    .iter()
                    .chain(&self.g.loops)
                    .find_map(|e| door_key(&e.door))
            })
    }

    fn unique_ids(&mut self) -> BTreeSet<String> {
        let mut seen: BTreeMap<&str, &FlowNode> = BTreeMap::new();
        for n in &self.g.nodes {
            if let Some(first) = seen.get(n.id.value.as_str()) {
                self.d.diags.push(
                    Diagnostic::error(
                        "flow::duplicate-node",
                        format!("node id `{}` is used twice", n.id.value),
                    )
                    .in_file(&self.flow.file)
                    .label(n.id.span.clone(), "second definition")
                    .label(first.id.span.clone(), "first defined here")
                    .help("rename one of the nodes; ids are unique in a flow"),
                );
            } else {
                seen.insert(&n.id.value, n);
            }
        }
        seen.keys().map(|s| (*s).to_owned()).collect()
    }

    fn edges_defined(&mut self, ids: &BTreeSet<String>) -> bool {
        let mut ok = true;
        for e in self.g.edges.iter().chain(&self.g.loops) {
            for end in [&e.from, &e.to] {
                if !ids.contains(&end.value) {
                    ok = false;
                    let help = did_you_mean(&end.value, ids.iter().map(String::as_str))
                        .unwrap_or_else(|| "declare it under `nodes:` or fix the name".to_owned());
                    self.d.error(
                        "flow::undefined-node",
                        end.span.clone(),
                        format!("edge names node `{}`, which is not defined", end.value),
                        "undefined node",
                        help,
                    );
                }
            }
        }
        ok
    }

    fn single_entrance(&mut self) -> Option<String> {
        let entrances: Vec<&FlowNode> = self
            .g
            .nodes
            .iter()
            .filter(|n| n.category.value == "entrance")
            .collect();
        match entrances.as_slice() {
            [one] => {
                if !matches!(one.kind, NodeKind::Room) {
                    self.d.error(
                        "flow::entrance-kind",
                        one.id.span.clone(),
                        "the entrance must be a single room, not a chain",
                        "chain entrance",
                        "make the entrance a plain node and hang the chain below it",
                    );
                }
                if one.chance < 1.0 {
                    self.d.error(
                        "flow::optional-entrance",
                        one.id.span.clone(),
                        "the entrance has a chance below 1",
                        "may not exist",
                        "remove `chance:` from the entrance",
                    );
                }
                Some(one.id.value.clone())
            }
            [] => {
                self.d.error(
                    "flow::no-entrance",
                    self.flow.name.span.clone(),
                    format!("flow `{}` has no entrance", self.flow.name.value),
                    "no node has category `entrance`",
                    "add a node like `start: entrance` and make it the root of the tree edges",
                );
                None
            }
            many => {
                let mut diag = Diagnostic::error(
                    "flow::several-entrances",
                    format!(
                        "flow `{}` has {} entrances",
                        self.flow.name.value,
                        many.len()
                    ),
                )
                .in_file(&self.flow.file)
                .help("a flow has exactly one entrance; make the others `normal` or `hub`");
                for n in many {
                    diag = diag.label(n.id.span.clone(), "entrance");
                }
                self.d.diags.push(diag);
                None
            }
        }
    }

    /// Every node has at most one parent, and tree edges form no cycle.
    fn tree_shape(&mut self, ids: &BTreeSet<String>) -> BTreeMap<String, String> {
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        // Tree edges kept so far form a forest in which every part has one
        // root; `to` (which has no parent yet) is a root, so `from -> to`
        // closes a cycle exactly when both lie in one part.
        let index: HashMap<&str, usize> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        let mut parts = petgraph::unionfind::UnionFind::<usize>::new(ids.len());
        for e in &self.g.edges {
            if !ids.contains(&e.from.value) || !ids.contains(&e.to.value) {
                continue; // reported as undefined
            }
            if e.from.value == e.to.value {
                self.d.error(
                    "flow::self-edge",
                    e.to.span.clone(),
                    format!("node `{}` is its own child", e.from.value),
                    "edge to itself",
                    "remove this edge",
                );
                continue;
            }
            if let Some(p) = parent.get(&e.to.value) {
                self.d.error(
                    "flow::two-parents",
                    e.to.span.clone(),
                    format!("node `{}` already has parent `{p}`; a tree edge cannot give it a second one", e.to.value),
                    "second parent",
                    format!("move `{} -> {}` under `loops:` (two-way `<->` or one-way `->`)", e.from.value, e.to.value),
                );
                continue;
            }
            let (a, b) = (index[e.from.value.as_str()], index[e.to.value.as_str()]);
            if !parts.union(a, b) {
                self.d.error(
                    "flow::tree-cycle",
                    e.to.span.clone(),
                    format!(
                        "tree edge `{} -> {}` closes a cycle",
                        e.from.value, e.to.value
                    ),
                    "cycle in tree edges",
                    "loops must be marked as loops: move this edge under `loops:`",
                );
                continue;
            }
            parent.insert(e.to.value.clone(), e.from.value.clone());
        }
        parent
    }

    fn reachable(&mut self, entrance: &str, parent: &BTreeMap<String, String>) {
        let roots = lineage(
            parent,
            self.g.nodes.iter().map(|n| n.id.value.as_str()),
            |id| id,
            |_, root| root,
        );
        for n in &self.g.nodes {
            if roots.get(n.id.value.as_str()) != Some(&entrance) {
                self.d.error(
                    "flow::unreachable",
                    n.id.span.clone(),
                    format!(
                        "node `{}` is not reachable from the entrance `{entrance}`",
                        n.id.value
                    ),
                    "no tree path from the entrance",
                    format!(
                        "connect it with a tree edge, e.g. `- {entrance} -> {}`",
                        n.id.value
                    ),
                );
            }
        }
    }

    fn loops(&mut self) {
        let tree: BTreeSet<(&str, &str)> = self
            .g
            .edges
            .iter()
            .flat_map(|e| {
                [
                    (e.from.value.as_str(), e.to.value.as_str()),
                    (e.to.value.as_str(), e.from.value.as_str()),
                ]
            })
            .collect();
        for e in &self.g.loops {
            if e.from.value == e.to.value {
                self.d.error(
                    "flow::self-edge",
                    e.to.span.clone(),
                    format!("loop from `{}` to itself", e.from.value),
                    "loop to itself",
                    "a loop joins two different rooms",
                );
                continue;
            }
            for end in [&e.from, &e.to] {
                if let Some(n) = self.g.node(&end.value)
                    && matches!(n.kind, NodeKind::Selector { .. })
                {
                    self.d.error(
                        "flow::loop-to-selector",
                        end.span.clone(),
                        format!("`{}` is a selector, not a room", end.value),
                        "selector",
                        "attach the loop to one of the selector's children",
                    );
                }
            }
            if tree.contains(&(e.from.value.as_str(), e.to.value.as_str())) {
                self.d.warning("flow::loop-duplicates-edge", e.span.clone(), format!("loop `{} - {}` joins two rooms that a tree edge already joins", e.from.value, e.to.value), "second connection", "rooms next to each other need no loop; remove it unless two doors are intended");
            }
        }
    }

    /// Children of selector `id` that can be picked (weight above 0).
    fn weighted_children(&self, id: &str) -> u32 {
        self.children(id)
            .filter(|e| self.g.node(&e.to.value).is_some_and(|n| n.weight > 0.0))
            .count() as u32
    }

    fn children<'b>(&'b self, id: &'b str) -> impl Iterator<Item = &'b FlowEdge> + 'b {
        self.g.edges.iter().filter(move |e| e.from.value == id)
    }

    /// Refuses a flow that may expand to more than [`MAX_EXPANDED_ROOMS`]
    /// rooms: each chain counted at its longest, each injection entry at
    /// every placement (two rooms for a frame). Returns whether it is
    /// within the limit.
    fn size(&mut self) -> bool {
        let nodes: u64 = self
            .g
            .nodes
            .iter()
            .map(|n| match &n.kind {
                NodeKind::Room => 1,
                NodeKind::Chain(c) => u64::from(c.length.value.1),
                NodeKind::Selector { .. } => 0,
            })
            .sum();
        let injected: u64 = self
            .g
            .injections
            .iter()
            .flat_map(|g| &g.entries)
            .flat_map(|e| &e.placements)
            .map(|&(_, times)| 2 * u64::from(times))
            .sum();
        let most = nodes + injected;
        if most <= MAX_EXPANDED_ROOMS {
            return true;
        }
        self.d.error(
            "flow::too-many-rooms",
            self.flow.name.span.clone(),
            format!(
                "flow `{}` may expand to {most} rooms ({nodes} from its nodes and chains, {injected} from injections), over the limit of {MAX_EXPANDED_ROOMS}",
                self.flow.name.value
            ),
            "too large",
            "shorten chains (`chain: 1..N`), lower injection counts (`where: [end_of_chain x N]`), or split the level into stages",
        );
        false
    }

    fn selectors(&mut self) {
        for n in &self.g.nodes {
            let NodeKind::Selector { pick } = &n.kind else {
                continue;
            };
            let kids = self.children(&n.id.value).count() as u32;
            let weighted = self.weighted_children(&n.id.value);
            if kids == 0 {
                self.d.error(
                    "flow::empty-selector",
                    n.id.span.clone(),
                    format!("selector `{}` has no children", n.id.value),
                    "nothing to select",
                    "add tree edges from the selector to the alternatives",
                );
            } else if pick.value.0 > kids {
                self.d.error(
                    "flow::selector-too-many",
                    pick.span.clone(),
                    format!(
                        "selector `{}` must pick at least {} of only {kids} children",
                        n.id.value, pick.value.0
                    ),
                    "more than it has",
                    format!("pick at most {kids}"),
                );
            } else if pick.value.0 > weighted {
                self.d.error(
                    "flow::selector-zero-weights",
                    pick.span.clone(),
                    format!(
                        "selector `{}` must pick at least {} of its {kids} children, but only {weighted} weigh more than 0",
                        n.id.value, pick.value.0
                    ),
                    "cannot be met",
                    "give the children a positive `weight` (children of weight 0 are never picked), or lower the range",
                );
            } else if pick.value.1 >= kids && pick.value.0 >= kids {
                self.d.warning(
                    "flow::selector-picks-all",
                    pick.span.clone(),
                    format!("selector `{}` always picks all {kids} children", n.id.value),
                    "no choice",
                    "lower the range or remove the selector",
                );
            }
        }
    }

    fn keys(&mut self, parent: &BTreeMap<String, String>) {
        let mut holders: BTreeMap<&str, Vec<&FlowNode>> = BTreeMap::new();
        for n in &self.g.nodes {
            for k in &n.keys {
                holders.entry(k.value.as_str()).or_default().push(n);
            }
        }
        let mut locks: BTreeSet<&str> = BTreeSet::new();
        let locked: Vec<(&str, &Sp<String>)> = self
            .g
            .nodes
            .iter()
            .filter_map(|n| match &n.door {
                Door::Locked(Some(k)) => Some((n.id.value.as_str(), k)),
                _ => None,
            })
            .chain(
                self.g
                    .edges
                    .iter()
                    .chain(&self.g.loops)
                    .filter_map(|e| match &e.door {
                        Door::Locked(Some(k)) => Some((e.to.value.as_str(), k)),
                        _ => None,
                    }),
            )
            .collect();
        let ancestry = Ancestry::new(parent);
        for (behind, key) in locked {
            locks.insert(&key.value);
            for holder in holders.get(key.value.as_str()).into_iter().flatten() {
                if ancestry.within(holder.id.value.as_str(), behind) {
                    self.d.diags.push(
                        Diagnostic::error("flow::key-behind-lock", format!("key `{}` is behind its own lock", key.value))
                            .in_file(&self.flow.file)
                            .label(key.span.clone(), "this lock needs the key")
                            .label(holder.id.span.clone(), "which is placed in a room behind it")
                            .help("place the key in a room reachable before the lock (an ancestor), or leave `keys:` out to place it automatically"),
                    );
                }
            }
        }
        for (key, nodes) in holders {
            if !locks.contains(key) {
                for n in nodes {
                    let span = n
                        .keys
                        .iter()
                        .find(|k| k.value == key)
                        .map_or(n.id.span.clone(), |k| k.span.clone());
                    self.d.warning(
                        "flow::unused-key",
                        span,
                        format!("key `{key}` opens no lock"),
                        format!("no `lock: {key}` anywhere"),
                        "add `lock:` on the door it should open, or remove it",
                    );
                }
            }
        }
    }

    fn known_categories(&self) -> Vec<&'a str> {
        let mut known: Vec<&str> = category::BUILTIN.to_vec();
        known.extend(self.library.categories());
        known.extend(self.g.categories.iter().map(|c| c.value.as_str()));
        known.sort_unstable();
        known.dedup();
        known
    }

    fn check_category(&mut self, c: &Sp<String>) -> bool {
        let known = self.known_categories();
        if c.value.is_empty() {
            return false; // already reported as missing
        }
        if known.contains(&c.value.as_str()) {
            return true;
        }
        self.d.error(
            "flow::unknown-category",
            c.span.clone(),
            format!("unknown category `{}`", c.value),
            "no such category",
            format!(
                "{}; declare new ones under `categories:`",
                suggest(&c.value, &known)
            ),
        );
        false
    }

    fn check_template(&mut self, t: &Sp<String>, category: &str) -> bool {
        match self.library.get(&t.value) {
            Some(tpl) => {
                if tpl.category != category {
                    self.d.warning(
                        "flow::template-category",
                        t.span.clone(),
                        format!(
                            "template `{}` is a `{}` room, used for a `{category}` node",
                            t.value, tpl.category
                        ),
                        "category differs",
                        "check that this is the template you meant",
                    );
                }
                true
            }
            None => {
                let help = did_you_mean(&t.value, self.library.names()).unwrap_or_else(|| {
                    "run `dungeonflow validate` on your rooms folder, or fix the name".to_owned()
                });
                self.d.error(
                    "flow::unknown-template",
                    t.span.clone(),
                    format!("no room template is named `{}`", t.value),
                    "unknown template",
                    help,
                );
                false
            }
        }
    }

    fn check_pool(&mut self, pool: &[Sp<String>]) -> bool {
        let mut ok = true;
        for tag in pool {
            if !self.library.has_tag(&tag.value) {
                ok = false;
                self.d.error(
                    "flow::unknown-pool",
                    tag.span.clone(),
                    format!("no room template has the tag `{}`", tag.value),
                    "empty pool",
                    "tag some templates with it (`tags: [...]`) or fix the name",
                );
            }
        }
        ok
    }

    fn categories_and_templates(&mut self) {
        for n in &self.g.nodes {
            if matches!(n.kind, NodeKind::Selector { .. }) {
                continue;
            }
            if self.check_category(&n.category)
                && let Some(t) = &n.template
            {
                self.check_template(t, &n.category.value);
            }
            self.check_pool(&n.pool);
            if n.chance == 0.0 {
                self.d.warning(
                    "flow::never-exists",
                    n.id.span.clone(),
                    format!("node `{}` has chance 0 and never exists", n.id.value),
                    "chance 0",
                    "remove the node or raise its chance",
                );
            }
        }
    }

    /// Per node, the links it has besides its parent: tree children
    /// (a selector child counting as the most it can pick) and loops.
    fn outgoing(&self) -> HashMap<&'a str, usize> {
        let g: &'a FlowGraph = self.g;
        let by_id = nodes_by_id(g);
        let mut count: HashMap<&'a str, usize> = HashMap::new();
        for e in &g.edges {
            *count.entry(e.from.value.as_str()).or_default() +=
                match by_id.get(e.to.value.as_str()).map(|n| &n.kind) {
                    Some(NodeKind::Selector { pick }) => pick.value.1 as usize,
                    _ => 1,
                };
        }
        for e in &g.loops {
            *count.entry(e.from.value.as_str()).or_default() += 1;
            if e.to.value != e.from.value {
                *count.entry(e.to.value.as_str()).or_default() += 1;
            }
        }
        count
    }

    fn degrees(&mut self) {
        let has_parent: BTreeSet<&str> = self.g.edges.iter().map(|e| e.to.value.as_str()).collect();
        let outgoing = self.outgoing();
        let known = self.known_categories();
        for n in &self.g.nodes {
            let (needs_parent, outgoing) = (
                has_parent.contains(n.id.value.as_str()),
                outgoing.get(n.id.value.as_str()).copied().unwrap_or(0),
            );
            let requirements: Vec<(bool, usize)> = match &n.kind {
                NodeKind::Selector { .. } => continue,
                NodeKind::Chain(c) if !c.rules.is_empty() => continue,
                NodeKind::Chain(c) if c.length.value.1 >= 2 => {
                    vec![(needs_parent, 1), (true, outgoing)]
                }
                _ => vec![(needs_parent, outgoing)],
            };
            if n.category.value == "connector" || !known.contains(&n.category.value.as_str()) {
                continue;
            }
            let pool: Vec<String> = n.pool.iter().map(|p| p.value.clone()).collect();
            if pool.iter().any(|t| !self.library.has_tag(t)) {
                continue; // reported as an unknown pool
            }
            let candidates = self.templates_of(n);
            if candidates.is_empty() {
                if n.template.is_none() && !n.optional {
                    self.d.error(
                        "flow::no-template",
                        n.category.span.clone(),
                        format!(
                            "no room template has category `{}`{}",
                            n.category.value,
                            if pool.is_empty() {
                                String::new()
                            } else {
                                format!(" and one of the tags {}", pool.join(", "))
                            }
                        ),
                        "nothing to build this room from",
                        self.no_template_help(),
                    );
                }
                continue;
            }
            for (p, out) in requirements {
                if !candidates.iter().any(|t| t.fits_degree(p, out)) {
                    let need = out + usize::from(p);
                    let most = candidates
                        .iter()
                        .map(|t| t.usable_exits())
                        .max()
                        .unwrap_or(0);
                    self.d.error(
                        "flow::not-enough-exits",
                        n.id.span.clone(),
                        format!("node `{}` needs a room of category `{}` with {need} usable exits, but the best template has {most}", n.id.value, n.category.value),
                        format!("{need} connections"),
                        "add a template with more exits, move some edges to another node, or insert a hub",
                    );
                    break;
                }
            }
        }
    }

    /// A door joins two exits of one width, and so does a corridor. A room
    /// node whose every template lacks exits of the widths its linked rooms'
    /// templates have (one exit per link, one per exit group) can never be
    /// joined to all of them: refused here rather than after every layout
    /// attempt. Only room nodes linked to room nodes are checked (a chain's
    /// or a connector's rooms are chosen later).
    fn exit_widths(&mut self) {
        let by_id = nodes_by_id(self.g);
        let plain = |id: &str| {
            by_id.get(id).filter(|n| {
                matches!(n.kind, NodeKind::Room) && n.category.value != "connector" && !n.optional
            })
        };
        let mut links: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for e in self.g.edges.iter().chain(&self.g.loops) {
            let (a, b) = (e.from.value.as_str(), e.to.value.as_str());
            if a != b && plain(a).is_some() && plain(b).is_some() {
                links.entry(a).or_default().push(b);
                links.entry(b).or_default().push(a);
            }
        }
        // The exit widths each linked node's templates have, once per node.
        let widths: BTreeMap<&str, BTreeSet<usize>> = links
            .keys()
            .map(|&id| {
                let templates = self.templates_of(plain(id).expect("a room node"));
                let w = templates
                    .iter()
                    .flat_map(|t| t.exits.iter().map(|e| e.width()))
                    .collect();
                (id, w)
            })
            .collect();
        for (id, others) in &links {
            let n = plain(id).expect("a room node");
            let own = self.templates_of(n);
            let wanted: Vec<&BTreeSet<usize>> = others.iter().map(|o| &widths[o]).collect();
            // No template at all, or none with exits enough whatever their
            // widths: reported by `degrees`.
            if wanted.iter().any(|w| w.is_empty())
                || !own.iter().any(|t| t.usable_exits() >= others.len())
            {
                continue;
            }
            if own.iter().any(|t| serves_widths(t, &wanted)) {
                continue;
            }
            let needs: Vec<String> = others
                .iter()
                .zip(&wanted)
                .map(|(o, w)| {
                    let w: Vec<String> = w.iter().map(usize::to_string).collect();
                    format!("`{o}` ({} wide)", w.join(" or "))
                })
                .collect();
            self.d.error(
                "flow::exit-widths",
                n.id.span.clone(),
                format!(
                    "no template of node `{}` has exits of the widths its {} links need: {}",
                    n.id.value,
                    others.len(),
                    needs.join(", ")
                ),
                "cannot be joined to all its rooms",
                "a door or a corridor joins two exits of the same width: give this room's templates (or its neighbours') exits of matching widths",
            );
        }
    }

    /// How to give a node a template: draw one, make the node optional, or
    /// (in a project without the bundled rooms) ask for the bundled ones.
    fn no_template_help(&self) -> &'static str {
        let has_bundled = self
            .library
            .templates()
            .iter()
            .any(|t| t.origin.file.is_bundled());
        if has_bundled {
            "add a template of this category to `rooms/`, or mark the node `optional: true`"
        } else {
            "add a template of this category to `rooms/`, mark the node `optional: true`, or draw from the bundled rooms (`bundled: true` in the project's `dungeonflow.yaml`, or `--bundled`)"
        }
    }

    /// The templates a room of `n` may be drawn from: its `template:`, else
    /// those of its category and pool.
    fn templates_of(&self, n: &FlowNode) -> Vec<&'a RoomTemplate> {
        let pool: Vec<String> = n.pool.iter().map(|p| p.value.clone()).collect();
        self.library.choices(
            &n.category.value,
            &pool,
            n.template.as_ref().map(|t| t.value.as_str()),
        )
    }

    /// Warns about a node's `markers:` that its templates cannot give: a kind
    /// none of them draws, or more than the most any of them has.
    fn marker_counts(&mut self) {
        for n in &self.g.nodes {
            if n.markers.is_empty() || matches!(n.kind, NodeKind::Selector { .. }) {
                continue;
            }
            let candidates = self.templates_of(n);
            if candidates.is_empty() {
                continue; // reported with the templates
            }
            for m in &n.markers {
                let most = candidates
                    .iter()
                    .map(|t| t.markers.iter().filter(|k| k.kind == m.kind.value).count())
                    .max()
                    .unwrap_or(0);
                let least_asked = m.count.value.0 as usize;
                if most == 0 {
                    self.d.warning(
                        "flow::unknown-marker",
                        m.kind.span.clone(),
                        format!(
                            "node `{}` asks for `{}` markers, but no template it may use draws one",
                            n.id.value, m.kind.value
                        ),
                        "no template has this marker",
                        format!(
                            "draw them in a template's art with a legend entry like `e: {{ marker: {} }}`",
                            m.kind.value
                        ),
                    );
                } else if most < least_asked {
                    self.d.warning(
                        "flow::few-markers",
                        m.count.span.clone(),
                        format!(
                            "node `{}` asks for at least {least_asked} `{}` markers, but its templates draw at most {most}",
                            n.id.value, m.kind.value
                        ),
                        format!("at most {most}"),
                        "a room keeps all of its markers when it has fewer than asked: draw more, or ask for fewer",
                    );
                }
            }
        }
    }

    /// The rooms every expansion keeps (no chance below 1, not optional,
    /// under no selector) and the edges between them must be drawable
    /// without crossing passages: a non-planar part is in every level, so
    /// none can be laid out. A chain counts as one room (the drawing of its
    /// line contracts to one).
    fn drawable(&mut self, parent: &BTreeMap<String, String>) {
        let kept = |n: &FlowNode| {
            !matches!(n.kind, NodeKind::Selector { .. }) && n.chance >= 1.0 && !n.optional
        };
        let by_id = nodes_by_id(self.g);
        let kept_line = lineage(
            parent,
            self.g.nodes.iter().map(|n| n.id.value.as_str()),
            |id| by_id.get(id).is_none_or(|n| kept(n)),
            |own, up| own && *up,
        );
        let always: Vec<&FlowNode> = self
            .g
            .nodes
            .iter()
            .filter(|n| kept_line.get(n.id.value.as_str()) == Some(&true))
            .collect();
        let index: BTreeMap<&str, usize> = always
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.value.as_str(), i))
            .collect();
        let edges: Vec<(usize, usize)> = self
            .g
            .edges
            .iter()
            .chain(&self.g.loops)
            .filter_map(|e| {
                Some((
                    *index.get(e.from.value.as_str())?,
                    *index.get(e.to.value.as_str())?,
                ))
            })
            .collect();
        let Some(crossing) = crate::graph::crossing(always.len(), &edges) else {
            return;
        };
        let name = |i: usize| always[i].id.value.clone();
        let loops: Vec<String> = self
            .g
            .loops
            .iter()
            .filter(|e| {
                let ends = (index.get(e.from.value.as_str()), index.get(e.to.value.as_str()));
                matches!(ends, (Some(&a), Some(&b)) if crossing.edges.contains(&(a.min(b), a.max(b))))
            })
            .map(|e| format!("`{} - {}`", e.from.value, e.to.value))
            .collect();
        let help = if loops.is_empty() {
            "move one of these rooms' edges to another room, or make one of them optional (`chance:` below 1)".to_owned()
        } else {
            format!("remove or move one of the loops {}", loops.join(", "))
        };
        let mut d = Diagnostic::error(
            "flow::non-planar",
            format!(
                "flow `{}` cannot be laid out: {}",
                self.flow.name.value,
                crossing.describe(name)
            ),
        )
        .in_file(&self.flow.file)
        .help(help);
        for (&r, label) in crossing.rooms.iter().zip(crossing.labels()) {
            d = d.label(always[r].id.span.clone(), label);
        }
        self.d.diags.push(d);
    }

    fn injections(&mut self) {
        let has = |c: &str| self.g.nodes.iter().any(|n| n.category.value == c);
        let (has_boss, has_hub) = (has("boss"), has("hub"));
        for group in &self.g.injections {
            for inj in &group.entries {
                if self.check_category(&inj.room.category)
                    && let Some(t) = &inj.room.template
                {
                    self.check_template(t, &inj.room.category.value);
                }
                self.check_pool(&inj.room.pool);
                for (p, _) in &inj.placements {
                    let missing = match p {
                        Placement::AfterBoss if !has_boss => Some("boss"),
                        Placement::HubAdjacentChainStart | Placement::HubAdjacentNoLink
                            if !has_hub =>
                        {
                            Some("hub")
                        }
                        _ => None,
                    };
                    if let Some(c) = missing {
                        self.d.warning(
                            "flow::placement-never-fits",
                            inj.span.clone(),
                            format!(
                                "injection `{}` may be placed `{}` but the flow has no {c} room",
                                inj.name.value,
                                p.name()
                            ),
                            "cannot be placed there",
                            format!("add a {c} node or another placement"),
                        );
                    }
                }
                if inj.chance == 0.0 {
                    self.d.warning(
                        "flow::never-exists",
                        inj.span.clone(),
                        format!("injection `{}` has chance 0", inj.name.value),
                        "never spawns",
                        "remove it or raise `chance:`",
                    );
                }
            }
        }
    }

    fn warnings(&mut self) {
        if !self
            .g
            .nodes
            .iter()
            .any(|n| n.category.value == "boss" || n.category.value == "exit")
        {
            self.d.warning(
                "flow::no-goal",
                self.flow.name.span.clone(),
                format!(
                    "flow `{}` has neither a boss nor an exit room",
                    self.flow.name.value
                ),
                "no goal",
                "add a `boss` or `exit` node so the level has an end",
            );
        }
    }
}

/// Whether template `t` has an exit for each link (each of a width in its
/// set), one per exit group: a matching of links to exits found by
/// augmenting paths (a room has few of either).
fn serves_widths(t: &RoomTemplate, wanted: &[&BTreeSet<usize>]) -> bool {
    // Slots: each exit group, and each exit of no group, with its widths.
    let mut slots: Vec<BTreeSet<usize>> = Vec::new();
    let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &t.exits {
        match &e.group {
            Some(g) => {
                let i = *groups.entry(g).or_insert_with(|| {
                    slots.push(BTreeSet::new());
                    slots.len() - 1
                });
                slots[i].insert(e.width());
            }
            None => slots.push(BTreeSet::from([e.width()])),
        }
    }
    let fits = |link: usize, slot: usize| !wanted[link].is_disjoint(&slots[slot]);
    let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
    fn augment(
        link: usize,
        seen: &mut [bool],
        owner: &mut [Option<usize>],
        fits: &dyn Fn(usize, usize) -> bool,
    ) -> bool {
        for slot in 0..owner.len() {
            if fits(link, slot) && !seen[slot] {
                seen[slot] = true;
                if owner[slot].is_none_or(|other| augment(other, seen, owner, fits)) {
                    owner[slot] = Some(link);
                    return true;
                }
            }
        }
        false
    }
    (0..wanted.len()).all(|link| augment(link, &mut vec![false; slots.len()], &mut owner, &fits))
}

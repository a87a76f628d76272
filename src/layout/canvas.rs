//! A canvas: rooms and corridors placed on one tile grid, with the spatial
//! index that makes overlap checks cheap.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use petgraph::graph::{EdgeIndex, NodeIndex};

use super::shape::Shape;
use crate::geom::Pos;

const BUCKET: i32 = 32;

/// A room placed on a canvas.
#[derive(Clone, Debug)]
pub struct PlacedRoom {
    /// The level-graph node.
    pub node: NodeIndex,
    /// Index into the shape table.
    pub shape: usize,
    /// Top-left corner of the template art.
    pub pos: Pos,
    /// Which exits are used.
    pub used: Vec<bool>,
}

/// How a connection was realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// The two rooms' exits touch.
    Door,
    /// A corridor runs between the exits.
    Corridor,
}

/// A realised edge of the level graph.
#[derive(Clone, Debug)]
pub struct Link {
    /// The level-graph edge.
    pub edge: EdgeIndex,
    /// Door or corridor.
    pub kind: LinkKind,
    /// Exit cell of the edge's source room, corridor tiles, exit cell of the target room.
    pub path: Vec<Pos>,
}

/// Rooms and corridors on one grid.
#[derive(Clone, Debug, Default)]
pub struct Canvas {
    /// Placed rooms.
    pub rooms: Vec<PlacedRoom>,
    /// Realised connections.
    pub links: Vec<Link>,
    /// Corridor tiles.
    pub corridor: HashSet<Pos>,
    buckets: HashMap<(i32, i32), Vec<u32>>,
    /// Room, corridor and hall-ring tiles as bits: one 32x32 block per
    /// bucket, a `u32` per row and layer. Rooms never overlap and corridor
    /// and ring tiles are logged once each, so every bit has one owner to
    /// clear it.
    solid: HashMap<(i32, i32), Block>,
    by_node: HashMap<NodeIndex, usize>,
    done: HashSet<EdgeIndex>,
    corridor_log: Vec<Pos>,
    /// Exits flagged used by [`Canvas::use_exit`], in order, for rollback.
    used_log: Vec<(usize, usize)>,
    /// Tiles around hall floors, where no corridor may run (it would open
    /// the hall onto another connection), in the order added; the ring
    /// layer of `solid` holds the same tiles.
    ring_log: Vec<Pos>,
}

/// One 32x32 block of tiles, a `u32` per row in each layer.
#[derive(Clone, Copy, Debug)]
struct Block {
    room: [u32; BUCKET as usize],
    corridor: [u32; BUCKET as usize],
    ring: [u32; BUCKET as usize],
}

impl Block {
    const EMPTY: Block = Block {
        room: [0; BUCKET as usize],
        corridor: [0; BUCKET as usize],
        ring: [0; BUCKET as usize],
    };
}

/// Layer bits returned by `Canvas::layers_at`.
const ROOM: u8 = 1;
const CORRIDOR: u8 = 2;
const RING: u8 = 4;

/// The layers of a [`Block`] set tile by tile.
#[derive(Clone, Copy)]
enum Layer {
    Corridor,
    Ring,
}

/// Block of a tile, and its row and column bit in the block.
fn block_of(p: Pos) -> ((i32, i32), usize, u32) {
    (
        (p.x.div_euclid(BUCKET), p.y.div_euclid(BUCKET)),
        p.y.rem_euclid(BUCKET) as usize,
        1 << p.x.rem_euclid(BUCKET),
    )
}

/// A point to roll a canvas back to (by default, the empty canvas).
#[derive(Clone, Copy, Debug, Default)]
pub struct Mark {
    rooms: usize,
    links: usize,
    corridor: usize,
    used: usize,
    rings: usize,
}

fn bucket_range(pos: Pos, w: i32, h: i32) -> impl Iterator<Item = (i32, i32)> {
    let (x0, y0) = (pos.x.div_euclid(BUCKET), pos.y.div_euclid(BUCKET));
    let (x1, y1) = (
        (pos.x + w - 1).div_euclid(BUCKET),
        (pos.y + h - 1).div_euclid(BUCKET),
    );
    (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| (x, y)))
}

/// The blocks of the grid that the box of `shape` at `pos` meets, each
/// with the rows of the shape inside it; [`BlockPart::masks`] gives the bits.
fn blocks(shape: &Shape, pos: Pos) -> impl Iterator<Item = BlockPart> {
    let (x0, x1) = (
        pos.x.div_euclid(BUCKET),
        (pos.x + shape.width - 1).div_euclid(BUCKET),
    );
    let (y0, y1) = (
        pos.y.div_euclid(BUCKET),
        (pos.y + shape.height - 1).div_euclid(BUCKET),
    );
    (y0..=y1).flat_map(move |by| {
        (x0..=x1).map(move |bx| BlockPart {
            block: (bx, by),
            start: bx * BUCKET - pos.x,
            rows: (by * BUCKET - pos.y).max(0)..((by + 1) * BUCKET - pos.y).min(shape.height),
            first_row: by * BUCKET - pos.y,
        })
    })
}

/// Where a shape meets one block of the grid.
struct BlockPart {
    block: (i32, i32),
    /// Column of the shape at the block's first column (negative when the
    /// shape starts inside the block).
    start: i32,
    /// Rows of the shape inside the block.
    rows: std::ops::Range<i32>,
    /// Row of the shape at the block's first row.
    first_row: i32,
}

impl BlockPart {
    /// For each row of the shape inside the block: the block's row index
    /// and the bits of the shape's solid tiles there.
    fn masks<'s>(&self, shape: &'s Shape) -> impl Iterator<Item = (usize, u32)> + 's {
        let (start, first_row) = (self.start, self.first_row);
        self.rows.clone().filter_map(move |y| {
            let bits = shape.rows[y as usize];
            let mask = if start >= 0 {
                bits.checked_shr(start as u32).unwrap_or(0) as u32
            } else {
                (bits << (-start) as u32) as u32
            };
            (mask != 0).then_some(((y - first_row) as usize, mask))
        })
    }
}

impl Canvas {
    /// The room placed for `node`.
    pub fn room_of(&self, node: NodeIndex) -> Option<&PlacedRoom> {
        self.by_node.get(&node).map(|&i| &self.rooms[i])
    }

    /// Index of the room placed for `node`.
    pub fn index_of(&self, node: NodeIndex) -> Option<usize> {
        self.by_node.get(&node).copied()
    }

    /// Whether `shape` at `pos` overlaps nothing on the canvas.
    pub fn fits(&self, shape: &Shape, pos: Pos) -> bool {
        blocks(shape, pos).all(|part| {
            self.solid.get(&part.block).is_none_or(|b| {
                part.masks(shape)
                    .all(|(row, mask)| (b.room[row] | b.corridor[row]) & mask == 0)
            })
        })
    }

    /// Indices of rooms whose bounding box meets the box `pos`..`pos + size`.
    pub fn rooms_near(&self, shapes: &[Shape], pos: Pos, w: i32, h: i32) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for b in bucket_range(pos, w, h) {
            for &ri in self.buckets.get(&b).map_or(&[][..], Vec::as_slice) {
                let r = &self.rooms[ri as usize];
                let s = &shapes[r.shape];
                let meets = r.pos.x < pos.x + w
                    && pos.x < r.pos.x + s.width
                    && r.pos.y < pos.y + h
                    && pos.y < r.pos.y + s.height;
                if meets && !out.contains(&(ri as usize)) {
                    out.push(ri as usize);
                }
            }
        }
        out
    }

    /// Whether a tile is inside any room's footprint.
    pub fn is_room_tile(&self, p: Pos) -> bool {
        self.layers_at(p) & ROOM != 0
    }

    /// Whether a tile is a corridor tile (or a hall's floor).
    pub fn is_corridor(&self, p: Pos) -> bool {
        self.layers_at(p) & CORRIDOR != 0
    }

    /// Whether a tile is neither room nor corridor.
    pub fn is_clear(&self, p: Pos) -> bool {
        self.layers_at(p) & (ROOM | CORRIDOR) == 0
    }

    /// Whether no tile of the rectangle from `lo` to `hi` (inclusive) is a
    /// room or corridor tile: one block lookup per row and block, not per tile.
    pub fn area_clear(&self, lo: Pos, hi: Pos) -> bool {
        (lo.y..=hi.y).all(|y| {
            let mut x = lo.x;
            while x <= hi.x {
                let (block, row, first) = block_of(Pos::new(x, y));
                // Columns of this block within the span, as bits.
                let last = (x - x.rem_euclid(BUCKET) + BUCKET - 1).min(hi.x);
                let span = (last - x + 1) as u32;
                let mask = if span == 32 {
                    u32::MAX
                } else {
                    ((1u32 << span) - 1) * first
                };
                if let Some(b) = self.solid.get(&block)
                    && (b.room[row] | b.corridor[row]) & mask != 0
                {
                    return false;
                }
                x = last + 1;
            }
            true
        })
    }

    /// The layers holding tile `p`, as [`ROOM`], [`CORRIDOR`] and [`RING`] bits.
    fn layers_at(&self, p: Pos) -> u8 {
        let (block, row, bit) = block_of(p);
        self.solid.get(&block).map_or(0, |b| {
            let on = |rows: &[u32; BUCKET as usize]| u8::from(rows[row] & bit != 0);
            (on(&b.room) * ROOM) | (on(&b.corridor) * CORRIDOR) | (on(&b.ring) * RING)
        })
    }

    /// Sets (or clears) one tile's bit in a layer.
    fn mark_tile(&mut self, p: Pos, layer: Layer, on: bool) {
        let (block, row, bit) = block_of(p);
        let b = self.solid.entry(block).or_insert(Block::EMPTY);
        let rows = match layer {
            Layer::Corridor => &mut b.corridor,
            Layer::Ring => &mut b.ring,
        };
        if on {
            rows[row] |= bit;
        } else {
            rows[row] &= !bit;
        }
    }

    /// Sets (or clears) the bits of a room's footprint.
    fn paint(&mut self, shape: &Shape, pos: Pos, on: bool) {
        for part in blocks(shape, pos) {
            let rows = &mut self.solid.entry(part.block).or_insert(Block::EMPTY).room;
            for (row, mask) in part.masks(shape) {
                if on {
                    rows[row] |= mask;
                } else {
                    rows[row] &= !mask;
                }
            }
        }
    }

    /// Places a room (the caller checked that it fits).
    pub fn add_room(&mut self, shapes: &[Shape], node: NodeIndex, shape: usize, pos: Pos) -> usize {
        let i = self.rooms.len();
        let s = &shapes[shape];
        for b in bucket_range(pos, s.width, s.height) {
            self.buckets.entry(b).or_default().push(i as u32);
        }
        self.paint(s, pos, true);
        self.rooms.push(PlacedRoom {
            node,
            shape,
            pos,
            used: vec![false; s.exits.len()],
        });
        self.by_node.insert(node, i);
        i
    }

    /// Removes the most recently placed room (for back-tracking).
    pub fn pop_room(&mut self, shapes: &[Shape]) {
        let Some(r) = self.rooms.pop() else { return };
        let i = self.rooms.len() as u32;
        let s = &shapes[r.shape];
        for b in bucket_range(r.pos, s.width, s.height) {
            if let Some(list) = self.buckets.get_mut(&b) {
                list.retain(|x| *x != i);
            }
        }
        self.paint(s, r.pos, false);
        self.by_node.remove(&r.node);
    }

    /// Records a realised edge.
    pub fn add_link(&mut self, link: Link) {
        self.done.insert(link.edge);
        self.links.push(link);
    }

    /// Forgets the most recent links down to `len`.
    fn truncate_links(&mut self, len: usize) {
        for l in self.links.drain(len..) {
            self.done.remove(&l.edge);
        }
    }

    /// Whether `edge` is realised on this canvas.
    pub fn realised(&self, edge: EdgeIndex) -> bool {
        self.done.contains(&edge)
    }

    /// Adds corridor tiles.
    pub fn add_corridor(&mut self, tiles: &[Pos]) {
        for &t in tiles {
            if self.corridor.insert(t) {
                self.corridor_log.push(t);
                self.mark_tile(t, Layer::Corridor, true);
            }
        }
    }

    /// The rooms placed since `mark` was taken.
    pub fn rooms_since(&self, mark: Mark) -> &[PlacedRoom] {
        &self.rooms[mark.rooms.min(self.rooms.len())..]
    }

    /// The current state, to [`Self::rollback`] to.
    pub fn mark(&self) -> Mark {
        Mark {
            rooms: self.rooms.len(),
            links: self.links.len(),
            corridor: self.corridor_log.len(),
            used: self.used_log.len(),
            rings: self.ring_log.len(),
        }
    }

    /// Flags exit `exit` of room `room` used (undone by [`Self::rollback`]).
    pub fn use_exit(&mut self, room: usize, exit: usize) {
        if !self.rooms[room].used[exit] {
            self.rooms[room].used[exit] = true;
            self.used_log.push((room, exit));
        }
    }

    /// Removes every room, link, corridor tile and hall ring added, and
    /// clears every exit flag set, since `mark`.
    pub fn rollback(&mut self, shapes: &[Shape], mark: Mark) {
        while self.rooms.len() > mark.rooms {
            self.pop_room(shapes);
        }
        for (room, exit) in self.used_log.drain(mark.used..) {
            if let Some(r) = self.rooms.get_mut(room) {
                r.used[exit] = false;
            }
        }
        self.truncate_links(mark.links);
        for t in self.corridor_log.split_off(mark.corridor) {
            self.corridor.remove(&t);
            self.mark_tile(t, Layer::Corridor, false);
        }
        for t in self.ring_log.split_off(mark.rings) {
            self.mark_tile(t, Layer::Ring, false);
        }
    }

    /// Keeps corridors off `ring`, the tiles around a hall's floor.
    pub fn ring_hall(&mut self, ring: &[Pos]) {
        for &t in ring {
            if !self.beside_hall(t) {
                self.ring_log.push(t);
                self.mark_tile(t, Layer::Ring, true);
            }
        }
    }

    /// Whether `p` is next to a hall's floor (no corridor may run there).
    pub fn beside_hall(&self, p: Pos) -> bool {
        self.layers_at(p) & RING != 0
    }

    /// Whether a corridor (or a hall's floor) may take tile `p`: no room,
    /// no corridor, and not beside a hall.
    pub fn corridor_may_run(&self, p: Pos) -> bool {
        self.layers_at(p) == 0
    }

    /// Bounding box of everything: (min, max) inclusive, or `None` when empty.
    pub fn bounds(&self, shapes: &[Shape]) -> Option<(Pos, Pos)> {
        let mut it = self
            .rooms
            .iter()
            .flat_map(|r| {
                let s = &shapes[r.shape];
                [
                    r.pos,
                    Pos::new(r.pos.x + s.width - 1, r.pos.y + s.height - 1),
                ]
            })
            .chain(self.corridor.iter().copied());
        let first = it.next()?;
        Some(it.fold((first, first), |(lo, hi), p| {
            (
                Pos::new(lo.x.min(p.x), lo.y.min(p.y)),
                Pos::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        }))
    }

    /// Whether all of `other`, moved by `offset`, fits on this canvas.
    pub fn fits_canvas(&self, shapes: &[Shape], other: &Canvas, offset: Pos) -> bool {
        other.rooms.iter().all(|r| {
            self.fits(
                &shapes[r.shape],
                Pos::new(r.pos.x + offset.x, r.pos.y + offset.y),
            )
        }) && other
            .corridor
            .iter()
            .all(|c| self.corridor_may_run(Pos::new(c.x + offset.x, c.y + offset.y)))
            && other
                .ring_log
                .iter()
                .all(|c| !self.is_corridor(Pos::new(c.x + offset.x, c.y + offset.y)))
    }

    /// Copies `other` onto this canvas, moved by `offset`.
    pub fn merge(&mut self, shapes: &[Shape], other: &Canvas, offset: Pos) {
        let shift = |p: Pos| Pos::new(p.x + offset.x, p.y + offset.y);
        for r in &other.rooms {
            let i = self.add_room(shapes, r.node, r.shape, shift(r.pos));
            self.rooms[i].used.clone_from(&r.used);
        }
        for l in &other.links {
            self.add_link(Link {
                edge: l.edge,
                kind: l.kind,
                path: l.path.iter().map(|&p| shift(p)).collect(),
            });
        }
        let tiles: Vec<Pos> = other.corridor_log.iter().map(|&p| shift(p)).collect();
        self.add_corridor(&tiles);
        let ring: Vec<Pos> = other.ring_log.iter().map(|&p| shift(p)).collect();
        self.ring_hall(&ring);
    }
}

//! Layout: a flow that cannot be laid out ends with a diagnostic naming the
//! stage and the node, within its budget.

use dungeonflow::Project;
use dungeonflow::SourceFile;
use dungeonflow::generate::generate;
use dungeonflow::project::{FileKind, Source};

#[test]
fn an_impossible_layout_ends_with_a_diagnostic() {
    // Both rooms open only to the north: the child cannot face its parent.
    let rooms = "rooms:\n  - name: up_entrance\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      #####\n  - name: up_room\n    category: normal\n    art: |\n      ##A##\n      #...#\n      #####\n";
    let flow =
        "name: stuck\nnodes:\n  start: entrance\n  next: normal\nedges:\n  - start -> next\n";
    let project = Project::from_layers(vec![vec![
        Source {
            file: SourceFile::new("rooms.yaml", rooms),
            kind: FileKind::Room,
            bundled: false,
        },
        Source {
            file: SourceFile::new("stuck.yaml", flow),
            kind: FileKind::Flow,
            bundled: false,
        },
    ]]);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    let d = generate(
        project.flow("stuck").expect("flow"),
        &project.library,
        0,
        &Default::default(),
    )
    .expect_err("impossible");
    assert_eq!(d.code, "layout::failed");
    assert!(d.message.contains("stage"), "{}", d.message);
    assert!(
        d.labels.first().is_some_and(|l| l.text.contains("next")),
        "{d:?}"
    );
}

#[test]
fn rollback_clears_the_exit_flags_set_since_the_mark() {
    use dungeonflow::geom::Pos;
    use dungeonflow::layout::{Canvas, ShapeTable};
    use petgraph::graph::NodeIndex;

    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let shape = table
        .shapes
        .iter()
        .position(|s| s.exits.len() >= 2)
        .expect("a template with two exits");
    let far = Pos::new(100, 100);
    let mut canvas = Canvas::default();
    let first = canvas.add_room(&table.shapes, NodeIndex::new(0), shape, Pos::new(0, 0));
    canvas.use_exit(first, 0);
    let mark = canvas.mark();
    canvas.use_exit(first, 1);
    canvas.use_exit(first, 0);
    let second = canvas.add_room(&table.shapes, NodeIndex::new(1), shape, far);
    canvas.use_exit(second, 0);
    canvas.rollback(&table.shapes, mark);
    assert_eq!(canvas.rooms.len(), 1);
    assert!(canvas.rooms[first].used[0], "set before the mark: kept");
    assert!(!canvas.rooms[first].used[1], "set after the mark: cleared");
    assert!(canvas.index_of(NodeIndex::new(1)).is_none());
}

#[test]
fn the_tile_bitmap_agrees_with_the_footprints_through_adds_and_rollbacks() {
    use dungeonflow::geom::Pos;
    use dungeonflow::layout::{Canvas, ShapeTable};
    use dungeonflow::rng::Rng;
    use petgraph::graph::NodeIndex;

    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let shapes = &table.shapes;
    let mut rng = Rng::new(7);
    let mut canvas = Canvas::default();
    let mut marks = Vec::new();
    for step in 0..400 {
        if step % 10 == 9 && !marks.is_empty() {
            // Back to a random earlier state; later marks are gone with it.
            let i = marks.len() - 1 - rng.index(marks.len().min(3));
            canvas.rollback(shapes, marks[i]);
            marks.truncate(i);
            continue;
        }
        let s = rng.index(shapes.len());
        // Negative and positive coordinates, across block borders.
        let pos = Pos::new(rng.index(160) as i32 - 80, rng.index(160) as i32 - 80);
        let fits = canvas.fits(&shapes[s], pos);
        let overlaps = canvas.rooms.iter().any(|r| {
            shapes[r.shape].footprint.iter().any(|c| {
                let p = Pos::new(r.pos.x + c.x, r.pos.y + c.y);
                shapes[s]
                    .footprint
                    .contains(&Pos::new(p.x - pos.x, p.y - pos.y))
            })
        });
        assert_eq!(
            fits, !overlaps,
            "step {step}: fits disagrees with the footprints"
        );
        if fits {
            marks.push(canvas.mark());
            canvas.add_room(shapes, NodeIndex::new(step), s, pos);
        }
    }
    for y in -100..100 {
        for x in -100..100 {
            let p = Pos::new(x, y);
            let truth = canvas.rooms.iter().any(|r| {
                shapes[r.shape]
                    .footprint
                    .contains(&Pos::new(x - r.pos.x, y - r.pos.y))
            });
            assert_eq!(canvas.is_room_tile(p), truth, "tile ({x}, {y})");
        }
    }
    assert!(canvas.rooms.len() >= 5, "only {} rooms", canvas.rooms.len());
}

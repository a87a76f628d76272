//! A two-room project for unit tests of layout steps: a host open only to
//! the east (`h`, entrance) and a guest open only to the west (`g`), joined
//! by one edge. The guest's category has two templates with the same door:
//! `guest` (5 tiles wide) and `nook` (4 tiles wide).

use petgraph::graph::NodeIndex;

use super::ShapeTable;
use super::context::{Ctx, Join};
use crate::SourceFile;
use crate::flow::LayoutParams;
use crate::graph::LevelGraph;
use crate::project::{FileKind, Project, Source};
use crate::rng::Rng;

const ROOMS: &str = "rooms:\n  - name: host\n    category: entrance\n    art: |\n      #####\n      #...#\n      #...A\n      #...#\n      #####\n  - name: guest\n    category: normal\n    art: |\n      #####\n      #...#\n      A...#\n      #...#\n      #####\n  - name: nook\n    category: normal\n    art: |\n      ####\n      #..#\n      A..#\n      #..#\n      ####\n";

const FLOW: &str = "name: pair\nnodes:\n  h: entrance\n  g: normal\nedges:\n  - h -> g\n";

/// The project, its expanded graph and what a layout context needs.
pub struct Fixture {
    pub project: Project,
    pub level: LevelGraph,
    pub table: ShapeTable,
    pub params: LayoutParams,
}

impl Fixture {
    /// The two-room project.
    pub fn new() -> Self {
        Self::with(ROOMS, FLOW)
    }

    /// Another small project: room templates `rooms` and a flow `flow`
    /// (whose host is `h` and guest `g`).
    pub fn with(rooms: &str, flow: &str) -> Self {
        let source = |name: &str, text: &str, kind| Source {
            file: SourceFile::new(name, text),
            kind,
            bundled: false,
        };
        let project = Project::from_layers(vec![vec![
            source("rooms.yaml", rooms, FileKind::Room),
            source("flow.yaml", flow, FileKind::Flow),
        ]]);
        assert!(!project.has_errors(), "{:?}", project.diagnostics);
        let flow = project.flows.values().next().expect("a flow");
        let level =
            crate::expand::expand(flow, &project.library, 1, &Default::default()).expect("expands");
        let table = ShapeTable::new(&project.library);
        let params = flow.graph().expect("flow graph").layout.clone();
        Fixture {
            project,
            level,
            table,
            params,
        }
    }

    /// A fresh layout context.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx::new(
            &self.level,
            &self.project.library,
            &self.table,
            &self.params,
            Rng::new(1),
        )
    }

    /// The host, the guest and the edge between them.
    pub fn link(&self) -> Join {
        let host = self.level.find("h").expect("h");
        let anchor = self.level.find("g").expect("g");
        let edge = self.level.graph.find_edge(host, anchor).expect("edge");
        Join { host, anchor, edge }
    }

    /// The shape of the template called `name`.
    pub fn template(&self, name: &str) -> usize {
        self.project.library.index_of(name).expect("in the library")
    }

    /// The shape (template) of a node.
    pub fn shape(&self, n: NodeIndex) -> usize {
        let template = self.level.graph[n].template.as_deref().expect("template");
        self.project
            .library
            .index_of(template)
            .expect("in the library")
    }
}

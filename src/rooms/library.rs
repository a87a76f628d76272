//! The room library: every template available to a project.

use std::collections::BTreeMap;

use super::model::RoomTemplate;
use crate::diag::Diagnostic;

/// All templates of a project, by unique name, in a deterministic order.
#[derive(Clone, Debug, Default)]
pub struct RoomLibrary {
    templates: Vec<RoomTemplate>,
    by_name: BTreeMap<String, usize>,
    /// Indices of each category's templates, in load order.
    by_category: BTreeMap<String, Vec<usize>>,
}

impl RoomLibrary {
    /// Adds templates from one layer (bundled content, then each user folder).
    ///
    /// A later layer may override a template of an earlier layer by name; two
    /// templates of the same name in one layer are an error.
    pub fn add_layer(&mut self, templates: Vec<RoomTemplate>, diags: &mut Vec<Diagnostic>) {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for t in templates {
            if let Some(&prev) = seen.get(&t.name) {
                let first = &self.templates[prev];
                diags.push(
                    Diagnostic::error(
                        "room::duplicate-name",
                        format!("two room templates are named `{}`", t.name),
                    )
                    .in_file(&t.origin.file)
                    .label(t.origin.span.clone(), "second definition")
                    .help(format!(
                        "template names are unique across files; the first is in {}",
                        first.origin.file.name
                    )),
                );
                continue;
            }
            let index = match self.by_name.get(&t.name) {
                Some(&i) => {
                    self.templates[i] = t;
                    i
                }
                None => {
                    self.templates.push(t);
                    self.templates.len() - 1
                }
            };
            let name = self.templates[index].name.clone();
            self.by_name.insert(name.clone(), index);
            seen.insert(name, index);
        }
        self.by_category.clear();
        for (i, t) in self.templates.iter().enumerate() {
            self.by_category
                .entry(t.category.clone())
                .or_default()
                .push(i);
        }
    }

    /// The template called `name`.
    pub fn get(&self, name: &str) -> Option<&RoomTemplate> {
        self.by_name.get(name).map(|&i| &self.templates[i])
    }

    /// Position of the template called `name` in [`Self::templates`].
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Every template, in load order.
    pub fn templates(&self) -> &[RoomTemplate] {
        &self.templates
    }

    /// Template names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// Every category some template has, sorted and unique.
    pub fn categories(&self) -> Vec<&str> {
        let mut c: Vec<&str> = self.templates.iter().map(|t| t.category.as_str()).collect();
        c.sort_unstable();
        c.dedup();
        c
    }

    /// Whether any template carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.templates
            .iter()
            .any(|t| t.tags.iter().any(|x| x == tag))
    }

    /// Templates of `category` (and, when `pool` is not empty, with one of its tags).
    pub fn candidates<'a>(
        &'a self,
        category: &'a str,
        pool: &'a [String],
    ) -> impl Iterator<Item = &'a RoomTemplate> + 'a {
        self.by_category
            .get(category)
            .into_iter()
            .flatten()
            .map(|&i| &self.templates[i])
            .filter(move |t| in_pool(&t.tags, pool))
    }
}

/// Whether a template with `tags` belongs to a room's `pool`: an empty pool
/// takes any template, else one tag must be in it.
pub fn in_pool(tags: &[String], pool: &[String]) -> bool {
    pool.is_empty() || tags.iter().any(|g| pool.contains(g))
}

//! The room library: every template available to a project.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::model::RoomTemplate;
use crate::diag::Diagnostic;

/// All templates of a project, by unique name, in a deterministic order.
#[derive(Clone, Debug, Default)]
pub struct RoomLibrary {
    templates: Vec<RoomTemplate>,
    by_name: BTreeMap<String, usize>,
    /// Indices of each category's templates, in load order.
    by_category: BTreeMap<String, Vec<usize>>,
    /// Indices of the templates carrying each tag, in load order (hashed:
    /// looked up once per pool entry of every room expanded).
    by_tag: FxHashMap<String, Vec<usize>>,
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
        // A template this layer overrides takes its earlier turned versions
        // with it (the layer brings its own, if any).
        let overridden: std::collections::BTreeSet<&str> = seen
            .keys()
            .map(|n| self.templates[seen[n]].base_name())
            .collect();
        let stale: Vec<bool> = self
            .templates
            .iter()
            .map(|t| {
                t.variant.is_some()
                    && overridden.contains(t.base_name())
                    && !seen.contains_key(&t.name)
            })
            .collect();
        if stale.contains(&true) {
            let mut keep = stale.iter().map(|s| !s);
            self.templates.retain(|_| keep.next().unwrap_or(true));
            self.by_name = self
                .templates
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name.clone(), i))
                .collect();
        }
        self.by_category.clear();
        self.by_tag.clear();
        for (i, t) in self.templates.iter().enumerate() {
            self.by_category
                .entry(t.category.clone())
                .or_default()
                .push(i);
            for tag in &t.tags {
                let tagged = self.by_tag.entry(tag.clone()).or_default();
                if tagged.last() != Some(&i) {
                    tagged.push(i);
                }
            }
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

    /// The templates a room may be drawn from: the one named `template`,
    /// else those of `category` in `pool` (see [`Self::candidates`]).
    pub fn choices(
        &self,
        category: &str,
        pool: &[String],
        template: Option<&str>,
    ) -> Vec<&RoomTemplate> {
        match template {
            Some(t) => self.get(t).into_iter().collect(),
            None => self.candidates(category, pool).collect(),
        }
    }

    /// Whether any template carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.by_tag.contains_key(tag)
    }

    /// Templates of `category` (and, when `pool` is not empty, with one of
    /// its tags), in load order. A pool is looked up by tag: a project may
    /// hold a hundred templates of a category and a room's pool a handful.
    pub fn candidates<'a, 'q>(
        &'a self,
        category: &'q str,
        pool: &'q [String],
    ) -> impl Iterator<Item = &'a RoomTemplate> + 'q
    where
        'a: 'q,
    {
        self.candidate_indices(category, pool)
            .map(|i| &self.templates[i])
    }

    /// Positions in [`Self::templates`] of [`Self::candidates`].
    pub fn candidate_indices<'a>(
        &'a self,
        category: &'a str,
        pool: &'a [String],
    ) -> impl Iterator<Item = usize> + 'a {
        let (whole_category, tagged) = if pool.is_empty() {
            (self.by_category.get(category), None)
        } else {
            let mut tagged: Vec<usize> = pool
                .iter()
                .filter_map(|tag| self.by_tag.get(tag))
                .flatten()
                .copied()
                .filter(|&i| self.templates[i].category == category)
                .collect();
            tagged.sort_unstable();
            tagged.dedup();
            (None, Some(tagged))
        };
        whole_category
            .into_iter()
            .flatten()
            .copied()
            .chain(tagged.into_iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    /// The plain rule: a template belongs to a room's `pool` when the pool
    /// is empty or holds one of its `tags`.
    fn in_pool(tags: &[String], pool: &[String]) -> bool {
        pool.is_empty() || tags.iter().any(|g| pool.contains(g))
    }

    #[test]
    fn overriding_a_turned_template_drops_its_earlier_versions() {
        let load = |text: &str| {
            let (t, d) = crate::rooms::load_room_file(&crate::SourceFile::new("t.yaml", text));
            assert!(d.is_empty(), "{d:?}");
            t
        };
        let art = "art: |\n  ##A##~~\n  #...#~~\n  #...###\n  #.o...B\n  #######\n";
        let mut library = super::RoomLibrary::default();
        let mut diags = Vec::new();
        library.add_layer(
            load(&format!(
                "name: bend\ncategory: normal\ntransforms: all\n{art}"
            )),
            &mut diags,
        );
        assert_eq!(library.templates().len(), 6);
        library.add_layer(
            load(&format!("name: bend\ncategory: normal\n{art}")),
            &mut diags,
        );
        assert!(diags.is_empty());
        assert_eq!(library.names().collect::<Vec<_>>(), ["bend"]);
        assert_eq!(library.index_of("bend"), Some(0));
        assert_eq!(library.candidates("normal", &[]).count(), 1);
    }

    #[test]
    fn candidates_of_a_pool_are_the_category_s_templates_with_one_of_its_tags() {
        let library = crate::Project::bundled().library;
        let mut tags: Vec<String> = library
            .templates()
            .iter()
            .flat_map(|t| t.tags.iter().cloned())
            .collect();
        tags.sort();
        tags.dedup();
        assert!(tags.len() > 3, "the bundled rooms carry tags");
        let mut pools: Vec<Vec<String>> = vec![Vec::new(), vec!["no such tag".to_owned()]];
        pools.extend(tags.iter().map(|t| vec![t.clone()]));
        pools.extend(tags.windows(2).map(<[String]>::to_vec));
        pools.push(tags.iter().rev().cloned().collect());
        let mut nonempty = 0;
        for category in library.categories() {
            for pool in &pools {
                let got: Vec<&str> = library
                    .candidates(category, pool)
                    .map(|t| t.name.as_str())
                    .collect();
                let want: Vec<&str> = library
                    .templates()
                    .iter()
                    .filter(|t| t.category == category && in_pool(&t.tags, pool))
                    .map(|t| t.name.as_str())
                    .collect();
                assert_eq!(got, want, "{category} {pool:?}");
                nonempty += usize::from(!pool.is_empty() && !got.is_empty());
            }
        }
        assert!(nonempty > 5, "only {nonempty} pools matched a template");
    }
}

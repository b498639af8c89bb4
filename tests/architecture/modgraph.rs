//! The module graph of a crate, read from its sources: which module names which.
//!
//! A module is a file (or an inline `mod x { }`) reached from the crate root through `mod`
//! declarations, `#[path]` and `cfg_attr(…, path = …)` alternatives (and the workspace's
//! `family_module!`) included; alternatives of one module are one node. Test code is left
//! out: `mod tests`, anything under `#[cfg(test)]`.
//!
//! An edge `a → b` means code in `a` names a path that resolves into `b`: `crate::`, `super::`,
//! `self::`, a child module's name or an imported name, followed through `use` re-exports (so
//! `crate::Command` leads to the module that defines it, not to the root that re-exports it).
//!
//! Folders are units: a cycle is a strongly connected component among the children of one
//! module, where a child stands for its whole subtree. A module's edges to its own ancestors
//! (a child naming its parent's items) are the parent–child relation, not a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    PathSep,
    Punct(char),
}

/// Rust source as tokens, comments dropped, literals kept whole.
fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == 'r' && (c.get(i + 1) == Some(&'#') || c.get(i + 1) == Some(&'"'))
            || (ch == 'b' && c.get(i + 1) == Some(&'r'))
        {
            // A raw string, or an identifier starting with r/br.
            let mut j = i + if ch == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) == Some(&'"') {
                let start = j + 1;
                let mut k = start;
                loop {
                    if k >= c.len() {
                        break;
                    }
                    if c[k] == '"' && (0..hashes).all(|h| c.get(k + 1 + h) == Some(&'#')) {
                        break;
                    }
                    k += 1;
                }
                out.push(Tok::Str(c[start..k.min(c.len())].iter().collect()));
                i = k + 1 + hashes;
            } else {
                let start = i;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                if i == start {
                    i += 1;
                }
                out.push(Tok::Ident(c[start..i].iter().collect()));
            }
        } else if ch == '"' || (ch == 'b' && c.get(i + 1) == Some(&'"')) {
            let mut k = if ch == 'b' { i + 2 } else { i + 1 };
            let start = k;
            while k < c.len() && c[k] != '"' {
                if c[k] == '\\' {
                    k += 1;
                }
                k += 1;
            }
            out.push(Tok::Str(c[start..k.min(c.len())].iter().collect()));
            i = k + 1;
        } else if ch == '\'' {
            // A char literal ('a', '\n', '\u{1F}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                let mut k = i + 2;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                i = k + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::PathSep);
            i += 2;
        } else if ident_char(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

fn is_ident(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Ident(x)) if x == s)
}

fn is_punct(t: Option<&Tok>, p: char) -> bool {
    t == Some(&Tok::Punct(p))
}

/// The index after the group that opens at `i` (`(`, `[` or `{`), or after the item at `i`
/// (up to its `;` or its first brace group, whichever ends it).
fn skip_group(t: &[Tok], i: usize) -> usize {
    let mut depth = 0i32;
    let mut j = i;
    while j < t.len() {
        match &t[j] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth <= 0 {
                    return j + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return j + 1,
            _ => {}
        }
        j += 1;
        if depth == 0 && matches!(t[j - 1], Tok::Punct(')' | ']')) && j > i + 1 {
            // A parenthesised or bracketed group at the start ended.
            if matches!(t[i], Tok::Punct('(' | '[')) {
                return j;
            }
        }
    }
    j
}

/// The keywords that define a name in a module's namespace.
const ITEM_KEYWORDS: &[&str] = &[
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "union",
    "macro_rules",
];

/// Whether an attribute list switches its item on for tests only (`cfg(test)`,
/// `cfg(all(test, …))`).
fn test_only(attrs: &[Tok]) -> bool {
    (0..attrs.len()).any(|i| {
        is_ident(attrs.get(i), "cfg")
            && is_punct(attrs.get(i + 1), '(')
            && (is_ident(attrs.get(i + 2), "test")
                || is_ident(attrs.get(i + 2), "all") && all_has_test(&attrs[i + 3..]))
    })
}

/// Whether `(a, test, …)` (the arguments of a `cfg(all…)`) lists `test` itself.
fn all_has_test(t: &[Tok]) -> bool {
    let mut depth = 0;
    for (i, tok) in t.iter().enumerate() {
        match tok {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') if depth == 1 => return false,
            Tok::Punct(')') => depth -= 1,
            Tok::Ident(s) if s == "test" && depth == 1 => {
                return !is_punct(t.get(i + 1), '(');
            }
            _ => {}
        }
    }
    false
}

/// The `path = "…"` values in an attribute list.
fn paths_in(attrs: &[Tok]) -> Vec<String> {
    attrs
        .windows(3)
        .filter_map(|w| match w {
            [Tok::Ident(p), Tok::Punct('='), Tok::Str(s)] if p == "path" => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// One `use` tree's leaves: (path, local name); a glob's name is `*`.
fn use_tree(
    t: &[Tok],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) -> usize {
    let mut path = prefix.to_vec();
    if t.get(i) == Some(&Tok::PathSep) {
        path.push("::".to_string()); // an absolute, external path
        i += 1;
    }
    loop {
        match t.get(i) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
                if t.get(i) == Some(&Tok::PathSep) {
                    i += 1;
                    continue;
                }
                let mut name = s.clone();
                if is_ident(t.get(i), "as") {
                    if let Some(Tok::Ident(n)) = t.get(i + 1) {
                        name = n.clone();
                    }
                    i += 2;
                }
                if name == "self" {
                    path.pop();
                    name = path.last().cloned().unwrap_or_default();
                }
                out.push((path, name));
                return i;
            }
            Some(Tok::Punct('*')) => {
                out.push((path, "*".to_string()));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while !is_punct(t.get(i), '}') && i < t.len() {
                    i = use_tree(t, i, &path, out);
                    if is_punct(t.get(i), ',') {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => return i + 1,
        }
    }
}

/// A module as read: where it is, what it declares, imports and names.
#[derive(Default, Debug)]
pub struct Module {
    pub files: BTreeSet<PathBuf>,
    children: BTreeMap<String, String>,
    imports: Vec<(Vec<String>, String)>,
    named: Vec<Vec<String>>,
    defined: BTreeSet<String>,
}

impl Module {
    /// The paths of the modules this one declares.
    pub fn children(&self) -> impl Iterator<Item = &String> {
        self.children.values()
    }

    fn has(&self, name: &str) -> bool {
        self.defined.contains(name)
            || self.children.contains_key(name)
            || self.imports.iter().any(|(_, n)| n == name)
    }
}

/// A crate's modules by path (`""` the root, `conformance::runner`).
#[derive(Default, Debug)]
pub struct Crate {
    pub modules: BTreeMap<String, Module>,
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}::{name}")
    }
}

pub fn parent_of(m: &str) -> Option<&str> {
    if m.is_empty() {
        None
    } else {
        Some(m.rfind("::").map_or("", |at| &m[..at]))
    }
}

impl Crate {
    /// Reads the crate whose root file is `root` (`src/lib.rs`).
    pub fn read(root: &Path) -> Crate {
        let mut krate = Crate::default();
        krate.read_file("", root, root.parent().expect("a folder"));
        krate
    }

    /// Reads `file` as module `name`, whose own modules are looked for in `dir`.
    fn read_file(&mut self, name: &str, file: &Path, dir: &Path) {
        let Ok(src) = fs::read_to_string(file) else {
            return;
        };
        self.modules
            .entry(name.to_string())
            .or_default()
            .files
            .insert(file.to_path_buf());
        let t = tokens(&src);
        // (module, dir of its own modules, brace depth at which it closes)
        let mut stack: Vec<(String, PathBuf, i32)> =
            vec![(name.to_string(), dir.to_path_buf(), -1)];
        let file_dir = file.parent().expect("a folder").to_path_buf();
        let mut depth = 0i32;
        let mut attrs: Vec<Tok> = Vec::new();
        let mut i = 0;
        while i < t.len() {
            let (cur, cur_dir, _) = stack.last().cloned().expect("the file's module");
            match &t[i] {
                Tok::Punct('#') if is_punct(t.get(i + 1), '[') => {
                    let end = skip_group(&t, i + 1);
                    attrs.extend_from_slice(&t[i..end]);
                    i = end;
                    continue;
                }
                Tok::Punct('#') if is_punct(t.get(i + 1), '!') => {
                    i = skip_group(&t, i + 2);
                    continue;
                }
                _ if test_only(&attrs) && !matches!(&t[i], Tok::Ident(v) if v == "pub") => {
                    attrs.clear();
                    i = skip_group(&t, i);
                    continue;
                }
                Tok::Ident(k) if k == "mod" => {
                    let Some(Tok::Ident(m)) = t.get(i + 1) else {
                        i += 1;
                        continue;
                    };
                    let child = join(&cur, m);
                    if m == "tests" {
                        attrs.clear();
                        i = skip_group(&t, i);
                        continue;
                    }
                    let paths = paths_in(&attrs);
                    attrs.clear();
                    self.modules
                        .get_mut(&cur)
                        .expect("declared")
                        .children
                        .insert(m.clone(), child.clone());
                    if is_punct(t.get(i + 2), '{') {
                        // An inline module: its files live in `dir/m/`.
                        self.modules.entry(child.clone()).or_default();
                        stack.push((child, cur_dir.join(m), depth));
                        depth += 1;
                        i += 3;
                        continue;
                    }
                    self.declare(&child, m, &paths, &cur_dir, &file_dir, stack.len() > 1);
                    i += 3;
                    continue;
                }
                Tok::Ident(k) if k == "family_module" && is_punct(t.get(i + 1), '!') => {
                    // `family_module!(name, linux = "file")`: that file or one per family.
                    let end = skip_group(&t, i + 2);
                    let args = &t[i + 2..end];
                    if let Some(Tok::Ident(m)) = args.get(1) {
                        let mut paths: Vec<String> = args
                            .iter()
                            .filter_map(|a| match a {
                                Tok::Str(s) => Some(s.clone()),
                                _ => None,
                            })
                            .collect();
                        paths.extend(
                            ["apple.rs", "freebsd.rs", "cygwin.rs", "other.rs"].map(String::from),
                        );
                        let child = join(&cur, m);
                        self.modules
                            .get_mut(&cur)
                            .expect("declared")
                            .children
                            .insert(m.clone(), child.clone());
                        self.declare(&child, m, &paths, &cur_dir, &file_dir, false);
                    }
                    i = end;
                    continue;
                }
                Tok::Ident(k) if k == "use" => {
                    let mut leaves = Vec::new();
                    let end = use_tree(&t, i + 1, &[], &mut leaves);
                    self.modules
                        .get_mut(&cur)
                        .expect("declared")
                        .imports
                        .extend(leaves);
                    attrs.clear();
                    i = end;
                    continue;
                }
                Tok::Ident(first)
                    if t.get(i + 1) == Some(&Tok::PathSep) && i > 0 && t[i - 1] != Tok::PathSep =>
                {
                    let mut path = vec![first.clone()];
                    let mut j = i + 1;
                    while t.get(j) == Some(&Tok::PathSep) {
                        match t.get(j + 1) {
                            Some(Tok::Ident(s)) => path.push(s.clone()),
                            _ => break,
                        }
                        j += 2;
                    }
                    self.modules
                        .get_mut(&cur)
                        .expect("declared")
                        .named
                        .push(path);
                    // The last segment is looked at again: it may be a macro (`family_module!`).
                    i = (j - 1).max(i + 1);
                    continue;
                }
                Tok::Ident(k) if ITEM_KEYWORDS.contains(&k.as_str()) => {
                    let at = if is_punct(t.get(i + 1), '!') {
                        i + 2
                    } else {
                        i + 1
                    };
                    if let Some(Tok::Ident(n)) = t.get(at) {
                        let m = self.modules.get_mut(&cur).expect("declared");
                        m.defined.insert(n.clone());
                    }
                }
                Tok::Punct('{') => {
                    depth += 1;
                    attrs.clear();
                }
                Tok::Punct('}') => {
                    depth -= 1;
                    attrs.clear();
                    if stack.len() > 1 && stack.last().expect("one").2 == depth {
                        stack.pop();
                    }
                }
                Tok::Punct(';') => attrs.clear(),
                _ => {}
            }
            i += 1;
        }
    }

    /// Reads the file(s) of the out-of-line module `child` (`mod m;`).
    fn declare(
        &mut self,
        child: &str,
        m: &str,
        paths: &[String],
        cur_dir: &Path,
        file_dir: &Path,
        inline: bool,
    ) {
        let base = if inline { cur_dir } else { file_dir };
        let mut found = false;
        for p in paths {
            let f = base.join(p);
            if f.is_file() {
                found = true;
                let own_dir = if f.file_name().is_some_and(|n| n == "mod.rs") {
                    f.parent().expect("a folder").to_path_buf()
                } else {
                    f.with_extension("")
                };
                self.read_file(child, &f, &own_dir);
            }
        }
        if !found {
            for f in [
                cur_dir.join(format!("{m}.rs")),
                cur_dir.join(m).join("mod.rs"),
            ] {
                if f.is_file() {
                    self.read_file(child, &f, &cur_dir.join(m));
                }
            }
        }
        self.modules.entry(child.to_string()).or_default();
    }

    /// The module `path` (named in module `from`) leads into, following imports; `None` for
    /// paths outside the crate or to items of `from` itself.
    fn resolve(&self, from: &str, path: &[String], depth: usize) -> Option<String> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let (mut cur, mut rest) = match path[0].as_str() {
            "::" => return None,
            "crate" => (String::new(), &path[1..]),
            "self" => (from.to_string(), &path[1..]),
            "super" => {
                let mut cur = from.to_string();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    cur = parent_of(&cur)?.to_string();
                    rest = &rest[1..];
                }
                (cur, rest)
            }
            _ => {
                let m = self.modules.get(from)?;
                if let Some(c) = m.children.get(&path[0]) {
                    (c.clone(), &path[1..])
                } else if let Some((p, _)) = m.imports.iter().find(|(_, n)| n == &path[0]) {
                    let mut full = p.clone();
                    full.extend_from_slice(&path[1..]);
                    return self.resolve(from, &full, depth + 1);
                } else {
                    if let Some(gm) = self.glob_with(from, &path[0], depth) {
                        return self.resolve(&gm, path, depth + 1).or(Some(gm));
                    }
                    return None;
                }
            }
        };
        while let Some(seg) = rest.first() {
            let m = self.modules.get(&cur)?;
            if let Some(c) = m.children.get(seg) {
                cur = c.clone();
                rest = &rest[1..];
            } else if let Some((p, _)) = m.imports.iter().find(|(_, n)| n == seg) {
                let mut full = p.clone();
                full.extend_from_slice(&rest[1..]);
                return self.resolve(&cur, &full, depth + 1).or(Some(cur));
            } else if m.defined.contains(seg) {
                break;
            } else if let Some(gm) = self.glob_with(&cur, seg, depth) {
                // A name `cur` re-exports through `pub use x::*`.
                return self.resolve(&gm, rest, depth + 1).or(Some(gm));
            } else {
                break;
            }
        }
        Some(cur)
    }

    /// The module a glob import of `m` (`use x::*`) brings `name` from.
    fn glob_with(&self, m: &str, name: &str, depth: usize) -> Option<String> {
        let globs = self
            .modules
            .get(m)?
            .imports
            .iter()
            .filter(|(_, n)| n == "*");
        for (g, _) in globs {
            let Some(gm) = self.resolve(m, g, depth + 1) else {
                continue;
            };
            if gm != m && self.modules.get(&gm).is_some_and(|x| x.has(name)) {
                return Some(gm);
            }
        }
        None
    }

    /// Every edge `a → b` (a names something in b), ancestors and itself left out.
    pub fn edges(&self) -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for (name, m) in &self.modules {
            let paths = m.imports.iter().map(|(p, _)| p).chain(m.named.iter());
            for p in paths {
                if let Some(to) = self.resolve(name, p, 0) {
                    if !is_within(name, &to) {
                        out.insert((name.clone(), to));
                    }
                }
            }
        }
        out
    }
}

/// Whether `ancestor` is `m` or one of its ancestors.
pub fn is_within(m: &str, ancestor: &str) -> bool {
    ancestor.is_empty() || m == ancestor || m.starts_with(&format!("{ancestor}::"))
}

/// The child of `parent` that `m` lies in.
fn child_towards(parent: &str, m: &str) -> Option<String> {
    if !is_within(m, parent) || m == parent {
        return None;
    }
    let rest = if parent.is_empty() {
        m
    } else {
        &m[parent.len() + 2..]
    };
    Some(join(parent, rest.split("::").next().expect("one")))
}

/// The cycles: strongly connected components of two or more children of one module, each
/// child standing for its subtree.
pub fn cycles(krate: &Crate, edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for parent in krate.modules.keys() {
        let kids: Vec<&String> = krate.modules[parent].children.values().collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = kids
            .iter()
            .map(|k| ((*k).clone(), BTreeSet::new()))
            .collect();
        for (a, b) in edges {
            if let (Some(ca), Some(cb)) = (child_towards(parent, a), child_towards(parent, b)) {
                if ca != cb {
                    graph.entry(ca).or_default().insert(cb);
                }
            }
        }
        out.extend(sccs(&graph).into_iter().filter(|c| c.len() > 1));
    }
    out
}

/// Tarjan's strongly connected components.
fn sccs(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct St<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut St<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.g.contains_key(w) {
                continue;
            }
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().expect("on the stack");
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            comp.sort();
            s.out.push(comp);
        }
    }
    let mut s = St {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Layers, highest first: each a list of module paths (a module belongs to the layer of its
/// longest listed ancestor). An edge from a module to one in a higher layer is upward.
pub type Layers<'a> = &'a [(&'a str, &'a [&'a str])];

pub fn layer_of(layers: Layers, m: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (rank, (_, prefixes)) in layers.iter().enumerate() {
        for p in *prefixes {
            if is_within(m, p) && best.is_none_or(|(len, _)| p.len() > len) {
                best = Some((p.len(), rank));
            }
        }
    }
    best.map(|(_, rank)| rank)
}

/// The edges that point up, by the layer they start in.
pub fn upward<'e>(
    layers: Layers,
    edges: &'e BTreeSet<(String, String)>,
) -> Vec<&'e (String, String)> {
    edges
        .iter()
        .filter(|(a, b)| match (layer_of(layers, a), layer_of(layers, b)) {
            (Some(la), Some(lb)) => lb < la,
            _ => false,
        })
        .collect()
}

//! The route table and asset manifest that `app/scripts/build.mjs` writes,
//! and matching a path against the routes. A route's shape is the
//! contract's ([`contract::route`]), which the app's table is typed by.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use contract::Lang;
use contract::page::{PageAssets, PageKind};
pub use contract::route::{CollectionList, RouteDef};
use contract::route::{FormKind, HOME};
use serde::Deserialize;

/// A manifest `build.rs` embedded that the server cannot read: the build
/// is broken, and the server does not start.
#[derive(Debug, thiserror::Error)]
#[error("invalid build manifest: {0}")]
pub struct ManifestError(pub String);

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Static(String),
    Param(String),
    OptionalParam(String),
    Rest,
}

#[derive(Debug)]
struct CompiledRoute {
    segments: Vec<Segment>,
    index: usize,
}

/// The routes in table order; the first match wins. The table must end with
/// a catch-all of page kind [`PageKind::NotFound`], so every path matches.
#[derive(Debug)]
pub struct RouteTable {
    routes: Vec<Arc<RouteDef>>,
    compiled: Vec<CompiledRoute>,
    /// Every page request is matched, the fast path's too: a path is tried
    /// only against the routes its first segment can match (by their fixed
    /// first segment, here; or [`Self::any_first`]), positions in `compiled`.
    by_first: HashMap<String, Vec<usize>>,
    /// Routes whose first segment is not fixed (a parameter, the rest, none).
    any_first: Vec<usize>,
    not_found: usize,
}

/// A path matched: its route, and the values of the route's parameters.
/// It owns its route, so a request carries it from where it was matched.
#[derive(Debug, Clone)]
pub struct RouteMatch {
    pub route: Arc<RouteDef>,
    pub params: BTreeMap<String, String>,
}

impl RouteMatch {
    /// The parameter `name` of the path, if it had one.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }
}

impl RouteTable {
    pub fn from_json(json: &str) -> Result<RouteTable, ManifestError> {
        // An unknown page kind fails here, naming the kind and where it stands.
        let routes: Vec<RouteDef> =
            serde_json::from_str(json).map_err(|e| ManifestError(format!("routes.json: {e}")))?;
        let routes: Vec<Arc<RouteDef>> = routes.into_iter().map(Arc::new).collect();
        let compiled = routes
            .iter()
            .enumerate()
            .filter(|(_, route)| !route.path.is_empty())
            .map(|(index, route)| CompiledRoute { segments: compile(&route.path), index })
            .collect::<Vec<CompiledRoute>>();
        let not_found = match compiled.last() {
            Some(last) if last.segments == [Segment::Rest] && routes[last.index].page == Some(PageKind::NotFound) => {
                last.index
            }
            _ => return Err(ManifestError("routes.json must end with a `/*` not-found route".into())),
        };
        let (mut by_first, mut any_first) = (HashMap::<String, Vec<usize>>::new(), Vec::new());
        for (position, compiled) in compiled.iter().enumerate() {
            match compiled.segments.first() {
                Some(Segment::Static(first)) => by_first.entry(first.clone()).or_default().push(position),
                _ => any_first.push(position),
            }
        }
        Ok(RouteTable { routes, compiled, by_first, any_first, not_found })
    }

    pub fn not_found(&self) -> &Arc<RouteDef> {
        &self.routes[self.not_found]
    }

    pub fn all(&self) -> &[Arc<RouteDef>] {
        &self.routes
    }

    pub fn by_name(&self, name: &str) -> Option<&RouteDef> {
        self.routes.iter().find(|r| r.name == name).map(|route| &**route)
    }

    /// The first route rendered by page kind `kind`.
    pub fn by_kind(&self, kind: PageKind) -> Option<&RouteDef> {
        self.routes.iter().find(|r| r.page == Some(kind)).map(|route| &**route)
    }

    /// The path (without language prefix) of the first route rendered by
    /// page kind `kind`: where the server sends a browser to such a page.
    /// The home page's ([`Self::home`]) for a kind the table has no route of.
    pub fn path_of(&self, kind: PageKind) -> &str {
        self.by_kind(kind).map_or_else(|| self.home(), |route| route.path.as_str())
    }

    /// The home page's path (without language prefix): its route's, by
    /// name ([`HOME`]); the site's root, `/`, for a table without one.
    pub fn home(&self) -> &str {
        self.by_name(HOME).map_or("/", |route| route.path.as_str())
    }

    /// The page of the form `form`.
    pub fn by_form(&self, form: FormKind) -> Option<&RouteDef> {
        self.routes.iter().find(|r| r.form == Some(form)).map(|route| &**route)
    }

    /// Matches a path without language prefix; an unknown path matches the
    /// not-found route.
    pub fn matches(&self, path: &str) -> RouteMatch {
        let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let fixed = parts.first().and_then(|first| self.by_first.get(*first)).map_or(&[][..], Vec::as_slice);
        let (mut fixed, mut any) = (fixed.iter().peekable(), self.any_first.iter().peekable());
        // The two merged in table order, so the first match still wins.
        let candidates = std::iter::from_fn(|| match (fixed.peek(), any.peek()) {
            (Some(f), Some(a)) if f < a => fixed.next(),
            (_, Some(_)) => any.next(),
            (Some(_), None) => fixed.next(),
            (None, None) => None,
        });
        let (index, params) = candidates
            .map(|position| &self.compiled[*position])
            .find_map(|compiled| Some((compiled.index, match_segments(&compiled.segments, &parts)?)))
            .unwrap_or((self.not_found, BTreeMap::new()));
        RouteMatch { route: self.routes[index].clone(), params }
    }
}

fn compile(path: &str) -> Vec<Segment> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            if s == "*" {
                Segment::Rest
            } else if let Some(name) = s.strip_prefix(':') {
                match name.strip_suffix('?') {
                    Some(name) => Segment::OptionalParam(name.to_owned()),
                    None => Segment::Param(name.to_owned()),
                }
            } else {
                Segment::Static(s.to_owned())
            }
        })
        .collect()
}

fn match_segments(segments: &[Segment], parts: &[&str]) -> Option<BTreeMap<String, String>> {
    let mut params = BTreeMap::new();
    let mut rest = parts;
    for segment in segments {
        match segment {
            Segment::Rest => {
                params.insert("*".into(), rest.join("/"));
                return Some(params);
            }
            Segment::Static(s) => {
                let (first, tail) = rest.split_first()?;
                if first != s {
                    return None;
                }
                rest = tail;
            }
            Segment::Param(name) => {
                let (first, tail) = rest.split_first()?;
                params.insert(name.clone(), (*first).to_owned());
                rest = tail;
            }
            Segment::OptionalParam(name) => {
                if let Some((first, tail)) = rest.split_first() {
                    params.insert(name.clone(), (*first).to_owned());
                    rest = tail;
                }
            }
        }
    }
    rest.is_empty().then_some(params)
}

/// URLs of the client scripts and their stylesheets. Every page loads the
/// enhancement script (`enhance`, no React) and preloads nothing else: an
/// interactive page's island (`islands.page`) is imported by the enhancement
/// script when the visitor starts its flow, so its code is not part of the
/// first view (a modulepreload would also come before the stylesheet, as
/// React writes preloads first). An interactive page names the files its
/// island's mount imports (the island, its kind's chunk, its language's
/// strings), which the script preloads on a connection it measured fast.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetManifest {
    pub enhance: String,
    pub enhance_preload: Vec<String>,
    pub stylesheets: Vec<String>,
    pub islands: HashMap<String, Vec<String>>,
    /// Each page kind's chunk, with the chunks it imports.
    pub pages: HashMap<PageKind, Vec<String>>,
    /// Each language's strings, a chunk of their own.
    pub strings: HashMap<Lang, String>,
    /// The page kinds with an island.
    pub interactive: Vec<PageKind>,
}

impl AssetManifest {
    pub fn from_json(json: &str) -> Result<AssetManifest, ManifestError> {
        let manifest: AssetManifest =
            serde_json::from_str(json).map_err(|e| ManifestError(format!("assets.json: {e}")))?;
        if !manifest.islands.contains_key("page") {
            return Err(ManifestError("assets.json: no page island".into()));
        }
        Ok(manifest)
    }

    /// What a page of `kind` in `lang` needs: the stylesheets and the
    /// enhancement script's chunks for its first view, and for an
    /// interactive kind the files its island's mount imports.
    pub fn page_assets(&self, kind: PageKind, lang: Lang) -> PageAssets {
        let mut island = Vec::new();
        if self.interactive.contains(&kind) {
            let common = self.islands.get("page").into_iter().flatten();
            let own = self.pages.get(&kind).into_iter().flatten();
            for file in common.chain(own).chain(self.strings.get(&lang)) {
                if !island.contains(file) {
                    island.push(file.clone());
                }
            }
        }
        PageAssets { stylesheets: self.stylesheets.clone(), preload: self.enhance_preload.clone(), island }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = r#"{"requiresAuth":false,"isDynamic":true,"isPassThrough":false,"invisible":false,
        "invisibleChildren":false,"isClickable":true,"isVisible":true,"pageName":"x"}"#;

    fn table() -> RouteTable {
        let meta = META;
        let json = format!(
            r#"[{{"name":"home","path":"/","page":"content","meta":{meta}}},
               {{"name":"device","path":"/devices/:id/:slug?","page":"deviceItem","meta":{meta}}},
               {{"name":"internet","path":"/internet-overview","page":"content","meta":{meta}}},
               {{"name":"faq","path":"/faq/:item?","page":"faq","meta":{meta}}},
               {{"name":"group","path":"","meta":{meta}}},
               {{"name":"not-found","path":"/*","page":"notFound","meta":{meta}}}]"#
        );
        RouteTable::from_json(&json).unwrap()
    }

    #[test]
    fn matches_static_param_optional_and_catch_all() {
        let table = table();
        assert_eq!(table.matches("/").route.name, "home");
        assert_eq!(table.matches("/internet-overview").route.name, "internet");
        let device = table.matches("/devices/12/galaxy-a15");
        assert_eq!(device.route.name, "device");
        assert_eq!(device.params["id"], "12");
        assert_eq!(device.params["slug"], "galaxy-a15");
        let no_slug = table.matches("/devices/12");
        assert_eq!(no_slug.route.name, "device");
        assert!(!no_slug.params.contains_key("slug"));
        assert_eq!(table.matches("/devices").route.name, "not-found");
        assert_eq!(table.matches("/devices/1/2/3").route.name, "not-found");
        assert_eq!(table.matches("/Internet-Overview").route.name, "not-found");
        assert_eq!(table.matches("").route.name, "home", "a heading is never matched");
    }

    #[test]
    fn the_home_page_and_a_kind_without_a_route_are_the_home_route() {
        let table = table();
        assert_eq!(table.home(), "/");
        assert_eq!(table.path_of(PageKind::DeviceItem), "/devices/:id/:slug?");
        assert_eq!(table.path_of(PageKind::Search), "/");
    }

    #[test]
    fn a_page_kind_the_server_does_not_know_stops_the_start() {
        let meta = META;
        let json = format!(
            r#"[{{"name":"home","path":"/","page":"contentPage","meta":{meta}}},
               {{"name":"not-found","path":"/*","page":"notFound","meta":{meta}}}]"#
        );
        let error = RouteTable::from_json(&json).unwrap_err().to_string();
        assert!(error.contains("routes.json") && error.contains("unknown variant `contentPage`"), "{error}");
    }

    #[test]
    fn the_first_route_in_table_order_wins_whatever_its_first_segment() {
        let meta = META;
        let json = format!(
            r#"[{{"name":"any","path":"/:slug","page":"content","meta":{meta}}},
               {{"name":"about","path":"/about","page":"content","meta":{meta}}},
               {{"name":"about-more","path":"/about/more","page":"content","meta":{meta}}},
               {{"name":"not-found","path":"/*","page":"notFound","meta":{meta}}}]"#
        );
        let table = RouteTable::from_json(&json).unwrap();
        assert_eq!(table.matches("/about").route.name, "any");
        assert_eq!(table.matches("/about/more").route.name, "about-more");
        assert_eq!(table.matches("/about/more/still").route.name, "not-found");
    }

    #[test]
    fn fills_parameters_into_a_path() {
        let table = table();
        let device = table.by_name("device").unwrap();
        assert_eq!(device.href(&[("id", "12"), ("slug", "galaxy-a15")]), Some("/devices/12/galaxy-a15".to_owned()));
        assert_eq!(device.href(&[("id", "12")]), Some("/devices/12".to_owned()));
        assert_eq!(device.address(), None);
        assert_eq!(table.by_name("internet").unwrap().address().as_deref(), Some("/internet-overview"));
        assert_eq!(table.by_name("faq").unwrap().address().as_deref(), Some("/faq"));
        assert_eq!(table.by_name("group").unwrap().address(), None);
        assert_eq!(table.by_name("not-found").unwrap().address(), None);
    }
}

//! A page as the search reads it: what it is called, what it says of
//! itself, its headings and its text, each weighted in that order.

use contract::Lang;
use scraper::{ElementRef, Html, Node, Selector};

/// A page as a visitor reads it.
pub struct Page {
    pub lang: Lang,
    pub href: String,
    /// What the page is called: the breadcrumb's last item (its name in the
    /// CMS, as the menu shows it), else its `<title>` without the site's name.
    pub title: String,
    /// Its other names: the `<title>` (the CMS's meta title, when it has one).
    pub names: String,
    /// The meta description.
    pub description: String,
    /// The headings of `<main>` but the hero's (a slogan is text).
    pub headings: String,
    /// The text of `<main>` but its breadcrumb: what a snippet is taken from.
    pub text: String,
    /// The USSD codes and numbers the page links to dial.
    pub codes: Vec<String>,
}

fn select(selector: &str) -> Selector {
    Selector::parse(selector).expect("a valid selector")
}

fn words(element: ElementRef) -> String {
    element.text().flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")
}

/// The words of `element` but those of a breadcrumb, script or style.
fn text(element: ElementRef, into: &mut Vec<String>) {
    for child in element.children() {
        match child.value() {
            Node::Text(text) => into.extend(text.split_whitespace().map(str::to_owned)),
            Node::Element(inner) => {
                let skipped = matches!(inner.name(), "script" | "style" | "template")
                    || (inner.name() == "nav"
                        && inner.has_class("breadcrumbs", scraper::CaseSensitivity::CaseSensitive));
                if let (false, Some(inner)) = (skipped, ElementRef::wrap(child)) {
                    text(inner, into);
                }
            }
            _ => {}
        }
    }
}

impl Page {
    /// The page in `html`; none for a page with no `<main>`.
    pub fn from_html(lang: Lang, href: String, html: &str) -> Option<Page> {
        let document = Html::parse_document(html);
        let main = document.select(&select("main")).next()?;
        let title_tag = document.select(&select("title")).next().map(words).unwrap_or_default();
        // "M-Pesa | Vodacom Tanzania": the site's name is on every page.
        let named = title_tag.rsplit_once(" | ").map_or(title_tag.as_str(), |(name, _)| name).to_owned();
        let crumb = main.select(&select(r#"nav.breadcrumbs [aria-current="page"]"#)).next().map(words);
        let heroes: Vec<_> = main.select(&select(".hero h1, .hero h2")).map(|hero| hero.id()).collect();
        let headings: Vec<String> =
            main.select(&select("h1, h2, h3")).filter(|heading| !heroes.contains(&heading.id())).map(words).collect();
        let title = crumb
            .filter(|crumb| !crumb.is_empty())
            .or_else(|| Some(named.clone()).filter(|named| !named.is_empty()))
            .or_else(|| headings.first().cloned())?;
        let description = document
            .select(&select(r#"meta[name="description"]"#))
            .next()
            .and_then(|meta| meta.value().attr("content"))
            .unwrap_or_default()
            .to_owned();
        let mut body = Vec::new();
        text(main, &mut body);
        let body = body.join(" ");
        let mut codes = super::words::codes(&body);
        codes.extend(main.select(&select(r#"a[href^="tel:"]"#)).filter_map(|link| {
            let code =
                super::words::code(link.value().attr("href")?.strip_prefix("tel:")?.replace("%23", "#").as_str());
            Some(code).filter(|code| !code.is_empty())
        }));
        codes.sort();
        codes.dedup();
        Some(Page { lang, href, title, names: named, description, headings: headings.join(" "), text: body, codes })
    }

    /// A page known by its title alone (an item not rendered: found by
    /// its heading).
    pub fn titled(lang: Lang, href: String, title: String) -> Page {
        Page {
            lang,
            href,
            names: String::new(),
            description: String::new(),
            headings: String::new(),
            text: title.clone(),
            codes: Vec::new(),
            title,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_read_by_its_name_description_headings_and_text_but_its_breadcrumb() {
        let html = r#"<html><head><title>Help | Vodacom Tanzania</title>
            <meta name="description" content="Call 100, day and night."></head>
            <body><nav>Menu Home</nav><main>
            <nav class="breadcrumbs"><ol><li><a href="/">Home</a></li><li><span aria-current="page">Customer service</span></li></ol></nav>
            <section class="hero"><div class="hero-text"><h1>We are here to help, 24/7</h1></div></section>
            <h2>Ways   to reach us</h2><p>Call <a href="tel:100">100</a> or dial *149*01#.</p><script>x()</script>
            </main><footer>x</footer></body></html>"#;
        let page = Page::from_html(Lang::En, "/customer-service".into(), html).unwrap();
        assert_eq!(page.title, "Customer service", "the breadcrumb's name, not the hero's slogan");
        assert_eq!(page.names, "Help");
        assert_eq!(page.description, "Call 100, day and night.");
        assert_eq!(page.headings, "Ways to reach us");
        assert_eq!(page.text, "We are here to help, 24/7 Ways to reach us Call 100 or dial *149*01#.");
        assert_eq!(page.codes, ["100", "149*01"], "the codes written and the numbers linked to dial");
        assert!(Page::from_html(Lang::En, "/x".into(), "<p>no main</p>").is_none());
    }

    #[test]
    fn a_page_without_a_breadcrumb_is_named_by_its_title() {
        let html = "<html><head><title>Home | Vodacom Tanzania</title></head><body><main><h1>25 years</h1></main></body></html>";
        assert_eq!(Page::from_html(Lang::En, "/".into(), html).unwrap().title, "Home");
    }
}

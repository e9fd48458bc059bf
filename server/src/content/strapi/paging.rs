//! A whole collection read page after page: which page to ask for next,
//! from what the last answer's `meta.pagination` said (Strapi 4's
//! `page`/`pageCount`, or `start`/`total`), or, without either, until a
//! page comes back short.

use serde_json::Value;

/// Strapi's default maximum page size: what a whole collection is read by.
pub(super) const PAGE_SIZE: u64 = 100;
/// Pages one read of a whole collection takes at most.
pub(super) const MAX_PAGES: usize = 10_000;

/// Where an answer is in its collection, as its `meta.pagination` says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Pagination {
    Pages { page: u64, page_count: u64 },
    Offset { start: u64, total: u64 },
}

impl Pagination {
    pub(super) fn of(answer: &Value) -> Option<Pagination> {
        let pagination = answer.pointer("/meta/pagination")?;
        let number = |name: &str| pagination.get(name).and_then(Value::as_u64);
        if let (Some(page), Some(page_count)) = (number("page"), number("pageCount")) {
            return Some(Pagination::Pages { page, page_count });
        }
        match (number("start"), number("total")) {
            (Some(start), Some(total)) => Some(Pagination::Offset { start, total }),
            _ => None,
        }
    }
}

/// Which page of a whole collection to ask for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Paging {
    Page(u64),
    Start(u64),
}

impl Paging {
    pub(super) fn params(self) -> Vec<(String, String)> {
        match self {
            Paging::Page(page) => vec![
                ("pagination[page]".into(), page.to_string()),
                ("pagination[pageSize]".into(), PAGE_SIZE.to_string()),
            ],
            Paging::Start(start) => vec![
                ("pagination[start]".into(), start.to_string()),
                ("pagination[limit]".into(), PAGE_SIZE.to_string()),
            ],
        }
    }

    /// The page after this one, which brought `got` items and `pagination`,
    /// if there is one.
    pub(super) fn next(self, pagination: Option<Pagination>, got: usize) -> Option<Paging> {
        let got = got as u64;
        if got == 0 {
            return None;
        }
        match pagination {
            Some(Pagination::Pages { page, page_count }) => (page < page_count).then_some(Paging::Page(page + 1)),
            Some(Pagination::Offset { start, total }) => (start + got < total).then_some(Paging::Start(start + got)),
            None if got < PAGE_SIZE => None,
            None => Some(match self {
                Paging::Page(page) => Paging::Page(page + 1),
                Paging::Start(start) => Paging::Start(start + got),
            }),
        }
    }
}

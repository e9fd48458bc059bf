//! Integration tests: the real server on a random port, over real HTTP
//! (the request-parser fuzz, `fuzz`, drives the same router in process).

mod fake_cms;
mod fault_proxy;
mod helpers;
#[path = "../support/postgres.rs"]
mod postgres;

mod account;
mod account_page;
mod archive;
mod assets;
mod content;
mod cpm_page;
mod crawl;
mod csrf;
mod disk_pages;
mod forms;
mod forms_delivery;
mod fuzz;
mod hostile;
mod images;
mod locator;
mod metrics;
mod monitoring;
mod mutation;
mod newsroom;
mod operator_faults;
mod pages;
mod preview;
mod purchase;
mod readme;
mod sandbox;
mod scale;
mod search;
mod search_eval;
mod signed_in_pages;
mod stale_pages;
mod twins;

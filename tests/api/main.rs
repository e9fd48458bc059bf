//! Integration tests: the real server on a random port, over real HTTP.

mod fake_cms;
mod helpers;

mod account;
mod assets;
mod content;
mod crawl;
mod forms;
mod forms_delivery;
mod mutation;
mod pages;
mod sandbox;

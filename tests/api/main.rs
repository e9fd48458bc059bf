//! Integration tests: the real server on a random port, over real HTTP.

mod helpers;

mod assets;
mod pages;

//! A page cached for everyone, served to a signed-in subscriber with their
//! own parts put in (in the spirit of edge-side includes): the header's
//! account control (their name, "Log out") and the subscriber in the page
//! data. Nothing else on such a page depends on who is signed in; the
//! account page and the CPM page have a personal part too
//! ([`prepare_personal`], see `account`), and pages with more of the
//! visitor's own (a form sent back, a flash notice) are rendered for their
//! visitor instead.
//!
//! - The render of a page for everyone also renders its account control
//!   alone, signed out and signed in with slots for the name and the
//!   browser session's form token ([`contract::page::AccountControls`]). The page is spliceable when the
//!   signed-out control is in its markup exactly once and `"subscriber":null`
//!   in its page data exactly once; a page that is not gets its
//!   signed-in visitors a render of their own, as before.
//! - No compression per visitor: the page's bytes around the two parts are
//!   kept as three pieces, each deflated once on its own and ended on a
//!   byte boundary (a sync flush). A visitor's gzip body is those pieces
//!   around their own parts as stored (uncompressed) deflate blocks, with
//!   the gzip trailer's CRC-32 combined from the pieces' (crc32fast).
//!   Deflating the parts too (a few hundred bytes) saved about 200 bytes an
//!   answer and cost a fifth of a signed-in view's CPU (miniz building
//!   Huffman tables for each). `site-bench render --splice` measures it
//!   against compressing the page again: a body some 10% larger than gzip
//!   level 9's (the pieces cannot refer back across the parts) for a small
//!   fraction of level 1's time.
//! - Brotli too, joined by the brotli crate's `BroCatli`: each piece is
//!   compressed once, when a signed-in visitor first asks for the page in
//!   brotli (not for every page kept, which the pre-render pass would pay
//!   for), as a stream of its own (the first *appendable*, the
//!   others *catable*: none refers to bytes before it, and the joiner can
//!   set them end to end), and a visitor's parts are compressed as catable
//!   streams at quality 1 when they are asked for (a few hundred bytes;
//!   the page around them is not compressed again). A signed-in `/account`
//!   of 8.7 KB gzip is 7.8 KB so; brotli of the whole page would be 5.9 KB,
//!   but its pieces could then refer to one another and to the parts. The
//!   page for everyone keeps its own brotli and gzip bodies, compressed
//!   whole.
//! - The visitor's parts are escaped as React escapes text (the name) and
//!   as the page data script is (the subscriber's JSON), so the spliced page
//!   is byte for byte the page a render for that visitor would give.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use axum::body::Bytes;
use brotli::concat::{BroCatli, BroCatliResult};
use brotli::enc::BrotliEncoderParams;
use contract::page::AccountControls;
use flate2::{Compress, Compression, FlushCompress, Status};

use crate::web::csrf::CsrfToken;
pub use crate::web::strings::escape_text;

/// The text the name is rendered as in the signed-in control: private-use
/// characters, which no escaping touches and no name contains.
pub const NAME_SLOT: &str = "\u{E000}account-name\u{E000}";
/// The text a subscriber's number is rendered as in the account page cached
/// for every subscriber of its kind: no number, so shown as it is.
pub const MSISDN_SLOT: &str = "\u{E000}account-msisdn\u{E000}";
/// The text the browser session's form token is rendered as, in the
/// signed-in control and in pages cached for every subscriber of a kind.
pub const CSRF_SLOT: &str = "\u{E000}csrf\u{E000}";

/// The subscriber in the page data of a page for everyone.
const NO_SUBSCRIBER: &str = "\"subscriber\":null";
/// Where the page data starts (see `document::document`).
const PAGE_DATA: &str = "<script type=\"application/json\" id=\"page-data\">";

/// gzip member header: deflate, no name, no time, unknown OS.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

/// A visitor's own parts of a page, as they go into its bytes.
#[derive(Default)]
pub struct OwnParts {
    /// The name the header shows, HTML-escaped.
    pub name_html: String,
    /// The subscriber's JSON, escaped for the page data script.
    pub subscriber_json: String,
    /// On the CPM page: the session's permissions' JSON, escaped so.
    pub cpm_json: String,
    /// On the account page: the subscriber's names and their number as
    /// written locally, HTML-escaped, and the personal part rendered for
    /// them (`None`: the page's own, for no balances, with these put in).
    pub names_html: String,
    pub msisdn_html: String,
    pub personal_html: Option<String>,
    /// The browser session's form token (none: the forms rely on what the
    /// browser says of their origin).
    pub csrf: Option<CsrfToken>,
}

impl OwnParts {
    /// The token as it goes into the page: empty without one.
    fn csrf(&self) -> &str {
        self.csrf.as_ref().map_or("", CsrfToken::as_str)
    }
}

/// What goes into one of a page's holes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hole {
    /// The header's account control.
    Control,
    /// The subscriber's names ([`NAME_SLOT`] where the page has it).
    Names,
    /// Their number ([`MSISDN_SLOT`]).
    Msisdn,
    /// Their browser session's form token ([`CSRF_SLOT`]).
    Csrf,
    /// The account page's personal part.
    Personal,
    /// The page data's subscriber.
    Subscriber,
    /// The page data's CPM permissions.
    Cpm,
}

/// The member of a personal page's data that is the visitor's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PersonalData {
    /// The account page's `subscriber` ([`OwnParts::subscriber_json`]).
    Subscriber,
    /// The CPM page's `cpm` ([`OwnParts::cpm_json`]).
    Cpm,
}

impl PersonalData {
    fn hole(self) -> (&'static str, Hole) {
        match self {
            PersonalData::Subscriber => ("subscriber", Hole::Subscriber),
            PersonalData::Cpm => ("cpm", Hole::Cpm),
        }
    }
}

/// A page's bytes around the parts a signed-in visitor has of their own.
pub struct Splice {
    /// The page's bytes between its holes, one more than there are holes.
    pieces: Vec<Range<usize>>,
    /// What each hole after a piece takes.
    holes: Vec<Hole>,
    /// The pieces deflated.
    deflated: Vec<Bytes>,
    /// Their CRC-32s.
    crcs: Vec<u32>,
    /// The pieces as brotli streams to be joined, made once asked for, and
    /// the window they share.
    brotli: OnceLock<Vec<Bytes>>,
    window_bits: u8,
    /// The signed-in control with its slots (name, token).
    control: String,
    /// The account page's personal part as it rendered, with its slots.
    personal: String,
}

/// How to put a visitor's parts in the page `html` (for everyone, whose
/// account controls are `controls`), if it has them where expected.
pub fn prepare(html: &[u8], controls: &AccountControls) -> Option<Splice> {
    let Some((control, subscriber, template)) = locate(html, controls) else {
        tracing::warn!(
            "a page for everyone without its account control or page data subscriber where expected: signed-in visitors get it rendered for them"
        );
        return None;
    };
    Some(Splice::new(html, vec![(control, Hole::Control), (subscriber, Hole::Subscriber)], template, String::new()))
}

/// How to put a visitor's parts in a personal page `html` (the account
/// page, rendered for a subscriber whose names and number were slots, or
/// given; the CPM page), whose personal part rendered alone is `personal`
/// and whose page data's `member` is `member_json`: each where expected
/// once, the slots anywhere else.
pub fn prepare_personal(html: &[u8], personal: &str, member: PersonalData, member_json: &str) -> Option<Splice> {
    let (field, data_hole) = member.hole();
    let located = (|| {
        let text = std::str::from_utf8(html).ok()?;
        let personal_at = only(text, personal, 0)?;
        let data = text.rfind(PAGE_DATA)? + PAGE_DATA.len();
        let subscriber_at = only(text, &format!("\"{field}\":{member_json}"), data)?;
        let subscriber_at = subscriber_at.end - member_json.len()..subscriber_at.end;
        if personal_at.end > subscriber_at.start {
            return None;
        }
        let mut holes = vec![(personal_at.clone(), Hole::Personal), (subscriber_at.clone(), data_hole)];
        for (slot, hole) in [(NAME_SLOT, Hole::Names), (MSISDN_SLOT, Hole::Msisdn), (CSRF_SLOT, Hole::Csrf)] {
            let outside = |at: &Range<usize>| {
                at.end <= personal_at.start
                    || (at.start >= personal_at.end && at.end <= subscriber_at.start)
                    || at.start >= subscriber_at.end
            };
            holes.extend(
                text.match_indices(slot).map(|(at, _)| at..at + slot.len()).filter(outside).map(|at| (at, hole)),
            );
        }
        holes.sort_by_key(|(at, _)| at.start);
        Some(holes)
    })();
    let Some(holes) = located else {
        tracing::warn!(
            field,
            "a personal page without its personal part or page data member where expected: its visitors get it rendered for them"
        );
        return None;
    };
    Some(Splice::new(html, holes, String::new(), personal.to_owned()))
}

/// The account control and the page data's subscriber in `html`, and the
/// signed-in control, its name's slot in it once.
fn locate(html: &[u8], controls: &AccountControls) -> Option<(Range<usize>, Range<usize>, String)> {
    let html = std::str::from_utf8(html).ok()?;
    let control = only(html, &controls.signed_out, 0)?;
    let data = html.rfind(PAGE_DATA)? + PAGE_DATA.len();
    let subscriber = only(html, NO_SUBSCRIBER, data)?;
    // `null`, the value alone.
    let subscriber = subscriber.end - "null".len()..subscriber.end;
    if controls.signed_in.matches(NAME_SLOT).count() != 1 || control.end > subscriber.start {
        return None;
    }
    Some((control, subscriber, controls.signed_in.clone()))
}

/// Where `needle` is in `haystack` from `from` on, if it is there exactly once.
fn only(haystack: &str, needle: &str, from: usize) -> Option<Range<usize>> {
    let mut found = haystack[from..].match_indices(needle).map(|(at, _)| from + at..from + at + needle.len());
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

impl Splice {
    /// `html` cut around `holes` (in order, not overlapping).
    fn new(html: &[u8], holes: Vec<(Range<usize>, Hole)>, control: String, personal: String) -> Splice {
        let mut pieces = Vec::with_capacity(holes.len() + 1);
        let mut start = 0;
        for (at, _) in &holes {
            pieces.push(start..at.start);
            start = at.end;
        }
        pieces.push(start..html.len());
        let last = pieces.len() - 1;
        Splice {
            brotli: OnceLock::new(),
            window_bits: window_bits(html.len()),
            deflated: pieces
                .iter()
                .enumerate()
                .map(|(i, piece)| Bytes::from(deflate(&html[piece.clone()], Compression::best(), i == last)))
                .collect(),
            crcs: pieces.iter().map(|piece| crc32fast::hash(&html[piece.clone()])).collect(),
            pieces,
            holes: holes.into_iter().map(|(_, hole)| hole).collect(),
            control,
            personal,
        }
    }

    /// The bytes it holds, for the cache's weigher.
    pub fn weight(&self) -> usize {
        // The brotli pieces, made later, weigh about as much as the deflated ones.
        2 * self.deflated.iter().map(Bytes::len).sum::<usize>()
            + self.control.len()
            + self.personal.len()
            + 64
            + 24 * self.pieces.len()
    }

    /// The page `html` for the visitor whose parts are `own`: identity.
    pub fn identity(&self, html: &[u8], own: &OwnParts) -> Bytes {
        let parts = self.parts(own);
        let mut body = Vec::with_capacity(html.len() + parts.iter().map(|part| part.len()).sum::<usize>());
        for (index, piece) in self.pieces.iter().enumerate() {
            body.extend_from_slice(&html[piece.clone()]);
            if let Some(part) = parts.get(index) {
                body.extend_from_slice(part.as_bytes());
            }
        }
        Bytes::from(body)
    }

    /// The same, gzip: the pieces as deflated once, the parts stored.
    pub fn gzip(&self, own: &OwnParts) -> Bytes {
        let parts = self.parts(own);
        let mut body = Vec::with_capacity(
            self.deflated.iter().map(Bytes::len).sum::<usize>()
                + parts.iter().map(|part| part.len() + 5).sum::<usize>()
                + 32,
        );
        body.extend_from_slice(&GZIP_HEADER);
        let mut crc = crc32fast::Hasher::new();
        let mut length = 0usize;
        for (index, piece) in self.pieces.iter().enumerate() {
            body.extend_from_slice(&self.deflated[index]);
            crc.combine(&crc32fast::Hasher::new_with_initial_len(self.crcs[index], piece.len() as u64));
            length += piece.len();
            if let Some(part) = parts.get(index) {
                stored(part.as_bytes(), &mut body);
                let mut part_crc = crc32fast::Hasher::new();
                part_crc.update(part.as_bytes());
                crc.combine(&part_crc);
                length += part.len();
            }
        }
        body.extend(crc.finalize().to_le_bytes());
        body.extend((length as u32).to_le_bytes());
        Bytes::from(body)
    }

    /// The same, brotli: the pieces of the page `html` as compressed once,
    /// each part compressed on its own, the streams joined. `html` is asked
    /// for only the first time, when the pieces are compressed (a cached
    /// page inflates it from gzip).
    pub fn brotli<H: AsRef<[u8]>>(&self, html: impl FnOnce() -> H, own: &OwnParts) -> Bytes {
        let pieces = self.brotli.get_or_init(|| {
            let html = html();
            let html = html.as_ref();
            let stream = |(i, piece): (usize, &Range<usize>)| {
                Bytes::from(brotli_stream(&html[piece.clone()], BROTLI_QUALITY, self.window_bits, i == 0))
            };
            self.pieces.iter().enumerate().map(stream).collect()
        });
        let parts = self.parts(own);
        let mut join = BroCatli::new_with_window_size(self.window_bits);
        let mut body = vec![0; pieces.iter().map(Bytes::len).sum::<usize>() + parts.len() * 64 + 64];
        let mut written = 0;
        for (index, piece) in pieces.iter().enumerate() {
            append(&mut join, piece, &mut body, &mut written);
            if let Some(part) = parts.get(index) {
                let part = brotli_stream(part.as_bytes(), PART_QUALITY, self.window_bits, false);
                append(&mut join, &part, &mut body, &mut written);
            }
        }
        loop {
            match join.finish(&mut body, &mut written) {
                BroCatliResult::Success => break,
                BroCatliResult::NeedsMoreOutput => body.resize(body.len() * 2, 0),
                failure => unreachable!("streams made to be joined: {failure:?}"),
            }
        }
        body.truncate(written);
        Bytes::from(body)
    }

    /// What goes into each hole for `own`.
    fn parts<'a>(&self, own: &'a OwnParts) -> Vec<Cow<'a, str>> {
        self.holes
            .iter()
            .map(|hole| match hole {
                Hole::Control => {
                    Cow::Owned(self.control.replace(NAME_SLOT, &own.name_html).replace(CSRF_SLOT, own.csrf()))
                }
                Hole::Names => Cow::Borrowed(own.names_html.as_str()),
                Hole::Msisdn => Cow::Borrowed(own.msisdn_html.as_str()),
                Hole::Csrf => Cow::Borrowed(own.csrf()),
                Hole::Personal => match &own.personal_html {
                    Some(personal) => Cow::Borrowed(personal.as_str()),
                    None => Cow::Owned(
                        self.personal
                            .replace(NAME_SLOT, &own.names_html)
                            .replace(MSISDN_SLOT, &own.msisdn_html)
                            .replace(CSRF_SLOT, own.csrf()),
                    ),
                },
                Hole::Subscriber => Cow::Borrowed(own.subscriber_json.as_str()),
                Hole::Cpm => Cow::Borrowed(own.cpm_json.as_str()),
            })
            .collect()
    }
}

/// Quality of a page's pieces, as of the pages for everyone (`cached_page`).
const BROTLI_QUALITY: i32 = 10;
/// Quality of a visitor's parts, compressed for each answer: the fastest
/// that still compresses (quality 0 sends most of a short part as it is).
const PART_QUALITY: i32 = 1;

/// A window of 256 KiB at least (every page fits whole; the encoder takes
/// no less at [`PART_QUALITY`], and a joined stream's window is its first
/// one's), 4 MiB at most.
fn window_bits(length: usize) -> u8 {
    (usize::BITS - length.leading_zeros()).clamp(18, 22) as u8
}

/// `input` as a brotli stream the joiner takes: the first of a page
/// appendable (it may use the built-in dictionary), the others catable.
fn brotli_stream(input: &[u8], quality: i32, window_bits: u8, first: bool) -> Vec<u8> {
    let params = BrotliEncoderParams {
        quality,
        lgwin: i32::from(window_bits),
        appendable: first,
        catable: !first,
        use_dictionary: first,
        // The joiner finds where a stream's first block starts after this header.
        magic_number: true,
        size_hint: input.len(),
        ..BrotliEncoderParams::default()
    };
    let mut output = Vec::with_capacity(input.len() / 3 + 16);
    brotli::BrotliCompress(&mut &input[..], &mut output, &params).expect("compress to memory");
    output
}

/// `stream` joined to what `join` has written to `body`, which grows as needed.
fn append(join: &mut BroCatli, stream: &[u8], body: &mut Vec<u8>, written: &mut usize) {
    join.new_brotli_file();
    let mut read = 0;
    loop {
        match join.stream(stream, &mut read, body, written) {
            BroCatliResult::NeedsMoreInput => return,
            BroCatliResult::NeedsMoreOutput => body.resize(body.len() * 2, 0),
            failure => unreachable!("streams made to be joined: {failure:?}"),
        }
    }
}

/// `input` as stored deflate blocks (RFC 1951 §3.2.4), not the stream's
/// last, written after a block ended on a byte boundary.
fn stored(input: &[u8], output: &mut Vec<u8>) {
    for block in input.chunks(u16::MAX as usize) {
        let length = block.len() as u16;
        // BFINAL 0, BTYPE 00, the rest of the byte padding.
        output.push(0);
        output.extend(length.to_le_bytes());
        output.extend((!length).to_le_bytes());
        output.extend_from_slice(block);
    }
}

/// `input` as raw deflate blocks: the stream's last (`last`), or ended on
/// a byte boundary (a sync flush) for more blocks to follow.
fn deflate(input: &[u8], level: Compression, last: bool) -> Vec<u8> {
    let mut compress = Compress::new(level, false);
    let flush = if last { FlushCompress::Finish } else { FlushCompress::Sync };
    let mut output = Vec::with_capacity(input.len() / 2 + 64);
    loop {
        let read = compress.total_in() as usize;
        let status = compress.compress_vec(&input[read..], &mut output, flush).expect("compress to memory");
        let done = compress.total_in() as usize == input.len()
            && match status {
                Status::StreamEnd => true,
                // A flush is complete when it left room in the output.
                Status::Ok | Status::BufError => !last && output.len() < output.capacity(),
            };
        if done {
            return super::cached_page::fitted(output);
        }
        output.reserve(output.capacity().max(64));
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn controls() -> AccountControls {
        AccountControls {
            signed_out: "<a id=\"account-control\">Log in</a>".into(),
            signed_in: format!(
                "<div class=\"account-control\"><a id=\"account-control\">{NAME_SLOT}</a><form><input name=\"csrf\" value=\"{CSRF_SLOT}\"></form></div>"
            ),
        }
    }

    fn page(filler: &str) -> Bytes {
        let body = filler.repeat(200);
        Bytes::from(format!(
            "<!doctype html><html><body><header><a id=\"account-control\">Log in</a></header><main>{body}</main>{PAGE_DATA}{{\"path\":\"/\",\"subscriber\":null,\"notice\":null}}</script></body></html>"
        ))
    }

    fn gunzip(body: &[u8]) -> String {
        let mut html = String::new();
        flate2::read::GzDecoder::new(body)
            .read_to_string(&mut html)
            .expect("a valid gzip stream, CRC and length checked");
        html
    }

    fn unbrotli(body: &[u8]) -> String {
        let mut html = String::new();
        brotli::Decompressor::new(body, 4096).read_to_string(&mut html).expect("a whole brotli stream");
        html
    }

    fn amina() -> OwnParts {
        OwnParts {
            name_html: escape_text("Amina <b>\"O'Neil\"</b> & co"),
            subscriber_json: "{\"names\":\"Amina\"}".into(),
            csrf: Some(CsrfToken::from("tok")),
            ..OwnParts::default()
        }
    }

    #[test]
    fn a_visitors_page_is_the_page_with_their_parts() {
        let html = page("<p>Habari za leo, vifurushi vya intaneti kwa bei nafuu.</p>");
        let splice = prepare(&html, &controls()).expect("spliceable");
        let expected = String::from_utf8(html.to_vec())
            .unwrap()
            .replace(
                "<a id=\"account-control\">Log in</a>",
                "<div class=\"account-control\"><a id=\"account-control\">Amina &lt;b&gt;&quot;O&#x27;Neil&quot;&lt;/b&gt; &amp; co</a><form><input name=\"csrf\" value=\"tok\"></form></div>",
            )
            .replace("\"subscriber\":null", "\"subscriber\":{\"names\":\"Amina\"}");
        assert_eq!(gunzip(&splice.gzip(&amina())), expected);
        assert_eq!(unbrotli(&splice.brotli(|| &html, &amina())), expected);
        assert_eq!(&splice.identity(&html, &amina())[..], expected.as_bytes());
        let gzip = splice.gzip(&amina());
        assert!(gzip.len() < html.len() / 5, "the pieces still compress: {} of {}", gzip.len(), html.len());
        let brotli = splice.brotli(|| &html, &amina());
        assert!(brotli.len() < gzip.len(), "brotli {} against gzip {}", brotli.len(), gzip.len());
        // A part longer than one stored block holds, and an empty one.
        let long = OwnParts { name_html: "n".repeat(70_000), subscriber_json: "{}".into(), ..OwnParts::default() };
        assert_eq!(gunzip(&splice.gzip(&long)).as_bytes(), &splice.identity(&html, &long)[..]);
        assert_eq!(unbrotli(&splice.brotli(|| &html, &long)).as_bytes(), &splice.identity(&html, &long)[..]);
        let empty = OwnParts { subscriber_json: "{}".into(), ..OwnParts::default() };
        assert_eq!(unbrotli(&splice.brotli(|| &html, &empty)).as_bytes(), &splice.identity(&html, &empty)[..]);
    }

    #[test]
    fn a_page_whose_parts_are_not_where_expected_once_is_not_spliced() {
        let html = page("<p>x</p>");
        let twice = Bytes::from(
            String::from_utf8(html.to_vec()).unwrap().replace("<main>", "<main><a id=\"account-control\">Log in</a>"),
        );
        for (html, controls) in [
            (twice, controls()),
            (html.clone(), AccountControls { signed_in: "<a>no slot</a>".into(), ..controls() }),
            (html.clone(), AccountControls { signed_out: "<a>elsewhere</a>".into(), ..controls() }),
        ] {
            assert!(prepare(&html, &controls).is_none());
        }
    }
}

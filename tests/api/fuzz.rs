//! Property tests of the request parsers: random paths (percent-encoding,
//! `..`, unicode, control characters, 64 KiB long), query strings, junk
//! `session`, `flash` and `lang` cookies, and form, JSON and raw bodies
//! posted to every POST (and PUT) endpoint. Requests go through the real
//! router in process (`oneshot`); the operator API it calls is the same
//! server's sandbox, served on a port. No answer may be a 5xx, and nothing
//! may panic (a panic is a 500 from the catch-panic layer).
//!
//! Limits are set so that nothing is shed: a 503 here is a bug too.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, header};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tower::ServiceExt;

/// Cases of each test: some 15 s in all in a debug build.
const CASES: u32 = 10_000;
const WEBHOOK_SECRET: &str = "s3cret";

/// Every POST (and PUT) endpoint of the routers, by feature. `/sandbox/fail-next`
/// arms a failure of the sandbox's next call, which this server then reports
/// as the 5xx it is told to: it is fuzzed on its own site
/// ([`the_sandbox_switch_takes_any_body_without_server_error`]).
const POST_ENDPOINTS: &[&str] = &[
    // account
    "/api/auth/request-otp",
    "/api/auth/validate-otp",
    "/api/auth/logout",
    "/api/bundles/purchase",
    "/api/modem/check",
    "/api/modem/request-otp",
    "/api/modem/validate-otp",
    "/api/alternative-number",
    "/api/cpm/request-otp",
    "/api/cpm/validate-otp",
    "/api/cpm/permissions/1",
    "/api/cpm/permissions/%2e%2e",
    "/api/cpm/logout",
    // content
    "/api/cms/webhook",
    // sandbox: the operator API
    "/sandbox/digital/api/v1/auth/request-otp",
    "/sandbox/digital/api/v1/auth/validate-otp",
    "/sandbox/digital/api/v1/gsm-static-bundles/purchase",
    "/sandbox/digital/alternative-number/",
    "/sandbox/digital/alternative-number/login-request-otp",
    "/sandbox/digital/alternative-number/validate-otp",
    "/sandbox/digital/alternative-number/create",
    "/sandbox/digital/cpm/request-otp",
    "/sandbox/digital/cpm/validate-otp",
    "/sandbox/digital/cpm/permissions/1",
    // pages answer 405
    "/",
    "/sw/account",
];

/// The fields the endpoints read, so that bodies reach past the first one.
const FIELDS: &[&str] = &[
    "msisdn",
    "code",
    "returnTo",
    "lang",
    "bundleId",
    "purchaseChannel",
    "recipient",
    "subscriber",
    "forModem",
    "alternativeMsisdn",
    "granted",
    "status",
    "path",
    "body",
    "event",
    "model",
    "entry",
];

/// Values that get further than random text.
const VALUES: &[&str] = &[
    "0754000001",
    "+255 754 000 001",
    "255754000010",
    "0754000002",
    "07540000O2",
    "123456",
    "000000",
    "/sw/account",
    "/account?step=code",
    "//evil.example",
    "/\\evil",
    "/\t/x",
    "AIRTIME",
    "MPESA",
    "self",
    "friend",
    "data-daily-1gb",
    "true",
    "on",
    "false",
    "sw",
    "en",
    "entry.update",
    "media.create",
    "home",
    "news-update",
    "",
];

const BASES: &[&str] = &[
    "/",
    "/sw",
    "/voice-sms",
    "/internet-overview",
    "/account",
    "/cpm-otp",
    "/cpm-login",
    "/customer-permission-management",
    "/vodacom-business/5/iot",
    "/news-event/1",
    "/devices/3/x",
    "/faq",
    "/5G",
    "/_data",
    "/_data/sw",
    "/api/account",
    "/api/bundles",
    "/api/cpm/permissions",
    "/static",
    "/assets",
    "/sitemap.xml",
    "/robots.txt",
    "/sw.js",
    "/sandbox/inbox",
    "/sandbox/digital/api/v1/gsm-config/customer-details",
    "/healthz",
];

/// One site in process, its sandbox (the operator API it calls) on a port.
struct Site {
    runtime: tokio::runtime::Runtime,
    app: Router,
    _data_dir: tempfile::TempDir,
}

impl Site {
    fn start() -> Site {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let data_dir = tempfile::tempdir().unwrap();
        let app = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = format!("http://{}", listener.local_addr().unwrap());
            let mut config = server::Config::defaults();
            config.site_url = address.parse().unwrap();
            config.data_dir = data_dir.path().to_owned();
            config.pages.render_workers = Some(1);
            config.pages.renders_per_address = Some(64);
            config.cms.webhook_secret = Some(WEBHOOK_SECRET.parse().unwrap());
            // The operator API the site calls: the sandbox, on a port of its own.
            let sandbox = (site::sandbox().open)(&config).unwrap();
            let operator = axum::Router::new().nest_service("/sandbox", sandbox);
            tokio::spawn(async move { axum::serve(listener, operator).await });
            let state =
                server::AppState::new(config, site::app_build(), &format!("{address}/sandbox/digital/")).unwrap();
            server::app(state)
        });
        Site { runtime, app, _data_dir: data_dir }
    }

    /// Sends `request` and reads the whole answer; its status.
    fn send(&self, request: Request<Body>) -> u16 {
        self.runtime.block_on(async {
            let response = self.app.clone().oneshot(request).await.unwrap();
            let status = response.status().as_u16();
            axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
            status
        })
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() })
}

/// Text of any characters: ASCII, unicode, controls, percent signs.
fn any_text(max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::string::string_regex(&format!("[a-zA-Z0-9._~-]{{0,{max}}}")).unwrap(),
        1 => proptest::string::string_regex(&format!("(?:%[0-9a-fA-F]{{2}}|%[^0-9a-fA-F]?|\\.\\.|/|[\\x00-\\x1f\\x7f]){{0,{max}}}")).unwrap(),
        2 => proptest::collection::vec(any::<char>(), 0..max).prop_map(String::from_iter),
        // Near the longest request target a URI holds (64 KiB).
        1 => (0usize..60_000).prop_map(|n| "a".repeat(n)),
    ]
}

/// `raw` as a browser would put it in a request target: what a URI may not
/// hold literally is percent-encoded; `%`, `/`, `.` and `?`, `&`, `=` stay.
fn encode(raw: &str, keep: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || "-._~!$'()*+,;:@%".contains(c) || keep.contains(c) {
            out.push(c);
        } else {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

fn path() -> impl Strategy<Value = String> {
    let segment = prop_oneof![
        3 => any_text(16),
        1 => Just("..".to_owned()),
        1 => Just("%2e%2e".to_owned()),
        1 => Just("%2F".to_owned()),
        1 => Just(String::new()),
        1 => any_text(300),
    ];
    (proptest::sample::select(BASES), proptest::collection::vec(segment, 0..4)).prop_map(|(base, segments)| {
        let mut path = base.trim_end_matches('/').to_owned();
        for segment in segments {
            path.push('/');
            path.push_str(&encode(&segment, ""));
        }
        if path.is_empty() { "/".to_owned() } else { path }
    })
}

fn query() -> impl Strategy<Value = Option<String>> {
    let name = prop_oneof![
        proptest::sample::select(&["lang", "step", "msisdn", "services", "utm_source", "q", ""][..])
            .prop_map(str::to_owned),
        any_text(12)
    ];
    let value = prop_oneof![proptest::sample::select(VALUES).prop_map(str::to_owned), any_text(40)];
    let pairs = proptest::collection::vec((name, value), 0..5).prop_map(|pairs| {
        pairs.iter().map(|(k, v)| format!("{}={}", encode(k, ""), encode(v, ""))).collect::<Vec<_>>().join("&")
    });
    let junk = any_text(200).prop_map(|q| encode(&q, "?&=/"));
    proptest::option::of(prop_oneof![3 => pairs, 1 => junk])
}

/// A `Cookie` header of junk session, flash, CPM and language cookies.
fn cookie() -> impl Strategy<Value = Option<String>> {
    let name = proptest::sample::select(&["session", "flash", "lang", "cpm_session", "__Host-session", "x", ""][..]);
    let value = prop_oneof![
        proptest::sample::select(&["sw", "en", "fr", "", "\"\"", "a;b", "=="][..]).prop_map(str::to_owned),
        proptest::string::string_regex("[!#-+\\--:<-\\[\\]-~]{0,120}").unwrap(),
        proptest::string::string_regex("[ -~]{0,60}").unwrap(),
    ];
    proptest::option::of(proptest::collection::vec((name, value), 0..4).prop_map(|cookies| {
        cookies.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join("; ")
    }))
}

fn get_request() -> impl Strategy<Value = Request<Body>> {
    let method = proptest::sample::select(
        &[Method::GET, Method::GET, Method::GET, Method::HEAD, Method::OPTIONS, Method::DELETE][..],
    );
    let encoding = proptest::sample::select(&["", "br, gzip", "gzip", "identity;q=0", "*"][..]);
    let if_none_match = proptest::option::of(proptest::string::string_regex("(W/)?\"[ -~]{0,30}\"|\\*").unwrap());
    let parts = (method, path(), query(), cookie(), encoding, if_none_match);
    parts.prop_filter_map(
        "a request target no longer than a URI holds",
        |(method, path, query, cookie, encoding, if_none_match)| {
            let uri = match query {
                Some(query) => format!("{path}?{query}"),
                None => path,
            };
            let mut request = Request::builder().method(method).uri(uri).body(Body::empty()).ok()?;
            let headers = request.headers_mut();
            if let Some(cookie) = cookie {
                headers.insert(header::COOKIE, HeaderValue::from_str(&cookie).expect("cookie header"));
            }
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(encoding));
            if let Some(tag) = if_none_match {
                headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&tag).expect("etag header"));
            }
            Some(request)
        },
    )
}

/// A JSON value of any shape, and often an object of the fields endpoints read.
fn json_body() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number)),
        proptest::sample::select(VALUES).prop_map(serde_json::Value::from),
        any_text(40).prop_map(serde_json::Value::from),
    ];
    let any_value = leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            proptest::collection::btree_map(any_text(8), inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    });
    let fields = proptest::collection::btree_map(
        proptest::sample::select(FIELDS).prop_map(str::to_owned),
        any_value.clone(),
        0..6,
    )
    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect()));
    prop_oneof![3 => fields, 1 => any_value]
}

fn form_body() -> impl Strategy<Value = String> {
    let name = prop_oneof![4 => proptest::sample::select(FIELDS).prop_map(str::to_owned), 1 => any_text(10)];
    let value = prop_oneof![proptest::sample::select(VALUES).prop_map(str::to_owned), any_text(60)];
    proptest::collection::vec((name, value), 0..7).prop_map(|pairs| {
        pairs.iter().map(|(k, v)| format!("{}={}", encode(k, ""), encode(v, ""))).collect::<Vec<_>>().join("&")
    })
}

fn body() -> impl Strategy<Value = (Option<&'static str>, Vec<u8>)> {
    let form_type = proptest::sample::select(
        &["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=x"][..],
    );
    let json_type =
        proptest::sample::select(&["application/json", "application/json; charset=utf-8", "application/ld+json"][..]);
    let other_type = proptest::option::of(proptest::sample::select(
        &["text/plain", "multipart/form-data; boundary=x", "", "application/jsonx"][..],
    ));
    prop_oneof![
        3 => (form_type, form_body()).prop_map(|(t, b)| (Some(t), b.into_bytes())),
        3 => (json_type, json_body()).prop_map(|(t, b)| (Some(t), b.to_string().into_bytes())),
        1 => (other_type.clone(), proptest::collection::vec(any::<u8>(), 0..300)).prop_map(|(t, b)| (t, b)),
        1 => (other_type, (15_000usize..20_000)).prop_map(|(t, n)| (t, vec![b'a'; n])),
    ]
}

fn post_request(endpoints: &'static [&'static str]) -> impl Strategy<Value = Request<Body>> {
    let method = proptest::sample::select(&[Method::POST, Method::POST, Method::POST, Method::PUT][..]);
    let site = proptest::sample::select(
        &[Some("same-origin"), Some("same-origin"), Some("same-origin"), Some("cross-site"), None][..],
    );
    let authorization = proptest::option::of(prop_oneof![
        Just(format!("Bearer {WEBHOOK_SECRET}")),
        proptest::string::string_regex("(Bearer |cpm-bearer )?[!-~]{0,40}").unwrap(),
    ]);
    (method, proptest::sample::select(endpoints), body(), site, authorization, cookie()).prop_map(
        |(method, endpoint, (content_type, body), site, authorization, cookie)| {
            let mut request = Request::builder().method(method).uri(endpoint).body(Body::from(body)).unwrap();
            let headers = request.headers_mut();
            if let Some(content_type) = content_type {
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            }
            if let Some(site) = site {
                headers.insert("sec-fetch-site", HeaderValue::from_static(site));
            }
            if let Some(authorization) = authorization {
                headers.insert(header::AUTHORIZATION, HeaderValue::from_str(&authorization).unwrap());
            }
            if let Some(cookie) = cookie {
                headers.insert(header::COOKIE, HeaderValue::from_str(&cookie).unwrap());
            }
            request
        },
    )
}

fn no_server_error(site: &Site, request: Request<Body>) -> Result<(), TestCaseError> {
    let (method, uri) = (request.method().clone(), request.uri().clone());
    let status = site.send(request);
    prop_assert!(status < 500, "{method} {uri} answered {status}");
    Ok(())
}

#[test]
fn random_addresses_and_cookies_get_no_server_error() {
    let site = Site::start();
    runner(CASES).run(&get_request(), |request| no_server_error(&site, request)).unwrap();
}

#[test]
fn posted_bodies_get_no_server_error() {
    let site = Site::start();
    runner(CASES).run(&post_request(POST_ENDPOINTS), |request| no_server_error(&site, request)).unwrap();
}

/// The sandbox's switch on its own site: what it arms is a 5xx on purpose.
#[test]
fn the_sandbox_switch_takes_any_body_without_server_error() {
    let site = Site::start();
    runner(500).run(&post_request(&["/sandbox/fail-next"]), |request| no_server_error(&site, request)).unwrap();
}

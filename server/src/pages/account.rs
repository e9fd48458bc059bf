//! The account page of a signed-in subscriber at about the cost of its data.
//! All of it but the subscriber's details and balances (the personal part,
//! `AccountOverview` in the app) is the same for every subscriber of one
//! kind: the frame, the page's content, the purchase form with the bundle
//! catalogue, the modem flow. So it is rendered once per kind (what the
//! purchase form reads of a subscriber: payment type and methods; and on
//! the confirmation step, who pays) for a subscriber whose names and number
//! are slots and whose balances are missing, and kept in the page cache;
//! each view renders only the personal part, alone, in the engine (a small
//! render), and puts it, the names, the number and the page data's
//! subscriber in ([`splice`](super::splice)): byte for byte the page a
//! whole render for them gives.
//!
//! Balances the operator has not given need no render: the kept page's own
//! personal part (balances unavailable) with the names and number put in.
//! The same serves when the personal render fails or finds no engine in
//! time, with the subscriber's balances left out of the page data, so the
//! page asks for them again by itself: never an error page.
//!
//! The CPM page is served the same way ([`respond_cpm`]): the page for
//! every CPM session (rendered for one with no permissions), with the
//! session's permissions (`Permissions` in the app) rendered alone and put
//! in, and the page data's `cpm`. Permissions the operator did not give
//! (which ends the session) or that fail to render leave the page without
//! them: the page for everyone, as a render without a `cpm` gives it.

use std::net::IpAddr;

use axum::http::HeaderMap;
use axum::response::Response;
use contract::Lang;
use contract::account::{CpmPermissions, Subscriber};
use contract::page::{AccountPart, CpmPart, PageData, PageKind, Part, PartOutput, PartRequest};

use super::admit::Unbuilt;
use super::cache::PageCache;
use super::cached_page::{CachedPage, PRIVATE};
use super::document;
use super::error::PageError;
use super::render::{Prepared, admit_client, render_as, render_for};
use super::splice::{CSRF_SLOT, MSISDN_SLOT, NAME_SLOT, OwnParts, escape_text};
use crate::account::session::SessionKey;
use crate::msisdn::Msisdn;
use crate::state::AppState;
use crate::web::csrf::CsrfToken;

/// What one visitor's view of the account or CPM page starts from: the
/// page for everyone (`for_everyone`), who asks, and their form token.
pub(super) struct View<'a> {
    pub state: &'a AppState,
    pub client: IpAddr,
    pub headers: &'a HeaderMap,
    pub for_everyone: &'a Prepared,
    pub csrf: Option<CsrfToken>,
}

/// One view of the account page for `subscriber` (with whatever balances
/// the operator gave in time); `confirm` for the purchase's confirmation
/// step. `None` when the page for their kind cannot take their parts
/// (logged when it was rendered): the caller renders it whole.
pub(super) async fn respond(
    view: View<'_>,
    session: Option<SessionKey>,
    subscriber: Subscriber,
    confirm: bool,
) -> Result<Option<Response>, PageError> {
    let View { state, client, headers, for_everyone, csrf } = view;
    let kind = kind_of(&subscriber, confirm);
    let page =
        page_for_kind(state, client, for_everyone, PageData { subscriber: Some(kind), ..for_everyone.data.clone() })
            .await?;
    if !page.spliceable() {
        return Ok(None);
    }
    let lang = page.lang;
    let (personal_html, subscriber) = personal(state, session, lang, subscriber).await;
    let msisdn = &subscriber.msisdn;
    let own = OwnParts {
        names_html: escape_text(&subscriber.names),
        msisdn_html: escape_text(&Msisdn::parse(msisdn).map_or_else(|_| msisdn.clone(), |number| number.local())),
        personal_html,
        subscriber_json: document::script_json(&subscriber),
        csrf,
        ..OwnParts::default()
    };
    Ok(page.respond_own(headers, &own))
}

/// One view of the CPM page for the CPM session `session`, whose
/// permissions are `cpm` (`None`: the operator did not give them); the page
/// for everyone is the page without them. `None` when the page for every
/// CPM session cannot take their parts (logged when it was rendered): the
/// caller renders it whole.
pub(super) async fn respond_cpm(
    view: View<'_>,
    session: SessionKey,
    cpm: Option<CpmPermissions>,
) -> Result<Option<Response>, PageError> {
    let View { state, client, headers, for_everyone, csrf } = view;
    if let Some(cpm) = cpm {
        let page =
            page_for_kind(state, client, for_everyone, PageData { cpm: Some(cpm_kind()), ..for_everyone.data.clone() })
                .await?;
        if !page.spliceable() {
            return Ok(None);
        }
        let cpm_json = document::script_json(&cpm);
        let token = csrf.as_ref().map(|token| token.as_str().to_owned());
        let request = PartRequest {
            part: Part::Cpm(CpmPart { lang: page.lang, path: for_everyone.data.path.clone(), cpm, csrf: token }),
        };
        if let Ok(personal_html) = render_part(state, Some(session), &request, PageKind::Cpm).await {
            return Ok(page.respond_own(
                headers,
                &OwnParts { personal_html: Some(personal_html), cpm_json, csrf, ..OwnParts::default() },
            ));
        }
    }
    // No permissions to show: the page as a render without them gives it, which is the page for everyone.
    let page = state
        .pages
        .cache
        .get_or_render(for_everyone.key.clone(), || render_for(state, client, for_everyone.clone()))
        .await?;
    Ok(Some(page.respond(headers, PRIVATE)))
}

/// The page `for_everyone` with `data` (for a kind of visitor, whose parts are
/// placeholders or slots; the form token a slot too), with its personal
/// part alone, kept under its key and the kind.
async fn page_for_kind(
    state: &AppState,
    client: IpAddr,
    for_everyone: &Prepared,
    data: PageData,
) -> Result<std::sync::Arc<CachedPage>, PageError> {
    let data = PageData { csrf: Some(CSRF_SLOT.to_owned()), ..data };
    let kind = serde_json::to_string(&(&data.subscriber, &data.cpm)).expect("the page data's parts serialise");
    let template_key = PageCache::key(&format!("{} {kind}", for_everyone.key), "", &[]);
    let page = state
        .pages
        .cache
        .get_or_render(template_key, || async {
            let _share = admit_client(state, client).await?;
            let page = Prepared {
                key: for_everyone.key.clone(),
                url: for_everyone.url.clone(),
                data,
                versions: for_everyone.versions.clone(),
                // A template for one kind of subscriber: kept in memory, never on disk.
                sources: Vec::new(),
                confirmed: for_everyone.confirmed,
            };
            render_as(state, page, true).await.map_err(Unbuilt::Render)
        })
        .await?;
    Ok(page)
}

/// The personal part rendered for `subscriber`, or `None` when its
/// balances are missing or its render failed (then without balances).
async fn personal(
    state: &AppState,
    session: Option<SessionKey>,
    lang: Lang,
    subscriber: Subscriber,
) -> (Option<String>, Subscriber) {
    if subscriber.balance.is_none() {
        return (None, subscriber);
    }
    let request = PartRequest { part: Part::Account(AccountPart { lang, subscriber }) };
    let rendered = render_part(state, session, &request, PageKind::Account).await;
    let Part::Account(AccountPart { mut subscriber, .. }) = request.part else {
        unreachable!("the request made above")
    };
    match rendered {
        Ok(html) => (Some(html), subscriber),
        Err(_) => {
            subscriber.balance = None;
            (None, subscriber)
        }
    }
}

/// `request`, the personal part of a page of kind `part`, rendered alone,
/// in the session's turn: its HTML, or the failure (logged).
async fn render_part(
    state: &AppState,
    session: Option<SessionKey>,
    request: &PartRequest,
    part: PageKind,
) -> Result<String, Unbuilt> {
    let rendered = async {
        let _turn = match session {
            Some(session) => {
                Some(state.pages.personal_renders.session_turn(session, state.pages.renderer.queue_wait()).await?)
            }
            None => None,
        };
        state.pages.renderer.render::<_, PartOutput>(request).await.map_err(Unbuilt::Render)
    };
    let started = std::time::Instant::now();
    let rendered = rendered.await;
    metrics::histogram!("part_render_seconds", "part" => part.to_string(), "outcome" => if rendered.is_ok() { "ok" } else { "failed" })
        .record(started.elapsed().as_secs_f64());
    rendered
        .map(|output| output.html)
        .inspect_err(|error| tracing::warn!(?error, %part, "a page's personal part did not render: served without it"))
}

/// The permissions the page for every CPM session is rendered with: a
/// number and none, which each view's own replace.
fn cpm_kind() -> CpmPermissions {
    CpmPermissions { msisdn: String::new(), permissions: Vec::new() }
}

/// The subscriber the page for `subscriber`'s kind is rendered for: no
/// balances, and the names (unless there are none: the header then shows
/// the number) and the number as slots, except on the confirmation step,
/// which names the payer in its own way.
fn kind_of(subscriber: &Subscriber, confirm: bool) -> Subscriber {
    let mut kind = Subscriber { balance: None, ..subscriber.clone() };
    if !confirm {
        if !kind.names.is_empty() {
            kind.names = NAME_SLOT.to_owned();
        }
        kind.msisdn = MSISDN_SLOT.to_owned();
    }
    kind
}

#[cfg(test)]
mod tests {
    use contract::account::{Balance, PaymentMethod};

    use super::*;

    fn subscriber(msisdn: &str, names: &str, balance: Option<f64>, payment_methods: &[PaymentMethod]) -> Subscriber {
        Subscriber {
            msisdn: msisdn.into(),
            names: names.into(),
            payment_type: Some("PREPAID".into()),
            minor: None,
            registration_status: None,
            scopes: None,
            balance: balance.map(|main_balance| Balance { main_balance, mpesa_balance: None, bundle: Vec::new() }),
            payment_methods: payment_methods.to_vec(),
        }
    }

    #[test]
    fn subscribers_of_one_kind_share_a_page_whatever_their_balances() {
        let amina = subscriber("255754000001", "Amina", Some(1.0), &PaymentMethod::ALL);
        let juma = subscriber("255754000002", "Juma", None, &PaymentMethod::ALL);
        let baraka = subscriber("255754000004", "Baraka", None, &[PaymentMethod::Airtime]);
        assert_eq!(kind_of(&amina, false), kind_of(&juma, false));
        assert_ne!(kind_of(&amina, false), kind_of(&baraka, false));
        assert_ne!(kind_of(&amina, true), kind_of(&juma, true));
        let nameless = Subscriber { payment_type: None, ..subscriber("255754000002", "", None, &[]) };
        assert_eq!(kind_of(&nameless, false).names, "");
    }
}

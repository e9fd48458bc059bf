//! What the server and the app's scripts agree on besides the types: the
//! site's own API addresses, the headers and fields a post from a script
//! carries, and the lengths of the forms' fields. Written once here; the
//! server routes and reads by these constants, and `typescript()` writes
//! them for the app (`ENDPOINTS`, `PROTOCOL`, `FIELD_LENGTHS` in
//! `app/generated/contract.ts`).

/// Declares each endpoint's constant and the list the app's copy is made of.
macro_rules! endpoints {
    ($($(#[$doc:meta])* $name:ident $app:literal = $path:literal;)*) => {
        $($(#[$doc])* pub const $name: &str = $path;)*
        /// Every endpoint, by the name the app knows it by, and its path.
        pub const ENDPOINTS: &[(&str, &str)] = &[$(($app, $path)),*];
    };
}

/// The site's own API addresses.
pub mod endpoints {
    endpoints! {
        /// A sign-in code sent to a number (and sent again).
        SIGN_IN_REQUEST_OTP "signInRequestOtp" = "/api/auth/request-otp";
        /// A sign-in code checked: the session begins.
        SIGN_IN_VALIDATE_OTP "signInValidateOtp" = "/api/auth/validate-otp";
        LOGOUT "logout" = "/api/auth/logout";
        /// The subscriber signed in, their balances.
        ACCOUNT "account" = "/api/account";
        BUNDLES "bundles" = "/api/bundles";
        PURCHASE "purchase" = "/api/bundles/purchase";
        /// Whether a modem has an alternative number.
        MODEM_CHECK "modemCheck" = "/api/modem/check";
        MODEM_REQUEST_OTP "modemRequestOtp" = "/api/modem/request-otp";
        MODEM_VALIDATE_OTP "modemValidateOtp" = "/api/modem/validate-otp";
        ALTERNATIVE_NUMBER_REQUEST_OTP "alternativeNumberRequestOtp" = "/api/alternative-number/request-otp";
        /// A modem's alternative number registered.
        ALTERNATIVE_NUMBER "alternativeNumber" = "/api/alternative-number";
        CPM_REQUEST_OTP "cpmRequestOtp" = "/api/cpm/request-otp";
        CPM_VALIDATE_OTP "cpmValidateOtp" = "/api/cpm/validate-otp";
        /// The permissions; one of them at `<this>/<id>`.
        CPM_PERMISSIONS "cpmPermissions" = "/api/cpm/permissions";
        CPM_LOGOUT "cpmLogout" = "/api/cpm/logout";
        BUSINESS_COMMUNITY "businessCommunity" = "/api/forms/business-community";
        FOUNDATION_APPLICATION "foundationApplication" = "/api/forms/foundation-application";
        /// Staff's export of the forms received.
        FORMS_EXPORT "formsExport" = "/api/forms/export";
        /// A foundation application's proposal file, for staff.
        FORMS_PROPOSAL "formsProposal" = "/api/forms/proposal";
        /// The agents and shops nearest a position.
        LOCATIONS_NEAR "locationsNear" = "/api/locations/near";
    }
}

/// The visitor's language on a script's call (the page's, which may differ
/// from the cookie's).
pub const LANG_HEADER: &str = "x-site-lang";
/// The browser session's form token on a script's call.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// The browser session's form token in a form post.
pub const CSRF_FIELD: &str = "csrf";
/// One fill of a form: a retry with the same key files it once.
pub const IDEMPOTENCY_HEADER: &str = "idempotency-key";
/// The forms' field for bots: a person leaves it empty (it is hidden).
pub const HONEYPOT_FIELD: &str = "leaveEmpty";
/// The multipart part in which a script sends a form's fields as JSON,
/// beside its file (the foundation application's proposal).
pub const SCRIPT_PART: &str = "application";
/// The query parameter that names a flow's step on a page without
/// JavaScript (the purchase's confirmation, the sign-in's code).
pub const STEP_PARAM: &str = "step";
/// The sign-in's code step: the account page with it (and the number)
/// asks for the code sent by SMS.
pub const CODE_STEP: &str = "code";
/// The purchase's confirmation step: a GET of the account page with it
/// shows the bundle, price, payer and recipient before any money moves.
pub const CONFIRM_STEP: &str = "confirm";
/// How long after a purchase is accepted the account page shows it, ms:
/// the operator's balance takes this long to say it.
pub const RELOAD_AFTER_MS: u32 = 5000;

/// The longest a form's text field may be, in characters, by its kind.
pub mod field_lengths {
    /// Short text: one line (a name, a district).
    pub const SHORT: usize = 100;
    /// A longer line (an organisation's or business's name, a project's title).
    pub const LINE: usize = 150;
    /// A paragraph or a few.
    pub const LONG: usize = 3000;
    /// RFC 5321's limit on an address.
    pub const EMAIL: usize = 254;
    /// A sign-in code: the operator sends six digits.
    pub const OTP_CODE: usize = 6;
    /// A count of people (a foundation project's team): the most the form
    /// takes, 100,000, is six digits.
    pub const COUNT: usize = 6;
    /// An amount of shillings as people type it, separators included: the
    /// most a budget line may ask, a trillion, is 17 characters with commas.
    pub const AMOUNT: usize = 20;
    /// What the site's search reads of a query: longer is no query a
    /// visitor types, and each word costs a lookup.
    pub const SEARCH_QUERY: usize = 100;
    /// A place name typed on the locator pages: the longest region,
    /// district or street name with room to spare.
    pub const PLACE_QUERY: usize = 60;

    /// Each, by the name the app knows it by.
    pub const ALL: &[(&str, usize)] = &[
        ("short", SHORT),
        ("line", LINE),
        ("long", LONG),
        ("email", EMAIL),
        ("otpCode", OTP_CODE),
        ("count", COUNT),
        ("amount", AMOUNT),
        ("searchQuery", SEARCH_QUERY),
        ("placeQuery", PLACE_QUERY),
    ];
}

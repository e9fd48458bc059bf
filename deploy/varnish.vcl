# Varnish (7.x, VCL 4.1) in front of the three instances of
# deploy/compose.yaml, in place of nginx's cache (README "Operate"). Pages
# for everyone are kept as long as the site says (`s-maxage`, served stale
# while revalidating for `stale-while-revalidate`); whatever depends on the
# visitor goes to the site uncached and unshared. tests/caches/ runs it.
#
#   varnishd -a :80 -f /etc/varnish/varnish.vcl -s malloc,256m
vcl 4.1;

import directors;

probe ready {
  .url = "/readyz";
  .interval = 2s;
  .timeout = 1s;
  .window = 3;
  .threshold = 2;
  # Healthy from the start: a backend that is not is found out by its probes.
  .initial = 2;
}

backend site_1 { .host = "site-1"; .port = "8080"; .probe = ready; }
backend site_2 { .host = "site-2"; .port = "8080"; .probe = ready; }
backend site_3 { .host = "site-3"; .port = "8080"; .probe = ready; }

sub vcl_init {
  new site = directors.round_robin();
  site.add_backend(site_1);
  site.add_backend(site_2);
  site.add_backend(site_3);
}

sub vcl_recv {
  set req.backend_hint = site.backend();
  unset req.http.X-Site-Encoding;
  call vcl_req_host;
  # POST and the other methods pass (the builtin rule), their cookies intact.
  call vcl_req_method;
  # The account area, the API (the bundle catalogue included: signed in it
  # carries the subscriber's own payment methods) and the sandbox.
  if (req.url ~ "^/(sw/)?account([/?]|$)" || req.url ~ "^/api/" || req.url ~ "^/sandbox([/?]|$)") {
    return (pass);
  }
  # A subscriber's or a customer permission manager's session, either form,
  # and the notice a form post left: the page is theirs alone.
  if (req.http.Cookie ~ "(^|;)\s*(__Host-session|session|__Host-cpm|cpm_session|flash)=") {
    return (pass);
  }
  # A visitor who chose a language is sent from `/` to it by the site.
  if (req.url ~ "^/([?]|$)" && req.http.Cookie ~ "(^|;)\s*lang=") {
    return (pass);
  }
  call vcl_req_authorization;
  # No other cookie changes a page for everyone: it is not sent on, so
  # analytics or junk cookies do not cost a render each.
  unset req.http.Cookie;
  # One copy per encoding the site makes (br, gzip, none), as the site
  # chooses: a token not refused with q=0.
  if (req.http.Accept-Encoding ~ "(?i)(^|,)\s*br\s*(,|;|$)" && req.http.Accept-Encoding !~ "(?i)(^|,)\s*br\s*;\s*q=0(\.0*)?\s*(,|$)") {
    set req.http.X-Site-Encoding = "br";
  } elsif (req.http.Accept-Encoding ~ "(?i)(^|,)\s*gzip\s*(,|;|$)" && req.http.Accept-Encoding !~ "(?i)(^|,)\s*gzip\s*;\s*q=0(\.0*)?\s*(,|$)") {
    set req.http.X-Site-Encoding = "gzip";
  } else {
    set req.http.X-Site-Encoding = "identity";
  }
  return (hash);
}

# The address and the encoding, not the Host (the site answers every Host
# alike: a made-up one is no new copy).
sub vcl_hash {
  hash_data(req.url);
  hash_data(req.http.X-Site-Encoding);
  return (lookup);
}

sub vcl_hit {
  set req.http.X-Cache = "hit";
}

sub vcl_miss {
  set req.http.X-Cache = "miss";
}

sub vcl_pass {
  set req.http.X-Cache = "pass";
}

sub vcl_backend_fetch {
  # Varnish asks for gzip on every miss; ask for the encoding of this copy.
  if (bereq.http.X-Site-Encoding == "identity") {
    unset bereq.http.Accept-Encoding;
  } elsif (bereq.http.X-Site-Encoding) {
    set bereq.http.Accept-Encoding = bereq.http.X-Site-Encoding;
  }
  unset bereq.http.X-Site-Encoding;
}

# vcl_backend_response is the builtin one: an answer that sets a cookie, or
# says `private`, `no-store` or `no-cache`, is never stored.

sub vcl_deliver {
  set resp.http.X-Cache = req.http.X-Cache;
}

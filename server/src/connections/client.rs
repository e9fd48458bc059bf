//! Who sent a request: its peer address ([`client_address`]), unless the
//! peer is a proxy named in `TRUSTED_PROXIES`: then the rightmost address of
//! `X-Forwarded-For` that is not such a proxy ([`resolve_client`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::Extensions;

/// An address range: `10.0.0.0/8`, `::1/128`, or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = address.parse().map_err(|_| format!("not an address or CIDR: {text:?}"))?;
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= bits)
                .ok_or_else(|| format!("bad prefix length in {text:?}"))?,
            None => bits,
        };
        Ok(Cidr { network, prefix })
    }

    pub fn contains(&self, address: IpAddr) -> bool {
        let address = match address {
            IpAddr::V6(v6) if self.network.is_ipv4() => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
            address => address,
        };
        match (self.network, address) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(network) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(network) & mask == u128::from(address) & mask
            }
            _ => false,
        }
    }
}

/// The client of a request `serve` decided on, kept in its extensions.
#[derive(Debug, Clone, Copy)]
pub(super) struct Client(pub(super) IpAddr);

/// Who sent a request that came from `peer`: `peer` itself, unless it is a
/// trusted proxy; then, walking `X-Forwarded-For` from the right (the hop
/// nearest to us, the only part a client cannot forge), the first address
/// that is not a trusted proxy. A header that cannot be read leaves the
/// proxy as the client, so a bad header never spreads one budget wider.
pub fn resolve_client(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |address: IpAddr| trusted.iter().any(|cidr| cidr.contains(address));
    if !is_trusted(peer) {
        return peer;
    }
    let mut client = peer;
    let hops = headers.get_all("x-forwarded-for").iter().collect::<Vec<_>>();
    for value in hops.into_iter().rev() {
        let Ok(value) = value.to_str() else { return client };
        for hop in value.split(',').rev() {
            let Ok(address) = hop.trim().parse::<IpAddr>() else { return client };
            client = address;
            if !is_trusted(address) {
                return address;
            }
        }
    }
    client
}

/// The client a request came from, as `serve` decided it
/// ([`resolve_client`]): the one place every per-client budget asks. A
/// request served in-process (a test's `oneshot`) counts as the unspecified
/// address.
pub fn client_address(extensions: &Extensions) -> IpAddr {
    match extensions.get::<Client>() {
        Some(Client(client)) => *client,
        None => {
            extensions.get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn cidrs_parse_and_match() {
        let lan = Cidr::parse("10.0.0.0/8").unwrap();
        assert!(lan.contains("10.1.2.3".parse().unwrap()));
        assert!(!lan.contains("11.0.0.1".parse().unwrap()));
        assert!(lan.contains("::ffff:10.0.0.1".parse().unwrap()), "an IPv4-mapped peer");
        let one = Cidr::parse("127.0.0.1").unwrap();
        assert!(one.contains("127.0.0.1".parse().unwrap()) && !one.contains("127.0.0.2".parse().unwrap()));
        assert!(Cidr::parse("fd00::/8").unwrap().contains("fd12::1".parse().unwrap()));
        assert!(Cidr::parse("0.0.0.0/0").unwrap().contains("8.8.8.8".parse().unwrap()));
        for bad in ["", "10.0.0.0/33", "host", "10.0.0.0/x"] {
            assert!(Cidr::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client_and_only_its_own_hop_counts() {
        let trusted = [Cidr::parse("127.0.0.1").unwrap(), Cidr::parse("10.0.0.0/8").unwrap()];
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        assert_eq!(
            resolve_client(stranger, &forwarded(&["1.2.3.4"]), &trusted),
            stranger,
            "an untrusted peer's header is ignored"
        );
        assert_eq!(resolve_client(proxy, &forwarded(&["1.2.3.4"]), &trusted), "1.2.3.4".parse::<IpAddr>().unwrap());
        // A client sending its own header: the forged hops are left of the one our proxy added.
        assert_eq!(
            resolve_client(proxy, &forwarded(&["6.6.6.6, 1.2.3.4"]), &trusted),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            resolve_client(proxy, &forwarded(&["6.6.6.6", "1.2.3.4, 10.0.0.7"]), &trusted),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            resolve_client(proxy, &forwarded(&["junk, 1.2.3.4"]), &trusted),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            resolve_client(proxy, &forwarded(&["1.2.3.4, junk"]), &trusted),
            proxy,
            "an unreadable nearest hop leaves the proxy"
        );
        assert_eq!(resolve_client(proxy, &HeaderMap::new(), &trusted), proxy);
        assert_eq!(resolve_client(proxy, &forwarded(&["1.2.3.4"]), &[]), proxy, "no proxy trusted by default");
    }
}

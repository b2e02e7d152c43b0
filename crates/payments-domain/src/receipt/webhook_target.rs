//! Where the server may send webhooks and buyers: HTTPS only and never an internal address, except in
//! development mode (HTTP and loopback allowed). URLs are checked at creation; webhook targets are checked
//! again after DNS resolution at delivery time, so a name cannot be pointed at an internal address later.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use thiserror::Error;
use url::{Host, Url};

/// Why a URL is not an acceptable target.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TargetError {
    #[error("is not an absolute URL")]
    Malformed,
    #[error("is longer than {MAX_URL_BYTES} bytes")]
    TooLong,
    #[error("must use https")]
    NotHttps,
    #[error("must not carry user credentials")]
    Credentials,
    #[error("must not point at a loopback, private, link-local or otherwise internal address")]
    InternalAddress,
    #[error("the host name did not resolve")]
    Unresolved,
}

/// The longest URL accepted (webhook and redirect targets): ample for any real endpoint, and it bounds what
/// is copied into every delivery row.
pub(super) const MAX_URL_BYTES: usize = 2_048;

/// The URL rules in force: production, or development mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetPolicy {
    pub dev_mode: bool,
}

impl TargetPolicy {
    /// Parses a URL the server will send to (or send a buyer to). In production: `https`, no credentials,
    /// no `localhost` and no literal internal address. Development mode also accepts `http` and loopback.
    pub fn check(self, text: &str) -> Result<Url, TargetError> {
        if text.len() > MAX_URL_BYTES {
            return Err(TargetError::TooLong);
        }
        let url = Url::parse(text).map_err(|_| TargetError::Malformed)?;
        let scheme_ok = match url.scheme() {
            "https" => true,
            "http" => self.dev_mode,
            _ => false,
        };
        if !scheme_ok {
            return Err(TargetError::NotHttps);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(TargetError::Credentials);
        }
        let internal = match url.host() {
            None => return Err(TargetError::Malformed),
            Some(Host::Domain(name)) => is_local_name(name),
            Some(Host::Ipv4(ip)) => !is_public_address(IpAddr::V4(ip)),
            Some(Host::Ipv6(ip)) => !is_public_address(IpAddr::V6(ip)),
        };
        if internal && !self.dev_mode {
            return Err(TargetError::InternalAddress);
        }
        Ok(url)
    }

    /// Whether a resolved address may be connected to.
    pub fn allows_address(self, address: IpAddr) -> bool {
        self.dev_mode || is_public_address(address)
    }
}

fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// Whether an address is publicly routable: not unspecified, loopback, private, shared (CGNAT), link-local,
/// multicast, broadcast, documentation, benchmarking or reserved; IPv4-mapped IPv6 is judged as IPv4.
/// The endpoint a webhook URL delivers to, for per-endpoint concurrency: scheme, host and port
/// (`https://hooks.example:443`); the URL itself when it has no such origin.
pub fn endpoint_of(url: &str) -> String {
    match Url::parse(url).map(|url| url.origin()) {
        Ok(origin @ url::Origin::Tuple(..)) => origin.ascii_serialization(),
        Ok(url::Origin::Opaque(_)) | Err(_) => url.to_owned(),
    }
}

pub(super) fn is_public_address(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(mapped) => is_public_v4(mapped),
            None => is_public_v6(ip),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let shared = a == 100 && (64..128).contains(&b);
    let benchmarking = a == 198 && (b == 18 || b == 19);
    let protocol_assignments = a == 192 && b == 0 && c == 0;
    let reserved = a >= 240;
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || shared
        || benchmarking
        || protocol_assignments
        || reserved)
}

/// An allow list, not a deny list: only global unicast (`2000::/3`, the one range IANA allocates to the public
/// internet) can be public, minus the special-purpose ranges inside it (IANA IPv6 Special-Purpose Address
/// Registry): `2001::/23` (IETF protocol assignments: Teredo `2001::/32`, benchmarking, ORCHID), documentation
/// (`2001:db8::/32`, `3fff::/20`) and 6to4 (`2002::/16`, which embeds an IPv4 address: `2002:7f00:1::` is
/// 127.0.0.1). Everything else (`::/8` with the IPv4-compatible and -translated forms, `64:ff9b::/96`,
/// `100::/64`, unique-local, link-local, multicast) is refused by not being listed.
fn is_public_v6(ip: Ipv6Addr) -> bool {
    let [first, second, ..] = ip.segments();
    let global_unicast = first & 0xe000 == 0x2000;
    let ietf_protocol_assignments = first == 0x2001 && second < 0x0200;
    let documentation = (first == 0x2001 && second == 0x0db8) || (first == 0x3fff && second < 0x1000);
    let six_to_four = first == 0x2002;
    global_unicast && !ietf_protocol_assignments && !documentation && !six_to_four
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRODUCTION: TargetPolicy = TargetPolicy { dev_mode: false };
    const DEVELOPMENT: TargetPolicy = TargetPolicy { dev_mode: true };

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn internal_addresses_are_not_public() {
        for internal in [
            "127.0.0.1",
            "127.8.9.10",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.18.0.1",
            "240.0.0.1",
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "2001:db8::1",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "::ffff:0:7f00:1",
            "::7f00:1",
            "100::1",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:2::1",
            "3fff::1",
            "64:ff9b:1::1",
            "5f00::1",
        ] {
            assert!(!is_public_address(ip(internal)), "{internal} should be internal");
        }
    }

    #[test]
    fn ordinary_internet_addresses_are_public() {
        for public in [
            "93.184.216.34",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "2a00:1450:4001:82a::200e",
            "2001:4860:4860::8888",
        ] {
            assert!(is_public_address(ip(public)), "{public} should be public");
        }
    }

    #[test]
    fn production_accepts_only_https_to_public_hosts() {
        assert!(PRODUCTION.check("https://shop.example.com/hooks").is_ok());
        assert_eq!(
            PRODUCTION.check("http://shop.example.com/hooks"),
            Err(TargetError::NotHttps)
        );
        assert_eq!(
            PRODUCTION.check("ftp://shop.example.com/"),
            Err(TargetError::NotHttps)
        );
        assert_eq!(
            PRODUCTION.check("https://localhost/x"),
            Err(TargetError::InternalAddress)
        );
        assert_eq!(
            PRODUCTION.check("https://127.0.0.1/x"),
            Err(TargetError::InternalAddress)
        );
        assert_eq!(
            PRODUCTION.check("https://[::1]/x"),
            Err(TargetError::InternalAddress)
        );
        assert_eq!(
            PRODUCTION.check("https://10.1.2.3/x"),
            Err(TargetError::InternalAddress)
        );
        assert_eq!(
            PRODUCTION.check("https://u:p@shop.example.com/"),
            Err(TargetError::Credentials)
        );
        assert_eq!(PRODUCTION.check("not a url"), Err(TargetError::Malformed));
        let at_limit = format!("https://shop.example.com/{}", "a".repeat(MAX_URL_BYTES - 25));
        assert_eq!(at_limit.len(), MAX_URL_BYTES);
        assert!(PRODUCTION.check(&at_limit).is_ok());
        assert_eq!(
            PRODUCTION.check(&format!("{at_limit}a")),
            Err(TargetError::TooLong)
        );
    }

    #[test]
    fn development_mode_also_accepts_http_and_loopback() {
        assert!(DEVELOPMENT.check("http://127.0.0.1:9000/hooks").is_ok());
        assert!(DEVELOPMENT.check("http://localhost/hooks").is_ok());
        assert!(DEVELOPMENT.allows_address(ip("127.0.0.1")));
        assert!(!PRODUCTION.allows_address(ip("127.0.0.1")));
        assert_eq!(DEVELOPMENT.check("ftp://localhost/"), Err(TargetError::NotHttps));
    }
}

//! What each client address holds, each at most a cap: the connections
//! `serve` takes from one address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::infra::locks;

/// How many of something each client address holds, each at most `cap`.
#[derive(Clone)]
pub struct PerAddress {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    cap: usize,
}

impl PerAddress {
    pub fn new(cap: usize) -> PerAddress {
        PerAddress { counts: Arc::default(), cap }
    }

    /// One more for `address`, unless it holds `cap` already.
    pub fn take(&self, address: IpAddr) -> Option<AddressSlot> {
        let mut map = locks::lock(&self.counts);
        let count = map.entry(address).or_default();
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot { counts: self.counts.clone(), address })
    }
}

/// One of what a client address holds, given back when dropped.
pub struct AddressSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut map = locks::lock(&self.counts);
        if let Some(count) = map.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                map.remove(&self.address);
            }
        }
    }
}
